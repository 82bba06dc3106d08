/**
 * @swarm/core/viewer: `colony viewer`, a local read-only web page of the fleet (lanes,
 * plans as waves, claims and file heat, the inbox, savings over time). A separate entry
 * so library users never load the HTTP server. This file is the whole public API of
 * the entry.
 */
export { isPanel, PANELS, type PanelEnvelope, type PanelName, ViewerData } from './_data';
export type { ViewerScope } from './_scope';
export {
  DEFAULT_REFRESH_MS,
  DEFAULT_VIEWER_PORT,
  startViewer,
  type ViewerHandle,
  type ViewerOptions,
} from './_server';

/**
 * @module viewer
 * `colony viewer`: a local read-only web page of the fleet (lanes, the swarm runtime, plans as waves,
 * claims and file heat, the inbox, savings over time), over an open colony. Part of the
 * CLI (its chart library, uPlot, is the CLI's dependency, not the library's); the
 * command loads it lazily.
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

/**
 * `colony mcp`: serve the tool registry over MCP (stdio by default, Streamable HTTP
 * on 127.0.0.1 with --http). Over stdio, colony opens on the first tool call (the
 * handshake is answered from build-time data), as in colony-mcp.
 */

import handshake from 'virtual:colony-mcp-handshake';
import { parseServeFlags, serveColony } from '@swarm/core/serve';
import { defineCommand } from 'citty';
import { storeArgs } from '../_store-args';

export default defineCommand({
  meta: { name: 'mcp', description: 'Serve colony over MCP (stdio; --http for Streamable HTTP on 127.0.0.1)' },
  args: {
    ...storeArgs,
    toolset: {
      type: 'string',
      description:
        'core (lean startup set), all (the MCP contract), framework (seed-000 tools) or runtime (seed-004 tools, needs --allow-exec)',
      default: 'all',
      valueHint: 'core|all|framework|runtime',
    },
    'allow-exec': {
      type: 'boolean',
      description:
        'Serve the runtime tools (workspaces, exec_parallel, swarm_run): they run shell commands on the host (default $COLONY_ALLOW_EXEC=1)',
      default: false,
    },
    'allow-write': {
      type: 'boolean',
      description: 'Apply write proposals the arbiter approves (default $COLONY_ALLOW_WRITE=1)',
      default: false,
    },
    http: { type: 'boolean', description: 'Serve Streamable HTTP on 127.0.0.1 with a bearer token', default: false },
    port: { type: 'string', description: 'HTTP port (default 7777; 0 picks a free one)', valueHint: 'n' },
    token: {
      type: 'string',
      description: 'HTTP bearer token (default $COLONY_MCP_TOKEN or $COLONY_HOME/mcp-http-token)',
    },
  },
  async run({ args }) {
    const flags = parseServeFlags(args);
    const extra = {
      ...(args['allow-write'] ? { allowWrite: true } : {}),
      ...(flags.allowExec ? { allowExec: true } : {}),
    };
    const open = () => import('../_colony').then(({ openFromArgs }) => openFromArgs(args, extra));
    const handle = await serveColony({ colony: open, handshake, ...flags });
    const stop = () => void handle.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await handle.done;
  },
});

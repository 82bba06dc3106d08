/**
 * `colony mcp`: serve the tool registry over MCP (stdio by default, Streamable HTTP
 * on 127.0.0.1 with --http). Over stdio, colony opens on the first tool call (the
 * handshake is answered from build-time data), as in colony-mcp.
 */

import { delimiter } from 'node:path';
import handshake from 'virtual:colony-mcp-handshake';
import { parseServeFlags, serveColony } from '@swarm/core/serve';
import { defineCommand } from 'citty';
import { applyVerbose, debug, verboseArg } from '../_debug';
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
    arbiter: {
      type: 'string',
      description: 'The only agent whose arbiter_decide calls are accepted (approved writes apply only for it)',
      valueHint: 'name',
    },
    root: {
      type: 'string',
      description: `Folders file tools may work under, beside the client's roots or the cwd's repository ("${delimiter}"-separated)`,
      valueHint: 'dir',
    },
    http: { type: 'boolean', description: 'Serve Streamable HTTP on 127.0.0.1 with a bearer token', default: false },
    port: { type: 'string', description: 'HTTP port (default 7777; 0 picks a free one)', valueHint: 'n' },
    token: {
      type: 'string',
      description: 'HTTP bearer token (default $COLONY_MCP_TOKEN or $COLONY_HOME/mcp-http-token)',
    },
    ...verboseArg,
  },
  async run({ args }) {
    applyVerbose(args);
    const flags = parseServeFlags(args);
    const roots = [args.root as string | string[] | undefined]
      .flat()
      .flatMap((r) => (r ? r.split(delimiter) : []))
      .filter(Boolean);
    const extra = {
      ...(args['allow-write'] ? { allowWrite: true } : {}),
      ...(flags.allowExec ? { allowExec: true } : {}),
      ...(roots.length ? { roots } : {}),
      ...(args.arbiter ? { arbiter: args.arbiter } : {}),
    };
    const open = () =>
      Promise.all([import('../_colony'), import('../_trace-calls')]).then(async ([{ openFromArgs }, { traceCalls }]) =>
        traceCalls(await openFromArgs(args, extra, false)),
      );
    debug(`mcp: ${flags.http ? 'Streamable HTTP' : 'stdio'}, toolset ${args.toolset}, pid ${process.pid}`);
    const handle = await serveColony({ colony: open, handshake, ...flags });
    const stop = () => void handle.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await handle.done;
  },
});

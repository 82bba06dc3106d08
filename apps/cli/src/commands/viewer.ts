/**
 * `colony viewer`: a local, read-only web page of the fleet on 127.0.0.1 (lanes, the
 * swarm runtime, plans as waves, claims and file heat, the inbox, savings over time),
 * live over Server-Sent Events. Thin: flags -> ../viewer; prints the URL and serves
 * until stopped.
 */
import { resolve } from 'node:path';
import { MAX_SAVINGS_HOURS } from '@swarm/tools';
import { defineCommand } from 'citty';
import { parseWholeNumber, usageError } from '../_args';
import { openFromArgs, storeArgs } from '../_colony';
import { DEFAULT_VIEWER_PORT, startViewer } from '../viewer/index';

export default defineCommand({
  meta: {
    name: 'viewer',
    description:
      'Serve a live, read-only web page of the fleet on 127.0.0.1 (lanes, runtime, plans, claims, inbox, savings).',
  },
  args: {
    port: {
      type: 'string',
      description: `Port on 127.0.0.1 (default ${DEFAULT_VIEWER_PORT}; 0 picks a free one)`,
      valueHint: 'n',
    },
    'repo-root': { type: 'string', description: 'Only this repository (default: every one)', valueHint: 'path' },
    session: { type: 'string', description: "Show this session's inbox (with --agent; default: the fleet view)" },
    agent: { type: 'string', description: 'The agent of --session' },
    hours: { type: 'string', description: 'Hours of the savings chart (default 24, max 720)', valueHint: 'n' },
    ...storeArgs,
  },
  async run({ args }) {
    const port = parseWholeNumber(args.port, '--port') ?? DEFAULT_VIEWER_PORT;
    if (port > 65535) throw usageError(`--port must be 0-65535, got ${port}`);
    const hours = parseWholeNumber(args.hours, '--hours');
    if (hours !== undefined && (hours < 1 || hours > MAX_SAVINGS_HOURS)) {
      throw usageError(`--hours must be 1-${MAX_SAVINGS_HOURS}, got ${hours}`);
    }
    if (Boolean(args.session) !== Boolean(args.agent)) throw usageError('--session and --agent go together');
    // Receipts off: the page's own reads must not show up in the savings it charts.
    const colony = await openFromArgs(args, { receipts: false });
    const viewer = await startViewer({
      colony,
      port,
      scope: {
        ...(args['repo-root'] ? { repoRoot: resolve(args['repo-root']) } : {}),
        ...(args.session && args.agent ? { sessionId: args.session, agent: args.agent } : {}),
        ...(hours !== undefined ? { savingsHours: hours } : {}),
      },
    }).catch(async (error: unknown) => {
      await colony.close();
      throw error;
    });
    process.stdout.write(`colony viewer: ${viewer.url}\n`);
    await new Promise<void>((done) => {
      const stop = () => void viewer.close().then(done);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await colony.close();
  },
});

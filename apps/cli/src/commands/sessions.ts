/**
 * `colony sessions`: the `list_sessions` tool, newest first.
 */
import type { SessionSummary } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber } from '../_args';
import { callTool, defined, storeArgs, withExistingColony } from '../_colony';
import { columns, iso } from '../_format';
import { printJson, printLines } from '../_output';

export default defineCommand({
  meta: { name: 'sessions', description: 'List recent agent sessions, newest first.' },
  args: {
    limit: { type: 'string', description: 'Most sessions to list (default 20, max 100)', valueHint: 'n' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({ limit: parseWholeNumber(args.limit, '--limit') });
    const sessions = await withExistingColony(args, (colony) =>
      callTool<SessionSummary[]>(colony, 'list_sessions', input),
    );
    if (args.json) return printJson(sessions);
    if (sessions.length === 0) return printLines(['no sessions']);
    printLines(
      columns(
        sessions.map((s) => [
          s.id,
          s.ide,
          iso(s.started_at),
          s.ended_at === null ? 'active' : `ended ${iso(s.ended_at)}`,
          s.cwd ?? '',
        ]),
      ),
    );
  },
});

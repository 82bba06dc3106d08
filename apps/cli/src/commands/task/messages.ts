/**
 * `colony task messages`: the `task_messages` tool. Messages addressed to a session,
 * newest first, one line each; bodies are read with `colony show`.
 */
import type { MessageEntry } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { columns, iso } from '../../_format';
import { printJson, printLines } from '../../_output';

export default defineCommand({
  meta: { name: 'messages', description: 'List messages addressed to you, newest first (unread only unless --all).' },
  args: {
    session: { type: 'string', description: 'Your session id', valueHint: 'id', required: true },
    agent: { type: 'string', description: 'Your agent name (claude, codex, ...)', valueHint: 'name', required: true },
    all: { type: 'boolean', description: 'Include read, replied and expired messages', default: false },
    limit: { type: 'string', description: 'Most messages to list (default 50, max 200)', valueHint: 'n' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const input = defined({
      session_id: args.session,
      agent: args.agent,
      unread_only: !args.all,
      limit: parseWholeNumber(args.limit, '--limit'),
    });
    const entries = await withColony(args, (colony) => callTool<MessageEntry[]>(colony, 'task_messages', input));
    if (args.json) return printJson(entries);
    if (entries.length === 0) return printLines([args.all ? 'no messages' : 'no unread messages']);
    printLines(
      columns(
        entries.map((m) => [
          `#${m.id}`,
          `task #${m.task_id}`,
          m.urgency,
          m.status,
          `from ${m.from_agent}:${m.from_session_id}`,
          iso(m.ts),
          m.preview,
        ]),
      ),
    );
  },
});

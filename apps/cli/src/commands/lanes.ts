/**
 * `colony lanes`: the `hivemind` tool. Live lanes (a session on a task thread) of a
 * repository, one line each: activity, owner, branch, task, locked files.
 */
import { resolve } from 'node:path';
import type { HivemindResult } from '@swarm/tools';
import { defineCommand } from 'citty';
import { jsonArg, parseWholeNumber } from '../_args';
import { callTool, defined, storeArgs, withExistingColony } from '../_colony';
import { columns } from '../_format';
import { printJson, printLines } from '../_output';

export default defineCommand({
  meta: { name: 'lanes', description: 'Show live agent lanes: who works on which task thread, and how actively.' },
  args: {
    'repo-root': {
      type: 'string',
      description: 'Repository to inspect (relative paths resolve; default: the current directory)',
      valueHint: 'path',
    },
    all: { type: 'boolean', description: 'Include dead lanes (include_stale)', default: false },
    limit: { type: 'string', description: 'Most lanes to list (default 50, max 100)', valueHint: 'n' },
    ...jsonArg,
    ...storeArgs,
  },
  async run({ args }) {
    const repoRoot = args['repo-root'];
    const input = defined({
      repo_root: repoRoot === undefined ? undefined : resolve(repoRoot),
      include_stale: args.all,
      limit: parseWholeNumber(args.limit, '--limit'),
    });
    const map = await withExistingColony(args, (colony) => callTool<HivemindResult>(colony, 'hivemind', input));
    if (args.json) return printJson(map);
    const counts = Object.entries(map.counts)
      .filter(([, n]) => n > 0)
      .map(([activity, n]) => `${n} ${activity}`);
    const rows = map.sessions.map((s) => [
      s.needs_attention ? `${s.activity}!` : s.activity,
      s.owner,
      s.branch,
      s.task,
      s.locked_file_count > 0 ? `${s.locked_file_count} files: ${s.locked_file_preview.join(', ')}` : 'no files',
      s.session_id,
    ]);
    printLines([
      `${map.session_count} lanes in ${map.repo_roots.join(', ')}${counts.length ? ` (${counts.join(', ')})` : ''}`,
      ...columns(rows),
      ...(map.sessions.length < map.session_count ? [`... ${map.session_count - map.sessions.length} more`] : []),
    ]);
  },
});

/**
 * `colony swarm logs <agent> [--follow] [--session N|ID]`: an agent's log of the
 * latest session, or of a past one: `--session N` is the Nth most recent session
 * (1 = the latest, 2 = the one before...), `--session <id>` names it
 * (`20261125-a3f2`). Sessions are ordered by their start time (the `session.json`
 * each log folder holds). `--follow` keeps printing new lines until interrupted.
 */
import { existsSync, readdirSync, readFileSync, statSync, watchFile } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { CliError } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'logs', description: 'Show an agent’s log.' },
  args: {
    agent: { type: 'positional', description: 'Agent name', required: true },
    follow: { type: 'boolean', description: 'Keep printing new lines' },
    session: {
      type: 'string',
      description: 'N = the Nth most recent session (1 = latest), or a session id (default: the latest)',
      valueHint: 'n|id',
    },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { repoRootOf } = await import('@swarm/core/runtime');
    const root = await control(() => repoRootOf(controlOptions(args).cwd));
    const dir = join(root, '.colony', 'logs');
    const sessions = newestFirst(dir);
    const session = pick(sessions, args.session);
    const file = join(dir, session, `${args.agent}.log`);
    if (!existsSync(file)) throw new CliError(`no log for ${args.agent} in session ${session}`);
    let offset = 0;
    const flush = () => {
      const text = readFileSync(file);
      if (text.length > offset) process.stdout.write(text.subarray(offset));
      offset = text.length;
    };
    flush();
    if (!args.follow) return;
    watchFile(file, { interval: 250 }, () => {
      if (statSync(file).size !== offset) flush();
    });
    await new Promise(() => undefined);
  },
});

/** Session log folders, the most recently started first. */
function newestFirst(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const started = (id: string): number => {
    try {
      const meta = JSON.parse(readFileSync(join(dir, id, 'session.json'), 'utf8')) as { started_at?: string };
      const t = Date.parse(meta.started_at ?? '');
      if (Number.isFinite(t)) return t;
    } catch {
      // a folder from before session.json was written: its modification time
    }
    return statSync(join(dir, id)).mtimeMs;
  };
  return readdirSync(dir)
    .filter((id) => statSync(join(dir, id)).isDirectory())
    .map((id) => ({ id, t: started(id) }))
    .sort((a, b) => b.t - a.t || b.id.localeCompare(a.id))
    .map((s) => s.id);
}

function pick(sessions: string[], wanted: string | undefined): string {
  if (sessions.length === 0) throw new CliError('no session logs');
  if (wanted === undefined) return sessions[0]!;
  if (/^\d+$/.test(wanted)) {
    const n = Number(wanted);
    if (n < 1 || n > sessions.length) {
      throw new CliError(
        `--session ${wanted}: there are ${sessions.length} session log(s); give 1..${sessions.length} or an id`,
      );
    }
    return sessions[n - 1]!;
  }
  if (!sessions.includes(wanted)) throw new CliError(`no session ${wanted}; sessions: ${sessions.join(', ')}`);
  return wanted;
}

/** `colony swarm logs <agent> [--follow] [--session ID]`: an agent's log of the current (or a past) session. */
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
    session: { type: 'string', description: 'Session id (default: the latest)', valueHint: 'id' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { repoRootOf } = await import('@swarm/core/runtime');
    const root = await control(() => repoRootOf(controlOptions(args).cwd));
    const dir = join(root, '.colony', 'logs');
    const sessions = existsSync(dir) ? readdirSync(dir).sort() : [];
    const session = args.session ?? sessions.at(-1);
    if (!session) throw new CliError('no session logs');
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

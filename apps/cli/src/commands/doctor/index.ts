/**
 * `colony doctor [--json] [--fix]`: what colony would use here and whether it works:
 * the store and why that one, settings.json, the native SQLite module, git, the IDEs
 * colony is registered in (do hooks and server share a store?), the HTTP token file's
 * mode, and the sandbox. Exit code 1 when a check fails. Reads only, except `--fix`
 * (chmod 600 on the token file). First the store backend in use (`backend: sqlite
 * (<path>)`). `--json` prints `{ ok, store: { backend, path }, checks }` (docs/cli.md).
 */
import { homedir } from 'node:os';
import { defineCommand } from 'citty';
import { jsonArg } from '../../_args';
import { printJson, printLines } from '../../_output';
import { resolveRepoRoot } from '../../_repo-root';
import { storeArgs } from '../../_store-args';
import { storeChoice } from '../../_store-path';
import { describeBackend, storeBackend } from './_backend';
import type { DoctorCheck, DoctorContext } from './_check';
import { gitCheck } from './_git';
import { ideChecks } from './_ides';
import { nativeCheck } from './_native';
import { describeChecks } from './_print';
import { sandboxCheck } from './_sandbox';
import { settingsCheck } from './_settings';
import { storeCheck } from './_store';
import { tokenCheck } from './_token';

export default defineCommand({
  meta: {
    name: 'doctor',
    description: 'Check the store, settings, SQLite module, git, IDE registrations and token file.',
  },
  args: {
    ...jsonArg,
    fix: { type: 'boolean', description: 'Fix what is safe to fix (the HTTP token file mode)', default: false },
    ...storeArgs,
  },
  async run({ args }) {
    const ctx: DoctorContext = { db: args.db, home: args.home, env: process.env, userHome: homedir(), fix: args.fix };
    const { home } = storeChoice(ctx, ctx.env, ctx.userHome);
    const native = await nativeCheck();
    const projectRoot = native.status === 'ok' ? await resolveRepoRoot(undefined) : process.cwd();
    const store = await storeBackend(ctx);
    const checks: DoctorCheck[] = [
      storeCheck(ctx, store),
      await settingsCheck(home),
      native,
      gitCheck(ctx.env),
      ...ideChecks(ctx, projectRoot),
      tokenCheck(home, ctx.fix),
      await sandboxCheck(),
    ];
    const ok = checks.every((c) => c.status !== 'fail');
    if (args.json) printJson({ ok, store, checks });
    else printLines([describeBackend(store), ...describeChecks(checks)]);
    if (!ok) process.exitCode = 1;
  },
});

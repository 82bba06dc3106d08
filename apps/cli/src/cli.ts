#!/usr/bin/env node
/**
 * colony: the command-line interface. Thin: parse argv -> core -> print (human or
 * --json). Sub-commands load lazily so `colony --help` starts fast. Errors print as
 * one line on stderr: exit code 2 for a command line that cannot run as written
 * (unknown command or option, missing argument, malformed number), 1 for everything
 * else (a tool's refusal prints as `<CODE>: <message>`).
 */
import { type CommandDef, defineCommand, renderUsage, runCommand } from 'citty';
import pkg from '../package.json' with { type: 'json' };
import { assertKnownFlags, USAGE_EXIT, usageError } from './_args';
import { forStream } from './_color';
import { fatalLines } from './_fatal';
import { CliError } from './_output';
import { setRootCommand } from './_root';
import { didYouMeanText } from './_suggest';

const main = defineCommand({
  meta: {
    name: 'colony',
    version: pkg.version,
    description: 'Local-first coordination for fleets of AI coding agents.',
  },
  subCommands: {
    search: () => import('./commands/search').then((m) => m.default),
    memory: () => import('./commands/memory/index').then((m) => m.default),
    foraging: () => import('./commands/foraging/index').then((m) => m.default),
    examples: () => import('./commands/examples/index').then((m) => m.default),
    show: () => import('./commands/show').then((m) => m.default),
    sessions: () => import('./commands/sessions').then((m) => m.default),
    lanes: () => import('./commands/lanes').then((m) => m.default),
    task: () => import('./commands/task/index').then((m) => m.default),
    inbox: () => import('./commands/inbox').then((m) => m.default),
    autopilot: () => import('./commands/autopilot/index').then((m) => m.default),
    plan: () => import('./commands/plan/index').then((m) => m.default),
    status: () => import('./commands/status').then((m) => m.default),
    gain: () => import('./commands/gain').then((m) => m.default),
    viewer: () => import('./commands/viewer').then((m) => m.default),
    docs: () => import('./commands/docs/index').then((m) => m.default),
    mcp: () => import('./commands/mcp').then((m) => m.default),
    hook: () => import('./commands/hook/index').then((m) => m.default),
    install: () => import('./commands/install').then((m) => m.default),
    doctor: () => import('./commands/doctor/index').then((m) => m.default),
    store: () => import('./commands/store/index').then((m) => m.default),
    completion: () => import('./commands/completion').then((m) => m.default),
    uninstall: () => import('./commands/uninstall').then((m) => m.default),
    workspace: () => import('./commands/workspace/index').then((m) => m.default),
    exec: () => import('./commands/exec').then((m) => m.default),
    swarm: () => import('./commands/swarm/index').then((m) => m.default),
    skills: () => import('./commands/skills/index').then((m) => m.default),
  },
});

/** The command argv names (stopping at the first word that is not a sub-command), its parent and its full name. */
async function resolveTarget(cmd: CommandDef, argv: string[]): Promise<[CommandDef, CommandDef | undefined, string]> {
  let current = cmd;
  let parent: CommandDef | undefined;
  const names = ['colony'];
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg.startsWith('-')) continue;
    const subs = typeof current.subCommands === 'function' ? await current.subCommands() : await current.subCommands;
    const next = subs?.[arg];
    if (!next) break;
    parent = current;
    current = (typeof next === 'function' ? await next() : await next) as CommandDef;
    names.push(arg);
  }
  return [current, parent, names.join(' ')];
}

async function run(argv: string[]): Promise<void> {
  const options = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  if (argv.length === 0 || options.includes('--help') || options.includes('-h')) {
    const [cmd, parent, name] = await resolveTarget(main as CommandDef, argv);
    // citty names a command by its parent's name only; give the parent the full path.
    const path = name.split(' ').slice(0, -1).join(' ');
    const usage = await renderUsage(cmd, parent && { meta: { name: path, version: pkg.version } });
    process.stdout.write(`${forStream(usage)}\n`);
    return;
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`${pkg.version}\n`);
    return;
  }
  const [target, , name] = await resolveTarget(main as CommandDef, argv);
  if (target.subCommands && !target.run) await refuseMissingCommand(target, argv, name);
  await assertKnownFlags(target, argv, name);
  await runCommand(main, { rawArgs: argv });
}

/** A command group reached without a known sub-command: say which exist. */
async function refuseMissingCommand(group: CommandDef, argv: string[], name: string): Promise<never> {
  const subs = typeof group.subCommands === 'function' ? await group.subCommands() : await group.subCommands;
  const choices = Object.keys(subs ?? {}).join(', ');
  const depth = name.split(' ').length - 1;
  const word = argv.filter((a) => !a.startsWith('-'))[depth];
  throw usageError(
    word === undefined
      ? `missing command for ${name}: ${choices} (see ${name} --help)`
      : `unknown command "${word}" for ${name}${didYouMeanText(word, Object.keys(subs ?? {})) || `; commands: ${choices}`} (see ${name} --help)`,
  );
}

/** citty's own argument errors (unknown command, missing argument) are usage errors. */
function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof Error && error.name === 'CLIError') return USAGE_EXIT;
  return 1;
}

/**
 * `colony hook run` is run by IDEs, which read exit code 2 as "block this tool call":
 * its failures, usage errors included, exit 1 (reported, then ignored by the IDE).
 */
function isHookRun(argv: readonly string[]): boolean {
  const words = argv.filter((a) => !a.startsWith('-'));
  const at = words.indexOf('hook');
  return at >= 0 && words[at + 1] === 'run';
}

setRootCommand(main as CommandDef);
const argv = process.argv.slice(2);
run(argv).catch((error: unknown) => {
  process.stderr.write(
    fatalLines(error)
      .map((line) => `colony: ${line}\n`)
      .join(''),
  );
  const code = exitCodeOf(error);
  process.exitCode = code === USAGE_EXIT && isHookRun(argv) ? 1 : code;
});

#!/usr/bin/env node
/**
 * colony: the command-line interface. Thin: parse argv -> core -> print (human or
 * --json). Sub-commands load lazily so `colony --help` starts fast. Errors print as
 * one line on stderr with a non-zero exit.
 */
import { type CommandDef, defineCommand, runCommand, showUsage } from 'citty';
import pkg from '../package.json' with { type: 'json' };
import { CliError } from './_output';

const main = defineCommand({
  meta: { name: 'colony', version: pkg.version, description: 'Local-first coordination for fleets of AI coding agents.' },
  subCommands: {
    mcp: () => import('./commands/mcp').then((m) => m.default),
  },
});

async function resolveTarget(cmd: CommandDef, argv: string[]): Promise<[CommandDef, CommandDef | undefined]> {
  let current = cmd;
  let parent: CommandDef | undefined;
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    const subs = typeof current.subCommands === 'function' ? await current.subCommands() : await current.subCommands;
    const next = subs?.[arg];
    if (!next) break;
    parent = current;
    current = (typeof next === 'function' ? await next() : await next) as CommandDef;
  }
  return [current, parent];
}

async function run(argv: string[]): Promise<void> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    const [cmd, parent] = await resolveTarget(main as CommandDef, argv);
    await showUsage(cmd, parent);
    return;
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`${pkg.version}\n`);
    return;
  }
  await runCommand(main, { rawArgs: argv });
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`colony: ${message.split('\n')[0]}\n`);
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
});

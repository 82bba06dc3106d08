/**
 * @module args
 * Strict argv pieces citty leaves loose: whole numbers that reject "12abc", ids that
 * may be written `#12`, variadic positionals, and refusing flags a command does not
 * define (citty would silently ignore a typo like `--limt`). All of these are usage
 * errors: exit code 2.
 */
import { resolve } from 'node:path';
import type { ArgsDef, CommandDef } from 'citty';
import { CliError } from './_output';
import { didYouMeanText } from './_suggest';

/** Exit code for a command line that cannot be run as written. */
export const USAGE_EXIT = 2;

export function usageError(message: string): CliError {
  return new CliError(message, USAGE_EXIT);
}

/** `--json`: print the raw tool value on one line. */
export const jsonArg = {
  json: { type: 'boolean', description: 'Print the raw tool result as one line of JSON', default: false },
} as const;

/** `--idempotency-key`: a retry of a mutating command returns the first result. */
export const idempotencyArg = {
  'idempotency-key': {
    type: 'string',
    valueHint: 'key',
    description: 'Retry key: a repeat with the same key returns the first result',
  },
} as const;

/** A whole number written in decimal digits, or undefined when the flag was not given. */
export function parseWholeNumber(raw: string | undefined, label: string): number | undefined {
  if (raw === undefined) return undefined;
  if (raw === '') throw usageError(`${label} needs a value`);
  if (!/^\d+$/.test(raw)) throw usageError(`${label} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw usageError(`${label} is too large: ${raw}`);
  return value;
}

/** An observation or task id: digits, optionally prefixed with `#` as the CLI prints them. */
export function parseId(raw: string, label: string): number {
  const value = parseWholeNumber(raw.startsWith('#') ? raw.slice(1) : raw, label);
  if (value === undefined) throw usageError(`${label} is required`);
  return value;
}

/** The positionals after the first `skip`, as citty collects them in `args._`. */
export function restPositionals(args: { _: readonly unknown[] }, skip = 0): string[] {
  return args._.slice(skip).map(String);
}

/**
 * The arguments of a `<task-id> <content...>` command posting as a thread's
 * participant: both positionals and `--session`. `content` says what the words are.
 */
export function taskContentArgs(content: string) {
  return {
    'task-id': { type: 'positional', description: 'Task id (from `task thread` or `task list`)', required: true },
    content: {
      type: 'positional',
      description: `${content} (all remaining words; quote it, or put it after \`--\`)`,
      required: true,
    },
    session: {
      type: 'string',
      description: 'Your session id (must have joined the thread)',
      valueHint: 'id',
      required: true,
    },
  } as const;
}

/**
 * `<task-id> <text...>`: the task id and the remaining words joined into one text,
 * refused as a usage error when no words follow (`missing` says what is missing).
 */
export function taskIdAndText(args: { _: readonly unknown[] }, missing: string): { taskId: number; text: string } {
  const [rawTask = '', ...words] = restPositionals(args);
  if (words.length === 0) throw usageError(`missing CONTENT: ${missing}`);
  return { taskId: parseId(rawTask, 'task id'), text: words.join(' ') };
}

/**
 * Refuses any `-x`/`--name` the command does not define, up to a `--` terminator.
 * Flags taking a value skip it, so `--content --weird` style values are not judged.
 */
export async function assertKnownFlags(cmd: CommandDef, argv: readonly string[], commandName: string): Promise<void> {
  const defs = (typeof cmd.args === 'function' ? await cmd.args() : await cmd.args) ?? ({} as ArgsDef);
  const known = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === 'positional') continue;
    const alias = 'alias' in def ? def.alias : undefined;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    for (const spelling of [name, kebab(name), ...aliases]) known.set(spelling, def.type ?? 'boolean');
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return;
    if (!arg.startsWith('-') || arg === '-') continue;
    const name = arg.replace(/^--?/, '').split('=')[0] ?? '';
    const type = known.get(name) ?? (name.startsWith('no-') && known.get(name.slice(3)) === 'boolean' ? 'boolean' : '');
    if (!type) {
      const hint = didYouMeanText(
        name,
        [...known.keys()].filter((k) => k.length > 1),
        false,
      );
      throw usageError(
        `unknown option ${arg.split('=')[0]} for ${commandName}${hint.replace(/mean (\S+)\?/, 'mean --$1?')} (see ${commandName} --help)`,
      );
    }
    if (type !== 'boolean' && !arg.includes('=')) i++;
  }
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * Every value of a repeatable string flag (`--name v` or `--name=v`, in order), read
 * from the raw argv since citty keeps only the last. Stops at a `--` terminator.
 */
export function repeatedFlag(rawArgs: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i] ?? '';
    if (arg === '--') break;
    if (arg === `--${name}`) {
      const value = rawArgs[i + 1];
      if (value === undefined) throw usageError(`--${name} needs a value`);
      values.push(value);
      i++;
    } else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
  }
  return values;
}

/** `--session`: the caller's session, which must have joined the task it acts on. */
export const sessionArg = {
  session: {
    type: 'string',
    description: 'Your session id (must have joined the task)',
    valueHint: 'id',
    required: true,
  },
} as const;

/** Who asks for work (`task ready`, `autopilot tick`): session, agent, optionally one repository. */
export const agentArgs = {
  session: { type: 'string', description: 'Your session id', valueHint: 'id', required: true },
  agent: { type: 'string', description: 'Your agent name (claude, codex, ...)', valueHint: 'name', required: true },
  'repo-root': {
    type: 'string',
    description: 'Only plans of this repository (relative paths resolve; default: every repository)',
    valueHint: 'path',
  },
} as const;

/** The tool arguments `agentArgs` give: session_id, agent, and repo_root resolved when given. */
export function agentInput(args: { session: string; agent: string; 'repo-root'?: string | undefined }) {
  const repoRoot = args['repo-root'];
  return {
    session_id: args.session,
    agent: args.agent,
    ...(repoRoot === undefined ? {} : { repo_root: resolve(repoRoot) }),
  };
}

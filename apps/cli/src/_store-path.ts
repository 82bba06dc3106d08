/**
 * @module store-path
 * Which store a command line opens, and why: `--db`, else `<home>/colony.db` where the
 * home is `--home`, else `$COLONY_HOME`, else `~/.colony` (the rule of @swarm/core's
 * paths.ts, restated here so doctor runs when the native SQLite module does not load).
 */
import { join, resolve } from 'node:path';

export interface StoreChoice {
  readonly home: string;
  readonly dbPath: string;
  /** --db, --home, COLONY_HOME or default. */
  readonly source: 'db flag' | 'home flag' | 'COLONY_HOME' | 'default';
}

export function storeChoice(
  flags: { db?: string | undefined; home?: string | undefined },
  env: NodeJS.ProcessEnv,
  userHome: string,
): StoreChoice {
  const fromEnv = env.COLONY_HOME?.trim() ? env.COLONY_HOME : undefined;
  const home = resolve(flags.home ?? fromEnv ?? join(userHome, '.colony'));
  const dbPath = flags.db === ':memory:' ? flags.db : resolve(flags.db ?? join(home, 'colony.db'));
  const source = flags.db ? 'db flag' : flags.home ? 'home flag' : fromEnv ? 'COLONY_HOME' : 'default';
  return { home, dbPath, source };
}

/** The store flags in a registered command line (`... --home X --db Y`). */
export function storeFlagsOf(argv: readonly string[]): { db?: string; home?: string } {
  const value = (flag: string) => {
    const at = argv.lastIndexOf(flag);
    const inline = argv.findLast((a) => a.startsWith(`${flag}=`));
    return at >= 0 ? argv[at + 1] : inline?.slice(flag.length + 1);
  };
  const db = value('--db');
  const home = value('--home');
  return { ...(db ? { db } : {}), ...(home ? { home } : {}) };
}

/** Words of a POSIX shell command as `colony install` writes them (plain words and '...' quoting). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const match of command.matchAll(re))
    words.push(match[1] !== undefined ? match[1].replaceAll(`'\\''`, "'") : (match[2] ?? ''));
  return words;
}

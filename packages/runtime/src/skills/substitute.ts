/**
 * @module skills/substitute
 * Argument placeholders in a skill body (seed 003): `$ARGUMENTS` is the whole argument
 * string; `$ARGUMENTS[N]`, `$ARGUMENTSN` and `$N` (N = 0-9) are the N-th argument of the
 * space-split string, or "" when there is none. One regular expression, one pass, left
 * to right: text put in is never scanned again, so an argument holding `$1` stays `$1`.
 */

const PLACEHOLDER = /\$ARGUMENTS\[(\d)\]|\$ARGUMENTS(\d)|\$ARGUMENTS|\$(\d)/g;

/** The skill's arguments: a string (split at whitespace) or the positional list itself. */
export type SkillArguments = string | readonly string[];

export function splitArguments(args: SkillArguments): { all: string; positional: readonly string[] } {
  if (typeof args !== 'string') return { all: args.join(' '), positional: args };
  const all = args.trim();
  return { all, positional: all ? all.split(/\s+/) : [] };
}

export function substituteArguments(body: string, args: SkillArguments): string {
  const { all, positional } = splitArguments(args);
  return body.replace(PLACEHOLDER, (_match, bracket?: string, suffix?: string, short?: string) => {
    const index = bracket ?? suffix ?? short;
    return index === undefined ? all : (positional[Number(index)] ?? '');
  });
}

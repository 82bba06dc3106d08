/**
 * @module pg/queries/glob
 * SQLite's GLOB as a PostgreSQL regular expression (`~`, case-sensitive): `*` any run,
 * `?` one character, `[...]` / `[^...]` a class (a `]` first in it is literal, `a-z` a
 * range); everything else literal. A class never closed matches nothing on SQLite:
 * `undefined` here, and the caller answers no rows.
 */
const SPECIAL = /[\\^$.|?*+()[\]{}]/;

/** The anchored regular expression for `glob`, or undefined when it can match nothing. */
export function globToRegex(glob: string): string | undefined {
  let out = '^';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = classEnd(glob, i);
      if (end < 0) return undefined;
      out += classOf(glob.slice(i + 1, end));
      i = end;
    } else out += SPECIAL.test(c) ? `\\${c}` : c;
  }
  return `${out}$`;
}

/** The index of the `]` closing the class opened at `start`, or -1. */
function classEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === '^') i++;
  if (glob[i] === ']') i++;
  const end = glob.indexOf(']', i);
  return end;
}

function classOf(body: string): string {
  const negated = body.startsWith('^');
  const chars = negated ? body.slice(1) : body;
  // Inside a bracket expression of PostgreSQL's regexes `\` escapes and `[` may open `[:x:]`.
  const escaped = chars.replace(/[\\[]/g, (c) => `\\${c}`);
  return `[${negated ? '^' : ''}${escaped}]`;
}

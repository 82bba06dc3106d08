/**
 * @module redact
 * Masks secret values (the `env` / `env_vars` a caller gives a command) in its output.
 *
 * Output arrives in chunks, and a secret can straddle two of them: `streamRedactor` holds
 * back the shortest tail that could still grow into a secret, so a secret split across
 * chunks is masked like any other, and everything it emits is final. Output is masked
 * before it is capped or logged, so a cut can never leave a secret's prefix behind.
 *
 * Values shorter than MIN_SECRET_LENGTH are not masked: such values are flags (`1`,
 * `on`, `dev`), and masking them would garble the output (`1` would hide every digit 1).
 * Put secrets in values of at least four characters.
 */

/** Shortest value treated as a secret. */
export const MIN_SECRET_LENGTH = 4;
export const MASK = '***';

/** Distinct secret values worth masking, longest first (so a longer one wins at a position). */
function secretsOf(values: Iterable<string>): string[] {
  return [...new Set(values)].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A redactor of whole texts: each secret value (4+ characters) becomes `***`. */
export function secretRedactor(values: Iterable<string>): (text: string) => string {
  const secrets = secretsOf(values);
  if (secrets.length === 0) return (text) => text;
  const pattern = new RegExp(secrets.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(pattern, MASK);
}

export interface StreamRedactor {
  /** The masked text that is final so far (a possible secret's start is held back). */
  push(chunk: string): string;
  /** The held-back rest, masked: call once, at the end of the stream. */
  end(): string;
}

/** Whether `text` from `at` on is a proper prefix of `secret` (compared in place: no copies). */
function growsInto(text: string, at: number, secret: string): boolean {
  const length = text.length - at;
  if (length >= secret.length) return false;
  for (let j = 0; j < length; j++) if (text.charCodeAt(at + j) !== secret.charCodeAt(j)) return false;
  return true;
}

/** A redactor for a stream of chunks; see the module header. */
export function streamRedactor(values: Iterable<string>): StreamRedactor {
  const secrets = secretsOf(values);
  if (secrets.length === 0) return { push: (chunk) => chunk, end: () => '' };
  const whole = secretRedactor(secrets);
  const pattern = new RegExp(secrets.map(escapeRegExp).join('|'), 'g');
  const longest = secrets[0]?.length ?? 0;
  let carry = '';
  /** The first index >= from where the text's rest is a proper prefix of a secret (more may complete it). */
  const holdFrom = (text: string, from: number): number => {
    for (let q = Math.max(from, text.length - longest + 1); q < text.length; q++) {
      if (secrets.some((s) => growsInto(text, q, s))) return q;
    }
    return text.length;
  };
  return {
    push(chunk) {
      const text = carry + chunk;
      let out = '';
      let i = 0;
      for (;;) {
        const hold = holdFrom(text, i);
        pattern.lastIndex = i;
        const match = pattern.exec(text);
        // A match starting before `hold` cannot grow into a longer secret (its start would be held).
        if (match && match.index < hold) {
          out += text.slice(i, match.index) + MASK;
          i = match.index + match[0].length;
          continue;
        }
        out += text.slice(i, hold);
        carry = text.slice(hold);
        return out;
      }
    },
    end() {
      const rest = whole(carry);
      carry = '';
      return rest;
    },
  };
}

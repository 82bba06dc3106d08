/**
 * @module stream-redactor
 * Masks secret values in output that arrives in chunks (see redact.ts): the shortest tail
 * that could still grow into a secret is held back until the next chunk says whether it
 * completes, so a secret split across chunks is masked like any other and everything
 * emitted is final.
 */
import { escapeRegExp, MASK, secretRedactor, secretsOf } from './redact';

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

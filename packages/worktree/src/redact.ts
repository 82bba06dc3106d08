/**
 * @module redact
 * Masks secret values (the `env` / `env_vars` a caller gives a command) in its output.
 *
 * Output arrives in chunks, and a secret can straddle two of them: `streamRedactor`
 * (stream-redactor.ts) holds back the shortest tail that could still grow into a secret,
 * so a secret split across chunks is masked like any other, and everything it emits is
 * final. Output is masked
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
export function secretsOf(values: Iterable<string>): string[] {
  return [...new Set(values)].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A redactor of whole texts: each secret value (4+ characters) becomes `***`. */
export function secretRedactor(values: Iterable<string>): (text: string) => string {
  const secrets = secretsOf(values);
  if (secrets.length === 0) return (text) => text;
  const pattern = new RegExp(secrets.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(pattern, MASK);
}

/**
 * @module tokens
 * Token counting with a real BPE tokenizer (gpt-tokenizer, cl100k_base), loaded on
 * first use: it costs ~150 ms and ~35 MiB, which a server should not pay at start-up.
 * When the tokenizer cannot load, counts fall back to an estimate (4 characters a
 * token) and the counter says so in `warning`: token receipts degrade, nothing else.
 */
import { createRequire } from 'node:module';

export interface TokenCounter {
  count(text: string): number;
  /** Set once counting has degraded to estimates. */
  readonly warning: string | undefined;
  /** True when counts come from the real tokenizer (loads it if needed). */
  exact(): boolean;
  /**
   * Whether a count now costs no load: the tokenizer is already loaded on this thread
   * (or counting has degraded to estimates). Never loads it. Absent: treat as ready.
   */
  ready?(): boolean;
}

export const DEFAULT_TOKENIZER_MODULE = 'gpt-tokenizer/encoding/cl100k_base';

export interface TokenCounterOptions {
  /** The module to load (CommonJS export `countTokens`). */
  readonly module?: string;
  readonly onWarning?: (message: string) => void;
}

type CountTokens = (text: string, options?: { disallowedSpecial: ReadonlySet<string> }) => number;

/**
 * Text is counted as the text it is: a special-token string such as `<|endoftext|>`
 * inside a note costs the tokens of its characters (as when a model reads it), and
 * never makes the tokenizer throw.
 */
const ORDINARY_TEXT = { disallowedSpecial: new Set<string>() };

export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const moduleName = options.module ?? DEFAULT_TOKENIZER_MODULE;
  let impl: ((text: string) => number) | null | undefined;
  let warning: string | undefined;

  const load = (): ((text: string) => number) | null => {
    if (impl !== undefined) return impl;
    try {
      const mod = createRequire(import.meta.url)(moduleName) as { countTokens?: CountTokens };
      const countTokens = mod.countTokens;
      if (typeof countTokens !== 'function') throw new Error(`${moduleName} has no countTokens export`);
      const whole = (text: string) => countTokens(text, ORDINARY_TEXT);
      const split = moduleName === DEFAULT_TOKENIZER_MODULE ? cl100kSplitRegex() : undefined;
      impl = split ? memoizedByPiece(whole, split) : whole;
    } catch (error) {
      impl = null;
      warning = `tokenizer unavailable (${(error as Error).message.split('\n')[0]}): token counts are estimates`;
      options.onWarning?.(warning);
    }
    return impl;
  };

  return {
    count(text) {
      if (text.length === 0) return 0;
      const fn = load();
      return fn ? countBounded(fn, text) : estimateTokens(text);
    },
    get warning() {
      return warning;
    },
    exact: () => load() !== null,
    ready: () => impl !== undefined,
  };
}

/**
 * The pre-tokenizer pattern of cl100k_base, from the tokenizer package itself so the
 * two can never disagree; undefined when the package does not expose it.
 */
function cl100kSplitRegex(): RegExp | undefined {
  try {
    const constants = createRequire(import.meta.url)('gpt-tokenizer/encodingParams/constants') as {
      CL100K_TOKEN_SPLIT_REGEX?: unknown;
    };
    const regex = constants.CL100K_TOKEN_SPLIT_REGEX;
    return regex instanceof RegExp && regex.global ? new RegExp(regex.source, regex.flags) : undefined;
  } catch {
    return undefined;
  }
}

/** Distinct pieces remembered before the memo starts over. */
export const PIECE_MEMO_SIZE = 50_000;

/**
 * Counts a text as the sum of the counts of its pre-tokenizer pieces, remembering each
 * piece's count. BPE never merges across pieces, and a piece re-split on its own is
 * itself (the only context-dependent alternatives, `\s+$` and `\s+(?!\S)`, match
 * whitespace, and an all-whitespace piece alone matches `\s+$` whole), so the sum is
 * the tokenizer's exact count (a property test checks it against the tokenizer). Notes
 * repeat words: the memo turns most of a count into map lookups, about three times
 * faster than the tokenizer's own least-recently-used cache.
 */
function memoizedByPiece(countText: (text: string) => number, split: RegExp): (text: string) => number {
  let memo = new Map<string, number>();
  return (text) => {
    let total = 0;
    split.lastIndex = 0;
    for (let match = split.exec(text); match !== null; match = split.exec(text)) {
      const piece = match[0];
      let n = memo.get(piece);
      if (n === undefined) {
        n = countText(piece);
        if (memo.size >= PIECE_MEMO_SIZE) memo = new Map();
        memo.set(piece, n);
      }
      total += n;
    }
    return total;
  };
}

/**
 * Longest run without whitespace handed to the tokenizer at once. BPE merging is
 * quadratic in one pre-tokenized piece: 64 KiB of "xxxx..." takes ~10 s in one call,
 * and counts run inside write transactions and for every receipt.
 */
export const MAX_TOKENIZER_RUN = 256;
const LONG_RUN = new RegExp(`(\\S{${MAX_TOKENIZER_RUN}})`);

/** Exact for ordinary text; a text with very long unbroken runs is counted slice by slice. */
function countBounded(fn: (text: string) => number, text: string): number {
  let total = 0;
  for (const piece of tokenPieces(text)) total += fn(piece);
  return total;
}

/**
 * The pieces a text is counted in: the text itself, or, when it has unbroken runs of
 * MAX_TOKENIZER_RUN or more, the slices around and of those runs. A count is the sum
 * of the counts of its pieces, wherever they are counted (see token-worker.ts).
 */
export function tokenPieces(text: string): string[] {
  if (text.length === 0) return [];
  if (!hasLongRun(text)) return [text];
  return text.split(LONG_RUN).filter((piece) => piece.length > 0);
}

/**
 * Whether `text` has MAX_TOKENIZER_RUN non-whitespace code units in a row: what
 * `LONG_RUN.test(text)` answers, in one linear pass. The regex retries from every
 * start position; on JSON (receipts count every answer), which has long unbroken
 * runs, that cost a third of all counting time.
 */
export function hasLongRun(text: string): boolean {
  if (text.length < MAX_TOKENIZER_RUN) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (isWhitespace(text.charCodeAt(i))) run = 0;
    else if (++run >= MAX_TOKENIZER_RUN) return true;
  }
  return false;
}

/** JavaScript's `\s`: ASCII tab to carriage return and space, plus Unicode spaces and line ends. */
function isWhitespace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Rough token estimate used only when no tokenizer can load. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A counter that only estimates (4 characters a token) and never loads the tokenizer:
 * for short-lived processes that write a few short, machine-made records, such as an
 * IDE hook, where loading the tokenizer would cost more than the whole write.
 */
export function estimatingTokenCounter(): TokenCounter {
  return {
    count: (text) => (text.length === 0 ? 0 : estimateTokens(text)),
    warning: undefined,
    exact: () => false,
    ready: () => true,
  };
}

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
}

export const DEFAULT_TOKENIZER_MODULE = 'gpt-tokenizer/encoding/cl100k_base';

export interface TokenCounterOptions {
  /** The module to load (CommonJS export `countTokens`). */
  readonly module?: string;
  readonly onWarning?: (message: string) => void;
}

export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const moduleName = options.module ?? DEFAULT_TOKENIZER_MODULE;
  let impl: ((text: string) => number) | null | undefined;
  let warning: string | undefined;

  const load = (): ((text: string) => number) | null => {
    if (impl !== undefined) return impl;
    try {
      const mod = createRequire(import.meta.url)(moduleName) as { countTokens?: (t: string) => number };
      if (typeof mod.countTokens !== 'function') throw new Error(`${moduleName} has no countTokens export`);
      impl = mod.countTokens;
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
  if (!LONG_RUN.test(text)) return fn(text);
  let total = 0;
  for (const piece of text.split(LONG_RUN)) if (piece.length > 0) total += fn(piece);
  return total;
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
  return { count: (text) => (text.length === 0 ? 0 : estimateTokens(text)), warning: undefined, exact: () => false };
}

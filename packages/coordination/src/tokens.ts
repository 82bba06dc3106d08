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
      return fn ? fn(text) : estimateTokens(text);
    },
    get warning() {
      return warning;
    },
    exact: () => load() !== null,
  };
}

/** Rough token estimate used only when no tokenizer can load. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

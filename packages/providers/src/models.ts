/**
 * @module models
 * The one table of model aliases and the one table of prices. Aliases let settings say
 * `sonnet` and get the current id; prices turn a turn's usage into USD. Prices are USD
 * per million tokens from https://platform.claude.com/docs/en/about-claude/pricing
 * (read 2026-11-25; cache writes at the 5-minute rate). A model missing from the table
 * costs `null`, never a guess. Callers may pass their own tables (settings `models`).
 */
import type { Usage } from './types.js';

/** Short names to current model ids. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
};

/** USD per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cache_write: number;
  readonly cache_read: number;
}

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-5-5': { input: 4, output: 20, cache_write: 5, cache_read: 0.2 },
  'claude-sonnet-5-5': { input: 2, output: 10, cache_write: 2.5, cache_read: 0.1 },
  // Haiku 5.5's rate for prompts up to 100k tokens (longer prompts cost 5x; not modelled).
  'claude-haiku-5-5': { input: 0.1, output: 0.5, cache_write: 0.125, cache_read: 0.01 },
  'claude-opus-5': { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 },
  'claude-sonnet-5': { input: 2, output: 10, cache_write: 2.5, cache_read: 0.2 },
  'claude-opus-4-8': { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 },
  'claude-opus-4-7': { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 },
  'claude-opus-4-6': { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 },
  'claude-opus-4-5': { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 },
  'claude-sonnet-4-6': { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 },
  'claude-sonnet-4-5': { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 },
  'claude-haiku-4-5': { input: 1, output: 5, cache_write: 1.25, cache_read: 0.1 },
};

/** `sonnet` -> its id; anything else unchanged. `aliases` overrides the built-in table. */
export function resolveModel(model: string, aliases: Readonly<Record<string, string>> = {}): string {
  return aliases[model] ?? MODEL_ALIASES[model] ?? model;
}

/**
 * USD of one turn, or null when the model has no price. Dated ids
 * (`claude-sonnet-4-5-20250929`) are priced as their undated family.
 */
export function costUsd(
  model: string,
  usage: Usage,
  prices: Readonly<Record<string, ModelPrice>> = MODEL_PRICES,
): number | null {
  const price = prices[model] ?? prices[model.replace(/-\d{8}$/, '')];
  if (!price) return null;
  const usd =
    usage.input_tokens * price.input +
    usage.output_tokens * price.output +
    usage.cache_creation_input_tokens * price.cache_write +
    usage.cache_read_input_tokens * price.cache_read;
  return usd / 1_000_000;
}

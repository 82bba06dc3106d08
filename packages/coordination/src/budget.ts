/**
 * @module budget
 * The `budget` object compact reads carry (ARCHITECTURE principle 5): how many items
 * matched, how many came back, what was left out and why, the payload's size in tokens
 * (counted with the real tokenizer), and the tool that expands it.
 */
import type { TokenCounter } from './tokens';

export interface Budget {
  /** Items matching the request before compaction. */
  readonly items_available: number;
  /** Items included in this response. */
  readonly items_returned: number;
  /** items_available - items_returned: intentionally omitted. */
  readonly collapsed_count: number;
  /** Tokens of the whole response, this object included. */
  readonly estimated_tokens_returned: number;
  /** The next tool for expansion: usually get_observations. */
  readonly hydrate_with: string;
  /** Why the response stayed compact; null when nothing was left out. */
  readonly why_collapsed: string | null;
}

export interface BudgetFacts {
  readonly available: number;
  readonly returned: number;
  readonly hydrate_with?: string;
  /** Said only when something was left out. */
  readonly why_collapsed?: string;
  /**
   * When nothing was left out, answer only items_returned and estimated_tokens_returned
   * (WholeBudgetInfo): the other fields would say nothing. For the tools issue 17 trimmed.
   */
  readonly trimWhenWhole?: boolean;
}

/** The budget as answered: whole (nothing collapsed, trimmed) or the full object. */
export type AnsweredBudget = Budget | WholeBudget;
export interface WholeBudget {
  readonly items_returned: number;
  readonly estimated_tokens_returned: number;
}

/**
 * `payload` with its `budget` appended. The token figure counts the serialized payload
 * plus the budget object itself, so it is what a caller pays for the answer as sent.
 */
export function withBudget<T extends object>(
  payload: T,
  facts: BudgetFacts & { readonly trimWhenWhole: true },
  tokens: TokenCounter,
): T & { readonly budget: AnsweredBudget };
export function withBudget<T extends object>(
  payload: T,
  facts: BudgetFacts,
  tokens: TokenCounter,
): T & { readonly budget: Budget };
export function withBudget<T extends object>(
  payload: T,
  facts: BudgetFacts,
  tokens: TokenCounter,
): T & { readonly budget: AnsweredBudget } {
  const collapsed = Math.max(0, facts.available - facts.returned);
  if (collapsed === 0 && facts.trimWhenWhole) {
    const draft: WholeBudget = { items_returned: facts.returned, estimated_tokens_returned: 0 };
    const estimate = tokens.count(JSON.stringify({ ...payload, budget: draft }));
    return { ...payload, budget: { ...draft, estimated_tokens_returned: estimate } };
  }
  const draft: Budget = {
    items_available: facts.available,
    items_returned: facts.returned,
    collapsed_count: collapsed,
    estimated_tokens_returned: 0,
    hydrate_with: facts.hydrate_with ?? 'get_observations',
    why_collapsed: collapsed > 0 ? (facts.why_collapsed ?? 'Compact response: hydrate ids for more.') : null,
  };
  const sized = { ...payload, budget: draft };
  // Counted with the figure at 0: its own digits are the only tokens left out.
  const estimate = tokens.count(JSON.stringify(sized));
  return { ...payload, budget: { ...draft, estimated_tokens_returned: estimate } };
}

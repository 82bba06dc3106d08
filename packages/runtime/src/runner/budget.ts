/**
 * @module runner/budget
 * Budgets beyond the seed: `{ max_tokens, max_usd }` per agent and per session, summed
 * from provider usage over every turn. A `BudgetMeter` adds usage as it comes and says
 * which budget is reached; one meter per agent, one shared by the session.
 */
import type { Usage } from '@swarm/providers';

export interface Budget {
  readonly max_tokens?: number | null;
  readonly max_usd?: number | null;
}

export class BudgetMeter {
  tokens = 0;
  usd = 0;
  constructor(
    readonly budget: Budget | null,
    readonly label: string,
  ) {}

  add(usage: Usage, usd: number | null): void {
    this.addTokens(totalTokens(usage), usd ?? 0);
  }

  addTokens(tokens: number, usd: number): void {
    this.tokens += tokens;
    this.usd += usd;
  }

  /** Why no further request may be made, or null. */
  reached(): string | null {
    const b = this.budget;
    if (!b) return null;
    if (b.max_tokens != null && this.tokens >= b.max_tokens) {
      return `${this.label} token budget reached: used ${this.tokens} of max_tokens ${b.max_tokens}`;
    }
    if (b.max_usd != null && this.usd >= b.max_usd) {
      return `${this.label} cost budget reached: used $${this.usd.toFixed(6)} of max_usd $${b.max_usd}`;
    }
    return null;
  }

  /** What is left, as loop budgets for one session. */
  remaining(): { max_tokens?: number; max_usd?: number } {
    const b = this.budget;
    if (!b) return {};
    return {
      ...(b.max_tokens != null ? { max_tokens: Math.max(0, b.max_tokens - this.tokens) } : {}),
      ...(b.max_usd != null ? { max_usd: Math.max(0, b.max_usd - this.usd) } : {}),
    };
  }
}

export function totalTokens(usage: Usage): number {
  return usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
}

/** Turns a session's running totals (the loop's progress) into what each turn added. */
export class TurnUsage {
  private tokens = 0;
  private usd = 0;

  next(progress: { readonly usage: Usage; readonly cost_usd: number }): { tokens: number; usd: number } {
    const tokens = totalTokens(progress.usage);
    const delta = { tokens: tokens - this.tokens, usd: progress.cost_usd - this.usd };
    this.tokens = tokens;
    this.usd = progress.cost_usd;
    return delta;
  }
}

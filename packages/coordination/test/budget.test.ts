import { describe, expect, it } from 'vitest';
import { withBudget } from '../src/budget';
import { createTokenCounter } from '../src/tokens';

const tokens = createTokenCounter();

describe('withBudget', () => {
  it('appends counts, the collapsed reason and the real token size of the whole answer', () => {
    const payload = { hits: [{ id: 1, snippet: 'rate limiter decision' }] };
    const answer = withBudget(payload, { available: 7, returned: 1, why_collapsed: 'Top hit only.' }, tokens);
    expect(answer.hits).toBe(payload.hits);
    expect(answer.budget).toMatchObject({
      items_available: 7,
      items_returned: 1,
      collapsed_count: 6,
      hydrate_with: 'get_observations',
      why_collapsed: 'Top hit only.',
    });
    const counted = tokens.count(JSON.stringify(answer));
    expect(answer.budget.estimated_tokens_returned).toBeGreaterThan(tokens.count(JSON.stringify(payload)));
    expect(Math.abs(answer.budget.estimated_tokens_returned - counted)).toBeLessThanOrEqual(2);
  });

  it('says nothing was collapsed when everything came back', () => {
    const answer = withBudget({ lanes: [] }, { available: 0, returned: 0, hydrate_with: 'attention_inbox' }, tokens);
    expect(answer.budget).toMatchObject({ collapsed_count: 0, why_collapsed: null, hydrate_with: 'attention_inbox' });
  });
});

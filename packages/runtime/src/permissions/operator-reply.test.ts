import { describe, expect, it } from 'vitest';
import { readOperatorReply } from './operator-reply.js';

describe('readOperatorReply', () => {
  it('reads the first word: an approval, a refusal with its words, or no answer', () => {
    expect(readOperatorReply('allow')).toEqual({ approved: true, reason: 'approved by the operator' });
    expect(readOperatorReply('  Yes, go ahead')?.approved).toBe(true);
    expect(readOperatorReply('Deny: use npm run test instead')).toEqual({
      approved: false,
      reason: 'denied by the operator: Deny: use npm run test instead',
    });
    expect(readOperatorReply('no.')?.approved).toBe(false);
    expect(readOperatorReply('please look at the API first')).toBeNull();
    expect(readOperatorReply('allowance')).toBeNull();
  });
});

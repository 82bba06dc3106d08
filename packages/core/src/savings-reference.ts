/**
 * @module savings-reference
 * The static half of savings_report: per-session token cost of common coordination
 * loops with colony and without it (an agent doing the same by reading files, pasting
 * context or repairing collisions). Colony-side figures are sizes of colony's own
 * compact answers (measured with the cl100k tokenizer on the benchmark corpus, whose
 * notes average 89 tokens); baselines are estimates of the work they replace, stated
 * in each rationale. This table is not derived from the live receipts.
 */
import type { SavingsReference } from '@swarm/coordination';

export const SAVINGS_REFERENCE: SavingsReference = {
  note: 'Static estimated per-session token cost for common coordination loops, with vs. without colony. This total is not derived from the live mcp_metrics window.',
  rows: [
    {
      operation: 'startup loop (hivemind_context, attention_inbox, task_ready_for_agent)',
      frequency_per_session: 1,
      baseline_tokens: 12_000,
      colony_tokens: 2_400,
      rationale:
        'Colony: the three compact answers stay under 2,500 tokens together (a test pins it on 50 sessions / 5,000 observations / 20 plans). Baseline (estimate): reading PLAN/TODO files, recent git log and open branches to learn who does what.',
    },
    {
      operation: 'memory lookup (search, then get_observations for 2 ids)',
      frequency_per_session: 6,
      baseline_tokens: 4_000,
      colony_tokens: 550,
      rationale:
        'Colony: 10 compact hits (~35 tokens each) plus two chosen bodies (~90 tokens each, the corpus mean). Baseline (estimate): grepping notes or docs and reading the matching files whole.',
    },
    {
      operation: 'resume a stopped session (recall_session, task_timeline, 5 bodies)',
      frequency_per_session: 1,
      baseline_tokens: 20_000,
      colony_tokens: 1_200,
      rationale:
        'Colony: compact timelines (ids, kinds, times) and five hydrated observations. Baseline (estimate): re-reading the previous transcript or re-deriving its state from the diff.',
    },
    {
      operation: 'handoff (task_hand_off, task_accept_handoff)',
      frequency_per_session: 0.5,
      baseline_tokens: 5_000,
      colony_tokens: 700,
      rationale:
        'Colony: a summary, next steps and transferred claims in one baton the receiver accepts. Baseline (estimate): the receiver reconstructing context from chat and files.',
    },
    {
      operation: 'file collision avoided (task_claim_file warning)',
      frequency_per_session: 0.3,
      baseline_tokens: 8_000,
      colony_tokens: 200,
      rationale:
        "Colony: a claim and its overlap warning. Baseline (estimate): noticing a conflicting edit late, reading both versions and redoing one agent's work.",
    },
    {
      operation: 'directed message with reply (task_message, attention_inbox)',
      frequency_per_session: 2,
      baseline_tokens: 1_500,
      colony_tokens: 400,
      rationale:
        'Colony: a compact message, a preview in the recipient inbox and a one-line reply. Baseline (estimate): a human relaying the question with pasted context both ways.',
    },
  ],
};

import { describe, expect, it } from 'vitest';
import type { ResolvedLiveness } from '../settings/resolved.js';
import { checkLiveness, type LivenessAction, type LivenessEpisode } from './liveness.js';

const DEFAULTS: ResolvedLiveness = {
  enabled: true,
  idle_nudge_after_secs: 120,
  idle_nudge_interval_secs: 300,
  max_nudges: 3,
  idle_warn_after_secs: 600,
  stall_timeout_secs: 900,
  auto_interrupt_stalled: false,
};
const T0 = 1_000_000;
const s = (secs: number) => T0 + secs * 1000;

/** Checks at each second mark with one heartbeat at T0; the actions seen, by second. */
function run(config: ResolvedLiveness, marks: number[]): Array<[number, readonly LivenessAction[]]> {
  let episode: LivenessEpisode | null = null;
  const out: Array<[number, readonly LivenessAction[]]> = [];
  for (const mark of marks) {
    const decision = checkLiveness(config, T0, episode, s(mark));
    episode = decision.episode;
    if (decision.actions.length) out.push([mark, decision.actions]);
  }
  return out;
}
const everyTenSeconds = Array.from({ length: 200 }, (_, i) => i * 10);

describe('checkLiveness (seed 003 liveness defaults)', () => {
  it('nudges at 120 s, then every 300 s, at most 3 times; warns at 600 s; reports a stall at 900 s', () => {
    expect(run(DEFAULTS, everyTenSeconds)).toEqual([
      [120, ['nudge']],
      [420, ['nudge']],
      [600, ['idle_warning']],
      [720, ['nudge']],
      [900, ['stall_detected']],
    ]);
  });

  it('interrupts a stalled agent when auto_interrupt_stalled', () => {
    const actions = run({ ...DEFAULTS, auto_interrupt_stalled: true }, [900]);
    expect(actions).toEqual([[900, ['nudge', 'idle_warning', 'stall_detected', 'interrupt']]]);
  });

  it('starts a new episode at a newer heartbeat', () => {
    const first = checkLiveness(DEFAULTS, T0, null, s(130));
    expect(first.actions).toEqual(['nudge']);
    const again = checkLiveness(DEFAULTS, s(200), first.episode, s(330));
    expect(again.actions).toEqual(['nudge']);
    expect(again.episode).toMatchObject({ since: s(200), nudges: 1 });
    expect(again.idle_secs).toBe(130);
  });

  it('does nothing when disabled, and a null threshold turns its action off', () => {
    expect(run({ ...DEFAULTS, enabled: false }, everyTenSeconds)).toEqual([]);
    const quiet = { ...DEFAULTS, idle_nudge_after_secs: null, idle_warn_after_secs: null };
    expect(run(quiet, everyTenSeconds)).toEqual([[900, ['stall_detected']]]);
    expect(
      run({ ...DEFAULTS, idle_nudge_interval_secs: null }, everyTenSeconds).filter(([, a]) => a.includes('nudge')),
    ).toEqual([[120, ['nudge']]]);
  });
});

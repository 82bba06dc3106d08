/**
 * @module runner/liveness-monitor
 * Applies the pure liveness decisions to the running agents: on each `check(now)`, an
 * agent whose last activity is old enough gets one idle warning and one stall report
 * per idle episode, sent to the operator as colony messages (so they show in the
 * operator's inbox, attention_inbox and the viewer), and, with
 * `auto_interrupt_stalled`, an interrupt. Idle nudges are the runner's own (they start
 * a session). Stopped agents are left alone. With lifecycle hooks, the same moments
 * fire TeammateIdle (nudge threshold), TeammateIdleWarning and StallDetected, with the
 * seed's specialised inputs.
 */
import type { HookFields, LifecycleHooks } from '../lifecycle-hooks/dispatch.js';
import type { HookEvent } from '../lifecycle-hooks/events.js';
import { checkLiveness, type LivenessAction, type LivenessEpisode } from '../liveness/liveness.js';
import { type Mailbox, OPERATOR } from '../mailbox/mailbox.js';
import type { ResolvedLiveness } from '../settings/resolved.js';
import type { AgentRegistry } from './registry.js';
import type { AgentSnapshot } from './runner.js';

export class LivenessMonitor {
  private readonly episodes = new Map<string, LivenessEpisode>();

  constructor(
    private readonly registry: AgentRegistry,
    private readonly mailbox: Mailbox,
    private readonly config: ResolvedLiveness,
    /** The agent's lifecycle hooks, if any. */
    private readonly hooksOf: (agent: string) => LifecycleHooks | null = () => null,
  ) {}

  /** Runs one check; returns what was done, as `<agent>: <action>` lines. */
  async check(now: number): Promise<string[]> {
    const done: string[] = [];
    for (const snapshot of this.registry.states()) {
      if (snapshot.state === 'Stopped') continue;
      const decision = checkLiveness(
        this.config,
        snapshot.last_activity,
        this.episodes.get(snapshot.name) ?? null,
        now,
      );
      this.episodes.set(snapshot.name, decision.episode);
      for (const action of decision.actions) {
        const hook = hookFor(action, snapshot, decision.idle_secs, decision.episode.nudges);
        if (hook)
          await this.hooksOf(snapshot.name)
            ?.fire(hook[0], hook[1])
            .catch(() => undefined);
        if (action === 'nudge') continue;
        if (action === 'interrupt') {
          this.registry.get(snapshot.name)?.interrupt('stalled: no activity');
        } else {
          const what = action === 'idle_warning' ? 'idle' : 'stalled (no activity)';
          await this.mailbox
            .send({ from: snapshot.name, to: OPERATOR, body: `${snapshot.name} is ${what} for ${decision.idle_secs}s` })
            .catch(() => undefined);
        }
        done.push(`${snapshot.name}: ${action}`);
      }
    }
    return done;
  }
}

function hookFor(
  action: LivenessAction,
  s: AgentSnapshot,
  idle_secs: number,
  nudge_count: number,
): [HookEvent, HookFields] | null {
  const agent_name = s.name;
  switch (action) {
    case 'nudge':
      return ['TeammateIdle', { event: 'TeammateIdle', agent_name, idle_duration_secs: idle_secs, nudge_count }];
    case 'idle_warning':
      return [
        'TeammateIdleWarning',
        { event: 'TeammateIdleWarning', agent_name, idle_duration_secs: idle_secs, nudge_count, last_state: s.state },
      ];
    case 'stall_detected':
      return [
        'StallDetected',
        {
          event: 'StallDetected',
          agent_name,
          stall_duration_secs: idle_secs,
          last_heartbeat_event: s.last_activity_event,
        },
      ];
    default:
      return null;
  }
}

import { describe, expect, it } from 'vitest';
import { agentEnvironment, colonySessionId, newSessionId, SESSION_ID } from './identity.js';

describe('session identity', () => {
  it('makes seed-shaped session ids from the clock and random bytes', () => {
    const id = newSessionId(Date.UTC(2025, 0, 15, 23, 59), () => Uint8Array.from([0xa3, 0xf2]));
    expect(id).toBe('20250115-a3f2');
    expect(newSessionId(Date.UTC(2026, 10, 25))).toMatch(SESSION_ID);
  });

  it('names each agent as a colony session and injects the seed environment', () => {
    expect(colonySessionId('20250115-a3f2', 'backend')).toBe('swarm-20250115-a3f2-backend');
    expect(
      agentEnvironment({
        agent_name: 'backend',
        session_id: '20250115-a3f2',
        db_path: '/home/u/.colony/colony.db',
        agent_names: ['backend', 'frontend', 'reviewer'],
      }),
    ).toEqual({
      SWARM_AGENT_ID: 'backend',
      SWARM_SESSION_ID: '20250115-a3f2',
      SWARM_DB_PATH: '/home/u/.colony/colony.db',
      SWARM_AGENTS: 'backend,frontend,reviewer',
      COLONY_SESSION_ID: 'swarm-20250115-a3f2-backend',
    });
  });
});

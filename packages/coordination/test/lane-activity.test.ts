import { describe, expect, it } from 'vitest';
import { activitySummary, emptyActivityCounts, formatAge, laneActivity } from '../src/lanes/activity';

const MIN = 60_000;
const NOW = Date.UTC(2026, 0, 1, 12);

describe('laneActivity', () => {
  it('ages a lane through every class as its heartbeat gets older', () => {
    const at = (quietMin: number, workMin: number | null = null) =>
      laneActivity(
        {
          lastHeartbeatAt: NOW - quietMin * MIN,
          endedAt: null,
          lastWorkAt: workMin === null ? null : NOW - workMin * MIN,
        },
        NOW,
      );
    expect(at(0, 1)).toBe('working');
    expect(at(4, 4.9)).toBe('working');
    expect(at(1, 5)).toBe('thinking');
    expect(at(1)).toBe('thinking');
    expect(at(5, 0)).toBe('idle');
    expect(at(9.9)).toBe('idle');
    expect(at(10)).toBe('stalled');
    expect(at(59.9)).toBe('stalled');
    expect(at(60)).toBe('dead');
  });

  it('calls an ended session dead and a lane without heartbeat unknown', () => {
    expect(laneActivity({ lastHeartbeatAt: NOW, endedAt: NOW - MIN, lastWorkAt: NOW }, NOW)).toBe('dead');
    expect(laneActivity({ lastHeartbeatAt: null, endedAt: null, lastWorkAt: null }, NOW)).toBe('unknown');
  });

  it('says the age in words and zeroes counts in contract order', () => {
    expect(formatAge(7 * MIN + 28_000)).toBe('7m 28s');
    expect(formatAge(45_000)).toBe('45s');
    expect(formatAge(125 * MIN)).toBe('2h 5m');
    const lane = { lastHeartbeatAt: NOW - 7 * MIN - 28_000, endedAt: null, lastWorkAt: null };
    expect(activitySummary('idle', lane, NOW)).toBe('Quiet; heartbeat 7m 28s ago.');
    expect(activitySummary('stalled', { ...lane, lastHeartbeatAt: NOW - 12 * MIN }, NOW)).toBe(
      'Heartbeat stale for 12m 0s.',
    );
    expect(Object.keys(emptyActivityCounts())).toEqual(['working', 'thinking', 'idle', 'stalled', 'dead', 'unknown']);
  });
});

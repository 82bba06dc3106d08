/**
 * Test fixture: the coordination services over a real SQLite file in a temp folder,
 * a manual clock, and a registry of the contract tools bound to them, so calls go
 * through the same validation and error shape as every real surface.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countObservations, openStore, type Store } from '@swarm/storage';
import { COLONY_TOOLS, type ToolErrorPayload, ToolRegistry } from '@swarm/tools';
import {
  type CoordinationSettings,
  composeServices,
  createTokenCounter,
  DEFAULT_COORDINATION_SETTINGS,
  type FrameworkOptions,
  type ManualClock,
  manualClock,
  type SavingsRates,
  type SavingsReference,
  type Services,
  type SpecFileOps,
  type VectorIndex,
} from '../src/index';

export const START = Date.UTC(2026, 0, 1);

export interface Fixture extends Services {
  readonly dir: string;
  readonly store: Store;
  readonly clock: ManualClock;
  /** Vectors with the default hashing embedder (nothing is embedded until `index.backfill()`). */
  readonly index: VectorIndex;
  /** Calls a tool; throws with the payload when it answers an error. */
  ok<T = Record<string, unknown>>(tool: string, args: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail; returns the error payload. */
  fail(tool: string, args: Record<string, unknown>): Promise<ToolErrorPayload>;
  observations(): number;
  /** A fresh, existing folder to use as a repository root. */
  repo(name: string): string;
  close(): void;
}

export interface FixtureOptions extends FrameworkOptions {
  /** File operations of the spec service (inject failures here). */
  readonly specFs?: SpecFileOps;
  /** savings_report's configured rates and reference model. */
  readonly savingsRates?: SavingsRates;
  readonly savingsReference?: SavingsReference;
  /** Repository roots hivemind reads when a call names none. */
  readonly laneRepoRoots?: readonly string[];
}

export function createFixture(
  settings: CoordinationSettings = DEFAULT_COORDINATION_SETTINGS,
  options: FixtureOptions = {},
): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'colony-coordination-'));
  const store = openStore({ path: join(dir, 'colony.db') });
  const clock = manualClock(START);
  const { specFs, savingsRates, laneRepoRoots, savingsReference, ...framework } = options;
  const services = composeServices(
    { store, clock, tokens: createTokenCounter(), settings },
    {
      framework,
      savingsReference: savingsReference ?? { note: 'test model', rows: [] },
      ...(specFs ? { specFs } : {}),
      ...(savingsRates ? { savingsRates } : {}),
      ...(laneRepoRoots ? { laneRepoRoots } : {}),
    },
  );
  const registry = new ToolRegistry(COLONY_TOOLS, services, { now: () => clock.now() });
  return {
    ...services,
    dir,
    store,
    clock,
    index: services.vectors,
    async ok<T>(tool: string, args: Record<string, unknown>) {
      const outcome = await registry.call(tool, args);
      if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.text}`);
      return outcome.value as T;
    },
    async fail(tool, args) {
      const outcome = await registry.call(tool, args);
      if (outcome.ok) throw new Error(`${tool} should have failed, answered ${outcome.text}`);
      return outcome.error;
    },
    observations: () => countObservations(store),
    repo(name) {
      const path = join(dir, name);
      mkdirSync(path, { recursive: true });
      return path;
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens (or joins) the `main` thread of `repoRoot` for `claude-1`; returns its task id. */
export async function mainThread(fx: Fixture, repoRoot: string): Promise<number> {
  const thread = await fx.ok<{ task_id: number }>('task_thread', {
    repo_root: repoRoot,
    branch: 'main',
    session_id: 'claude-1',
    agent: 'claude',
  });
  return thread.task_id;
}

/**
 * Global set-up of the `mcp-server-pg` project (the contract matrix's PostgreSQL leg):
 * one throwaway cluster for the whole run (test/support/pg-cluster.mjs), whose socket
 * folder the test files get by `inject('pgClusterDir')`; each test store is a database
 * of its own in it (see _backend.ts), copied from `inject('pgTemplate')`: a database
 * migrated once here, so no test store pays for the migrations again (the storage
 * project's PostgreSQL tests migrate fresh databases). Stopped, and its folder removed,
 * after the run.
 */
import { openPgStore } from '@swarm/storage/pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, startCluster } from '../../../test/support/pg-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    pgClusterDir: string;
    pgTemplate: string;
  }
}

const TEMPLATE = 'colony_template';

export default async function setup(project: TestProject): Promise<() => void> {
  // 16 servers at once, each with a pool of up to 10 clients, plus the tests' own stores.
  const cluster = startCluster({ maxConnections: 400 });
  try {
    const store = await openPgStore(createDatabase(cluster.dir, TEMPLATE));
    await store.close();
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('pgClusterDir', cluster.dir);
  project.provide('pgTemplate', TEMPLATE);
  return () => cluster.stop();
}

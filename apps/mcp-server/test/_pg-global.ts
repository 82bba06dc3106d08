/**
 * Global set-up of the `mcp-server-pg` project (the contract matrix's PostgreSQL leg):
 * one throwaway cluster for the whole run (test/support/pg-cluster.mjs), whose socket
 * folder the test files get by `inject('pgClusterDir')`; each test store is a database
 * of its own in it (see _backend.ts). Stopped, and its folder removed, after the run.
 */
import type { TestProject } from 'vitest/node';
import { startCluster } from '../../../test/support/pg-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    pgClusterDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  // 16 servers at once, each with a pool of up to 10 clients, plus the tests' own stores.
  const cluster = startCluster({ maxConnections: 400 });
  project.provide('pgClusterDir', cluster.dir);
  return () => cluster.stop();
}

/**
 * @module serve/compile-cache
 * A stdio server is a fresh process per IDE session, and compiling the modules its
 * first tool call loads is the largest part of that call (~80 ms, docs/benchmarks.md).
 * On Node >= 22.1 `module.enableCompileCache()` keeps V8's code cache on disk (Node's
 * default directory, under os.tmpdir(), or `NODE_COMPILE_CACHE`), so the next process
 * skips most of it. Node 20 has no such API: nothing happens. Failures are ignored: a
 * cache is an optimisation, never a reason not to serve.
 */
import module from 'node:module';

type WithCompileCache = { enableCompileCache?: (dir?: string) => unknown };

export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  if (env.COLONY_MCP_COMPILE_CACHE === '0') return;
  try {
    (module as WithCompileCache).enableCompileCache?.();
  } catch {
    // read-only temp directory, or a Node that refuses: serve without the cache
  }
}

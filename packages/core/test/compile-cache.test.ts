/**
 * A stdio server enables Node's module compile cache where Node has one (>= 22.1; the
 * suite runs on 22 and 24 under `pnpm test:lts`) and does nothing on Node 20.
 */
import module from 'node:module';
import { describe, expect, it } from 'vitest';
import { enableCompileCache } from '../src/serve/_compile-cache';

type CacheApi = { enableCompileCache?: unknown; getCompileCacheDir?: () => string | undefined };

describe('enableCompileCache', () => {
  it('turns the cache on when this Node has the API, and is a no-op without it', () => {
    expect(() => enableCompileCache({})).not.toThrow();
    const api = module as unknown as CacheApi;
    if (typeof api.enableCompileCache === 'function') expect(api.getCompileCacheDir?.()).toEqual(expect.any(String));
    else expect(api.getCompileCacheDir).toBeUndefined();
  });
});

/**
 * @module lazy-deps
 * Libraries only a few tools need, loaded with a synchronous require on their first use:
 * YAML (workflows, iteration configs), TOML (foraging manifests), globs and RE2 (framework
 * file reads), gitignore rules, and diff3 (spec merges). A server whose first call is a
 * post never loads them: together they were ~1.5 MiB of its idle RSS. Each has a CommonJS
 * build. The app bundles cannot see through `createRequire`, so they leave these out and
 * each app lists them among its own dependencies (test/app-dependencies.test.ts pins it).
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

function lazy<T>(name: string): () => T {
  let module: T | undefined;
  return () => {
    module ??= load(name) as T;
    return module;
  };
}

export const yaml = lazy<typeof import('yaml')>('yaml');
export const toml = lazy<typeof import('smol-toml')>('smol-toml');
export const globs = lazy<typeof import('picomatch')>('picomatch');
export const re2 = lazy<typeof import('re2js')>('re2js');
export const gitignore = lazy<typeof import('ignore')>('ignore');
export const diff3 = lazy<typeof import('node-diff3')>('node-diff3');

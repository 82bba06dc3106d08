/**
 * @module viewer/assets
 * The page's static files: colony's own (packages/core/assets/viewer/) and the chart
 * library's dist files from node_modules (uPlot). Both are found through module
 * resolution from @swarm/core's package root, so the same code works from source, from
 * dist/ and inside the bundled CLI. A fixed table maps URL paths to files: nothing
 * from the request ever becomes a file path.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

const TYPES = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
} as const;

/** URL path -> [where, file, type]. */
const TABLE: Record<string, readonly ['own' | 'uplot', string, keyof typeof TYPES]> = {
  '/': ['own', 'index.html', 'html'],
  '/assets/viewer.js': ['own', 'viewer.js', 'js'],
  '/assets/viewer.css': ['own', 'viewer.css', 'css'],
  '/vendor/uplot.js': ['uplot', 'dist/uPlot.iife.min.js', 'js'],
  '/vendor/uplot.css': ['uplot', 'dist/uPlot.min.css', 'css'],
};

/** Reads every asset once (a few tens of kB); throws naming the file that is missing. */
export function loadAssets(): ReadonlyMap<string, Asset> {
  const require = createRequire(import.meta.url);
  const coreRoot = dirname(require.resolve('@swarm/core/package.json'));
  const fromCore = createRequire(join(coreRoot, 'package.json'));
  const uplotRoot = dirname(fromCore.resolve('uplot/package.json'));
  const roots = { own: join(coreRoot, 'assets', 'viewer'), uplot: uplotRoot };
  const assets = new Map<string, Asset>();
  for (const [path, [where, file, type]] of Object.entries(TABLE)) {
    assets.set(path, { body: readFileSync(join(roots[where], file)), type: TYPES[type] });
  }
  return assets;
}

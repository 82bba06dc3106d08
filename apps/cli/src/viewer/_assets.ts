/**
 * @module viewer/assets
 * The page's static files: colony's own (apps/cli/assets/viewer/) and the chart
 * library's dist files from node_modules (uPlot). Both are found through module
 * resolution from @swarm/cli's package root (the package resolving its own name), so
 * the same code works from source and inside the bundled CLI. A fixed table maps URL paths to files: nothing
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
  '/assets/dom.js': ['own', 'dom.js', 'js'],
  '/assets/navigate.js': ['own', 'navigate.js', 'js'],
  '/assets/runtime-panel.js': ['own', 'runtime-panel.js', 'js'],
  '/assets/viewer.css': ['own', 'viewer.css', 'css'],
  '/vendor/uplot.js': ['uplot', 'dist/uPlot.iife.min.js', 'js'],
  '/vendor/uplot.css': ['uplot', 'dist/uPlot.min.css', 'css'],
};

/** Reads every asset once (a few tens of kB); throws naming the file that is missing. */
export function loadAssets(): ReadonlyMap<string, Asset> {
  const require = createRequire(import.meta.url);
  const cliRoot = dirname(require.resolve('@swarm/cli/package.json'));
  const fromCli = createRequire(join(cliRoot, 'package.json'));
  const uplotRoot = dirname(fromCli.resolve('uplot/package.json'));
  const roots = { own: join(cliRoot, 'assets', 'viewer'), uplot: uplotRoot };
  const assets = new Map<string, Asset>();
  for (const [path, [where, file, type]] of Object.entries(TABLE)) {
    assets.set(path, { body: readFileSync(join(roots[where], file)), type: TYPES[type] });
  }
  return assets;
}

/**
 * Browser-test helpers: Debian's Chromium (scripts/install-system-packages.sh puts it at
 * /usr/bin/chromium) driven by playwright-core, which never downloads a browser; the
 * viewer started as a real `colony viewer` process; and a check that a screenshot is a
 * picture (decoded with pngjs: sane size, many colours, real contrast), not a blank.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { PNG } from 'pngjs';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
/** Under CI the browser test must run: a missing Chromium fails it instead of skipping. */
export const MUST_RUN = process.env.CI === 'true';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'apps/cli/dist/cli.js');
export const OUTPUT = join(ROOT, 'apps/cli/test-output/viewer');

export async function launchChromium(): Promise<Browser> {
  if (!HAVE_CHROMIUM) throw new Error(`no Chromium at ${CHROMIUM}: run scripts/install-system-packages.sh`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // As root (containers, CI) Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
  });
}

export interface ViewerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<number | null>;
}

/** `colony viewer --port 0 ...` as a real process; resolves with the URL it prints. */
export function startViewerProcess(args: readonly string[], env: Record<string, string>): Promise<ViewerProcess> {
  const child = spawn(process.execPath, [CLI, 'viewer', '--port', '0', ...args], {
    env: { ...process.env, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`viewer did not print its URL: ${stderr}`)), 20_000);
    child.stdout?.on('data', (b: Buffer) => {
      stdout += b.toString();
      const url = /colony viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`viewer exited with ${code}: ${stderr}`));
    });
  });
}

export interface PictureStats {
  readonly width: number;
  readonly height: number;
  /** Distinct colours (RGB quantised to 4 bits per channel). */
  readonly colours: number;
  /** Standard deviation of luminance, 0..255. */
  readonly luminanceSd: number;
  /** Share of pixels that differ from the most common colour. */
  readonly inkShare: number;
}

export function pictureStats(path: string): PictureStats {
  const png = PNG.sync.read(readFileSync(path));
  const seen = new Map<number, number>();
  let sum = 0;
  let sumSq = 0;
  const n = png.width * png.height;
  for (let i = 0; i < png.data.length; i += 4) {
    const r = png.data[i] as number;
    const g = png.data[i + 1] as number;
    const b = png.data[i + 2] as number;
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += lum;
    sumSq += lum * lum;
  }
  const mean = sum / n;
  const background = Math.max(...seen.values());
  return {
    width: png.width,
    height: png.height,
    colours: seen.size,
    luminanceSd: Math.sqrt(Math.max(0, sumSq / n - mean * mean)),
    inkShare: 1 - background / n,
  };
}

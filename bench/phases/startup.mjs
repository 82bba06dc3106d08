import { writeFileSync } from 'node:fs';
import { CONFIG, connectServer, core, countTokens, details, HOME, log, row, TMP } from '../lib/setup.mjs';
import { benchStartup } from '../lib/startup-bench.mjs';
import { fmtMs, summarize } from '../lib/util.mjs';

// ---------------------------------------------------------------- startup loop

export function benchStartupLoop() {
  return benchStartup({
    core,
    tmp: TMP,
    home: HOME,
    log,
    row,
    details,
    countTokens,
    summarize,
    fmtMs,
    connectServer,
    writeFileSync,
    rounds: CONFIG.startupRounds,
    warmup: Math.min(CONFIG.warmup, 20),
  });
}

import { join } from 'node:path';
import { BUSY, CONFIG, connectServer, core, details, HOME, log, row, TMP } from '../lib/setup.mjs';
import { fmtMs, fmtRate, summarize } from '../lib/util.mjs';

/** Each writer claims `perWriter` files of its own, all writers at once; returns wall ms and the errors. */
export async function claimBurst(fleet, taskId, round) {
  const errors = [];
  const t0 = performance.now();
  await Promise.all(
    fleet.map(async (server, w) => {
      for (let i = 0; i < CONFIG.claimsPerWriter; i++) {
        const out = await server.call('task_claim_file', {
          task_id: taskId,
          session_id: `codex-bench-${w}`,
          file_path: `src/r${round}/w${w}/f${i}.ts`,
        });
        if (out.isError) errors.push(out.content?.[0]?.text ?? 'error');
      }
    }),
  );
  return { ms: performance.now() - t0, errors };
}

export async function benchClaims() {
  const writers = 8;
  log(
    `[claims] task_claim_file: ${CONFIG.claimCalls} calls over MCP stdio, then ${writers} server processes x ${CONFIG.claimsPerWriter} claims on one db`,
  );
  const db = join(TMP, 'claims.db');
  const colony = core.openColony({ home: HOME, dbPath: db, receipts: false });
  let taskId;
  try {
    for (const [i, session] of [
      'claude-bench',
      ...Array.from({ length: writers }, (_, w) => `codex-bench-${w}`),
    ].entries()) {
      const out = await colony.handleToolCall('task_thread', {
        repo_root: join(TMP, 'claims-repo'),
        branch: 'main',
        session_id: session,
        agent: i === 0 ? 'claude' : 'codex',
      });
      if (!out.ok) throw new Error(`task_thread failed: ${out.text}`);
      taskId = out.value.task_id;
    }
  } finally {
    colony.close();
  }

  // One client, one server: the latency an agent pays per claim.
  const single = await connectServer(db);
  const latencies = [];
  try {
    const claim = (i) =>
      single.call('task_claim_file', { task_id: taskId, session_id: 'claude-bench', file_path: `src/single/f${i}.ts` });
    for (let i = 0; i < CONFIG.warmup; i++) await claim(-1 - i);
    for (let i = 0; i < CONFIG.claimCalls; i++) {
      const t0 = performance.now();
      const out = await claim(i);
      latencies.push(performance.now() - t0);
      if (out.isError) throw new Error(`task_claim_file failed: ${JSON.stringify(out.content)}`);
    }
  } finally {
    await single.close();
  }

  // Eight servers started at once; the first burst begins the moment all have connected.
  const fleet = await Promise.all(Array.from({ length: writers }, () => connectServer(db)));
  let cold;
  let warm;
  try {
    cold = await claimBurst(fleet, taskId, 0);
    warm = await claimBurst(fleet, taskId, 1);
  } finally {
    await Promise.all(fleet.map((s) => s.close()));
  }
  const total = writers * CONFIG.claimsPerWriter;
  const errors = [...cold.errors, ...warm.errors];
  const busy = errors.filter((e) => BUSY.test(e)).length + fleet.filter((s) => BUSY.test(s.stderr())).length;
  const lat = summarize(latencies);
  details.claims = {
    mcp_stdio_ms: lat,
    writers,
    claims_per_writer: CONFIG.claimsPerWriter,
    right_after_start: { ms: cold.ms, per_sec: (total / cold.ms) * 1000, errors: cold.errors.length },
    warm: { ms: warm.ms, per_sec: (total / warm.ms) * 1000, errors: warm.errors.length },
    busy_errors_surfaced: busy,
    other_errors: errors.filter((e) => !BUSY.test(e)).slice(0, 5),
  };
  row('task_claim_file over MCP stdio, SDK Client', `p50 ${fmtMs(lat.p50)} / p95 ${fmtMs(lat.p95)} ms`, null, null);
  row(
    `task_claim_file, ${writers} server processes on one db, right after they start`,
    `${fmtRate(details.claims.right_after_start.per_sec)} claims/s (${fmtRate(total)} claims)`,
    null,
    null,
  );
  row(
    `task_claim_file, ${writers} server processes on one db, warm`,
    `${fmtRate(details.claims.warm.per_sec)} claims/s`,
    null,
    null,
  );
  row(
    'SQLITE_BUSY / "database is locked" surfaced to callers (both bursts)',
    `${busy} (other errors: ${errors.length - busy})`,
    '0',
    busy === 0 && errors.length === 0,
  );
}

import { makeQueries } from '../lib/corpus.mjs';
import {
  Client,
  CONFIG,
  DIST,
  details,
  HOME,
  K,
  LARGE,
  log,
  row,
  StdioClientTransport,
  TARGETS,
  vocabulary,
} from '../lib/setup.mjs';
import { fmtMs, RawRpc, spawnTracked, stopChild, summarize, trackPid, withTimeout } from '../lib/util.mjs';
import { DB } from './inserts.mjs';

// ---------------------------------------------------------------- 3. MCP stdio round trip

export async function benchMcpRoundTrip() {
  log(
    `[3/6] MCP stdio round trip at ${K(LARGE)}: ${CONFIG.mcpCalls} search calls (SDK client), ${CONFIG.rawCalls} (raw JSON-RPC)`,
  );
  const queries = makeQueries(vocabulary, CONFIG.mcpCalls, 99);
  const warm = makeQueries(vocabulary, CONFIG.warmup, 98);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DIST.mcpMain, '--db', DB, '--home', HOME],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'colony-bench', version: '0.0.0' });
  await withTimeout(client.connect(transport), 15_000, 'MCP connect');
  const untrack = trackPid(transport.pid);
  const sdk = [];
  const floor = [];
  try {
    const call = (query) => client.callTool({ name: 'search', arguments: { query, limit: 10 } });
    for (const query of warm) await call(query);
    for (const query of queries) {
      const t0 = performance.now();
      const out = await call(query);
      sdk.push(performance.now() - t0);
      if (out.isError) throw new Error(`search failed: ${JSON.stringify(out.content)}`);
    }
    // A query that matches nothing: what the MCP path costs around an (almost) free search.
    for (let i = 0; i < CONFIG.rawCalls; i++) {
      const t0 = performance.now();
      await call(i % 2 ? 'zzqxv' : 'qqzzw wwxyk');
      floor.push(performance.now() - t0);
    }
  } finally {
    await client.close().catch(() => {});
    untrack();
  }

  // The same calls with no SDK client: what the server and the pipe cost on their own.
  const child = spawnTracked(process.execPath, [DIST.mcpMain, '--db', DB, '--home', HOME]);
  const raw = [];
  try {
    const rpc = new RawRpc(child);
    await rpc.initialize();
    const call = (query) => rpc.request('tools/call', { name: 'search', arguments: { query, limit: 10 } });
    for (const query of warm.slice(0, 50)) await call(query);
    for (const query of queries.slice(0, CONFIG.rawCalls)) {
      const t0 = performance.now();
      await call(query);
      raw.push(performance.now() - t0);
    }
  } finally {
    await stopChild(child);
  }
  const sdkS = summarize(sdk);
  const rawS = summarize(raw);
  const floorS = summarize(floor);
  details.mcp_round_trip = {
    observations: LARGE,
    sdk_calls: sdk.length,
    raw_calls: raw.length,
    sdk_client_ms: sdkS,
    raw_jsonrpc_ms: rawS,
    sdk_zero_hit_ms: floorS,
  };
  row(
    `MCP stdio search @${K(LARGE)}, SDK Client`,
    `p50 ${fmtMs(sdkS.p50)} / p95 ${fmtMs(sdkS.p95)} ms`,
    `p50 <= ${TARGETS.mcpP50Ms}`,
    sdkS.p50 <= TARGETS.mcpP50Ms,
  );
  row(`MCP stdio search @${K(LARGE)}, raw JSON-RPC`, `p50 ${fmtMs(rawS.p50)} / p95 ${fmtMs(rawS.p95)} ms`, null, null);
  row(
    'MCP stdio search, zero-hit query, SDK Client (path floor)',
    `p50 ${fmtMs(floorS.p50)} / p95 ${fmtMs(floorS.p95)} ms`,
    null,
    null,
  );
}

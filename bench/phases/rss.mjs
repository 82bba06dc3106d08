import { makeQueries } from '../lib/corpus.mjs';
import { CONFIG, details, K, LARGE, log, row, TARGETS, vocabulary } from '../lib/setup.mjs';
import { RawRpc, rssOf, sleep, spawnTracked, stopChild } from '../lib/util.mjs';
import { SERVERS } from './cold-start.mjs';

// ---------------------------------------------------------------- 5. RSS

export async function rssProfile(args, searches) {
  const child = spawnTracked(process.execPath, args);
  try {
    const rpc = new RawRpc(child);
    await rpc.initialize();
    await rpc.request('tools/list', {});
    await sleep(2000);
    const idle = rssOf(child.pid);
    let afterSearch = null;
    if (searches > 0) {
      for (const query of makeQueries(vocabulary, searches, 97)) {
        await rpc.request('tools/call', { name: 'search', arguments: { query, limit: 10 } });
      }
      afterSearch = rssOf(child.pid);
    }
    return { idle, afterSearch };
  } finally {
    await stopChild(child);
  }
}

export async function benchRss() {
  log(`[5/6] RSS: after initialize + tools/list + 2 s idle, then after ${CONFIG.rssCalls} searches`);
  details.rss_mib = {};
  const baseline = spawnTracked(process.execPath, ['-e', 'process.stdin.resume()']);
  try {
    await sleep(2000);
    details.rss_mib.bare_node = rssOf(baseline.pid);
  } finally {
    await stopChild(baseline);
  }
  for (const [name, make] of Object.entries(SERVERS)) {
    const r = await rssProfile(make(), CONFIG.rssCalls);
    details.rss_mib[name] = r;
    row(
      `idle RSS, ${name}`,
      `${r.idle.rss.toFixed(1)} MiB`,
      `<= ${TARGETS.idleRssMiB} MiB`,
      r.idle.rss <= TARGETS.idleRssMiB,
    );
    row(
      `RSS after ${CONFIG.rssCalls} searches @${K(LARGE)}, ${name}`,
      `${r.afterSearch.rss.toFixed(1)} MiB (peak ${r.afterSearch.hwm.toFixed(1)})`,
      null,
      null,
    );
  }
  row('RSS of a bare `node -e` reading stdin (floor)', `${details.rss_mib.bare_node.rss.toFixed(1)} MiB`, null, null);
}

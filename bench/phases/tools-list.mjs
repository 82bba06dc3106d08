import { countTokens, DIST, details, HOME, log, row } from '../lib/setup.mjs';
import { fmtRate, RawRpc, spawnTracked, stopChild } from '../lib/util.mjs';
import { DB } from './inserts.mjs';

// ---------------------------------------------------------------- 6. tools/list size

export async function benchToolsList() {
  log('[6/6] tools/list payload per toolset');
  details.tools_list = {};
  for (const toolset of ['core', 'all', 'framework']) {
    const child = spawnTracked(process.execPath, [DIST.mcpMain, '--db', DB, '--home', HOME, '--toolset', toolset]);
    try {
      const rpc = new RawRpc(child);
      await rpc.initialize();
      const { tools } = await rpc.request('tools/list', {});
      const json = JSON.stringify(tools);
      const entry = {
        tools: tools.length,
        tokens: countTokens(json),
        bytes: Buffer.byteLength(json),
        names: tools.map((t) => t.name),
      };
      details.tools_list[toolset] = entry;
      row(
        `tools/list --toolset ${toolset}`,
        `${entry.tools} tools, ${fmtRate(entry.tokens)} tokens (${fmtRate(entry.bytes)} B)`,
        null,
        null,
      );
    } finally {
      await stopChild(child);
    }
  }
}

/**
 * `wasm_tools` and `sandbox` in the project entry: strict objects with the seed's
 * fields and limits (an unknown key or a limit past its maximum names the field),
 * fuel_limit accepted with a warning that it is not enforced, and the sandbox policy
 * resolved with its defaults (mode auto, no network).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRuntimeConfig } from '../src/index.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'wasm-settings-')));
mkdirSync(join(dir, 'home'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (extra: Record<string, unknown>) => {
  writeFileSync(
    join(dir, 'home', 'settings.json'),
    JSON.stringify({ version: 2, [dir]: { agents: [{ name: 'a', prompt: 'x' }], ...extra } }),
  );
  return loadRuntimeConfig({ home: join(dir, 'home'), projectRoot: dir });
};
const messages = (r: ReturnType<typeof load>) => r.errors.map((e) => e.message).join('\n');

describe('wasm_tools and sandbox settings', () => {
  it('takes the seed fields and warns that fuel_limit is not enforced', () => {
    const r = load({
      wasm_tools: [
        {
          name: 'weather',
          path: './tools/weather.wasm',
          capabilities: ['Logging', 'HttpRequest'],
          limits: { max_memory_bytes: 67108864, fuel_limit: 1000000000, execution_timeout_secs: 30 },
          secrets: ['API_TOKEN'],
          workspace_prefixes: ['src/'],
          endpoint_allowlist: ['api.example.com'],
          tool_aliases: { search: 'memory_search' },
        },
      ],
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      'wasm_tools[0].limits.fuel_limit: not enforced: V8 has no fuel metering; execution_timeout_secs bounds the run',
    ]);
    expect(r.config?.sandbox).toEqual({ mode: 'auto', allow_network: false, writable: [] });
  });

  it('refuses unknown keys and limits past the seed maxima, naming the field', () => {
    expect(messages(load({ wasm_tools: [{ name: 'a', path: 'a.wasm', fuel: 1 }] }))).toContain(
      'wasm_tools[0]: Unrecognized key: "fuel"',
    );
    const over = load({
      wasm_tools: [
        { name: 'a', path: 'a.wasm', limits: { max_memory_bytes: 600 * 1024 * 1024, execution_timeout_secs: 301 } },
      ],
    });
    expect(messages(over)).toMatch(/max_memory_bytes[\s\S]*at most 512 MiB/);
    expect(messages(over)).toMatch(/execution_timeout_secs[\s\S]*at most 300 seconds/);
    expect(messages(load({ sandbox: { mode: 'strict' } }))).toContain('sandbox.mode');
    expect(load({ sandbox: { mode: 'required', allow_network: true } }).config?.sandbox).toEqual({
      mode: 'required',
      allow_network: true,
      writable: [],
    });
  });
});

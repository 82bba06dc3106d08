/**
 * The sandbox and WASM tools from the CLI, as real processes: `colony swarm config`
 * states which OS sandbox agent commands run under (and warns when none: mode off), and
 * `colony swarm wasm run <tool> --input FILE` runs a configured WASM tool without a
 * model: its output, or the seed's error kind and exit 1. WASM fixtures come from the
 * runtime package's WAT helper (compiled with wabt at test time).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectSandbox } from '@swarm/core';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures, guest } from '../../../packages/runtime/test/_wat';
import { swarmFixture } from './_swarm';

const fx = fixtures();
afterAll(() => fx.cleanup());
const echo = fx.file(
  'echo',
  guest(`(func (export "execute") (param $p i32) (param $l i32) (result i32)
    (call $log (i32.const 2) (local.get $p) (local.get $l))
    (call $output (local.get $p) (local.get $l)) (i32.const 0))`),
);
const agents = [{ name: 'backend', prompt: 'x' }];

describe('colony swarm config: the sandbox line', () => {
  it('names the active sandbox, or says plainly that there is none and warns', async () => {
    const found = detectSandbox();
    const on = swarmFixture(() => ({ agents }));
    const auto = await on.colony(['swarm', 'config']);
    expect(auto.code).toBe(0);
    if (found.kind) expect(auto.stdout).toContain(`sandbox: ${found.kind} active (mode auto, network blocked)`);
    else expect(auto.stderr).toContain('sandbox: none available');
    const off = swarmFixture(() => ({ agents, sandbox: { mode: 'off', allow_network: true } }));
    const plain = await off.colony(['swarm', 'config']);
    expect(plain.stdout).toContain('sandbox: NONE, agent commands are not sandboxed (mode off, network allowed)');
    expect(plain.stderr).toContain('warning: sandbox: mode off, agent bash commands run unsandboxed');
    const json = JSON.parse((await off.colony(['swarm', 'config', '--json'])).stdout);
    expect(json.sandbox).toMatchObject({ mode: 'off', allow_network: true, active: null });
  });
});

describe('colony swarm wasm run', () => {
  const f = swarmFixture(() => ({
    agents,
    wasm_tools: [
      { name: 'echo', path: echo, capabilities: ['Logging'] },
      { name: 'mute', path: echo },
    ],
  }));
  const input = join(f.dir, 'input.json');
  writeFileSync(input, '{"say":"hi"}');

  it('prints the output and the log entries of a granted tool', async () => {
    const out = await f.colony(['swarm', 'wasm', 'run', 'echo', '--input', input]);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('{"say":"hi"}\nlogs:\n[info] {"say":"hi"}\n');
  });

  it('exits 1 with the seed error kind when a capability is missing, and names unknown tools', async () => {
    const denied = await f.colony(['swarm', 'wasm', 'run', 'mute', '--input', input, '--json']);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout)).toMatchObject({ tool: 'mute', ok: false, kind: 'CapabilityDenied' });
    const unknown = await f.colony(['swarm', 'wasm', 'run', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no wasm tool nope');
  });
});

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRuntimeConfig, resolveRuntimeConfig } from './resolve.js';

let dir: string;
let home: string;
let repo: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'colony-settings-')));
  home = join(dir, 'home');
  repo = join(dir, 'repo');
  mkdirSync(home);
  mkdirSync(join(repo, 'prompts'), { recursive: true });
  writeFileSync(join(repo, 'prompts', 'backend.md'), 'You own the API.');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const write = (settings: unknown) => writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
const load = () => loadRuntimeConfig({ home, projectRoot: repo });
const withEntry = (entry: unknown, extra: Record<string, unknown> = {}) => {
  write({ search: { alpha: 0.3 }, version: 2, [repo]: entry, ...extra });
  return load();
};
const messages = (r: ReturnType<typeof load>) => r.errors.map((e) => e.message);

describe('runtime settings: resolution', () => {
  it('resolves the seed cascade beside colony keys, with the implicit default provider', () => {
    const r = withEntry({
      agents: [
        { name: 'backend', prompt: '@prompts/backend.md', model: 'opus', mode: 'code' },
        { name: 'reviewer', prompt: 'Review changes.', delegate_mode: true },
        { name: 'frontend', prompt: 'UI.' },
      ],
    });
    expect(r.errors).toEqual([]);
    const config = r.config!;
    expect(config.project_root).toBe(repo);
    expect(Object.keys(config.providers)).toEqual(['default']);
    expect(config.providers.default).toMatchObject({
      type: 'anthropic',
      api_key_env: 'ANTHROPIC_API_KEY',
      base_url: null,
    });
    expect(config.agents.map((a) => [a.name, a.model, a.model_id, a.provider, a.mode])).toEqual([
      ['backend', 'opus', 'claude-opus-5-5', 'default', 'code'],
      ['reviewer', 'sonnet', 'claude-sonnet-5-5', 'default', 'delegate'],
      ['frontend', 'sonnet', 'claude-sonnet-5-5', 'default', 'code'],
    ]);
    expect(config.agents[0]).toMatchObject({
      prompt: 'You own the API.',
      prompt_source: join('prompts', 'backend.md'),
    });
    expect(config.defaults).toEqual({
      model: 'sonnet',
      provider: 'default',
      session_timeout: null,
      commit_interval: 300,
      max_consecutive_errors: 5,
      max_total_errors: 20,
      mode: null,
      budget: null,
      session_budget: null,
      liveness: {
        enabled: true,
        idle_nudge_after_secs: 120,
        idle_nudge_interval_secs: 300,
        max_nudges: 3,
        idle_warn_after_secs: 600,
        stall_timeout_secs: 900,
        auto_interrupt_stalled: false,
      },
    });
    expect(config.supervisor.model).toBe('sonnet');
    expect(config.supervisor.prompt).toMatch(/supervisor/);
  });

  it('applies defaults.mode/model/provider and a provider models table', () => {
    const r = withEntry({
      providers: {
        fast: { type: 'anthropic', base_url: 'http://127.0.0.1:9', models: { sonnet: 'claude-sonnet-4-5' } },
      },
      defaults: { model: 'sonnet', provider: 'fast', mode: 'delegate', session_timeout: 60 },
      agents: [
        { name: 'a', prompt: 'x' },
        { name: 'b', prompt: 'y', mode: 'code', delegate_mode: true },
      ],
      supervisor: { prompt: '@prompts/backend.md', model: 'haiku' },
    });
    expect(r.errors).toEqual([]);
    expect(r.config!.agents.map((a) => [a.provider, a.model_id, a.mode])).toEqual([
      ['fast', 'claude-sonnet-4-5', 'delegate'],
      ['fast', 'claude-sonnet-4-5', 'code'],
    ]);
    expect(r.config!.defaults.session_timeout).toBe(60);
    expect(r.config!.supervisor).toMatchObject({ prompt: 'You own the API.', model: 'haiku' });
  });

  it('finds the entry by canonical path (a symlinked project root)', () => {
    const link = join(dir, 'link');
    symlinkSync(repo, link);
    write({ version: 2, [repo]: { agents: [{ name: 'a', prompt: 'x' }] } });
    expect(loadRuntimeConfig({ home, projectRoot: link }).config?.project_root).toBe(repo);
  });

  it('accepts version 1 and warns about keys it cannot place', () => {
    write({ version: 1, stray: true, [repo]: { agents: [{ name: 'a', prompt: 'x' }] } });
    const r = load();
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual(['settings: unknown key "stray" ignored (project entries are keyed by absolute path)']);
  });

  it('treats a permission-mode name in mode as a deprecated alias with a warning', () => {
    const r = withEntry({ agents: [{ name: 'a', prompt: 'x', mode: 'plan' }] });
    expect(r.errors).toEqual([]);
    expect(r.config!.agents[0]!.mode).toBe('code');
    expect(r.warnings).toEqual([
      `agents[0].mode: "plan" is a permission mode; set permissions.default_mode instead (mode "code" used; applied as the agent's permission mode)`,
    ]);
  });

  it('warns that mcpServers, wasm_tools and sub_agent_defaults are not acted on yet', () => {
    const r = withEntry({ agents: [{ name: 'a', prompt: 'x' }], mcpServers: { fs: {} } });
    expect(r.warnings).toEqual(['mcpServers: parsed but not acted on yet by this colony version']);
  });

  it('parses hooks strictly (event keys, matcher groups, command handlers) and keeps them resolved', () => {
    const hooks = { pre_tool_use: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', timeout: 5 }] }] };
    const r = withEntry({ agents: [{ name: 'a', prompt: 'x' }], hooks });
    expect(r.errors).toEqual([]);
    expect(r.config!.hooks).toEqual(hooks);
    const bad = withEntry({ agents: [{ name: 'a', prompt: 'x' }], hooks: { PreToolUse: [] } });
    expect(bad.errors[0]!.message).toMatch(/hooks.*PreToolUse/);
  });

  it('refuses a permission rule that is not Tool or Tool(specifier), naming it', () => {
    const r = withEntry({ agents: [{ name: 'a', prompt: 'x', permissions: { deny: ['Bash(rm'] } }] });
    expect(r.errors.map((e) => e.message)).toEqual([
      'config validation failed: agents[0].permissions.deny[0]: invalid permission rule "Bash(rm" (Tool or Tool(specifier))',
    ]);
  });
});

describe('runtime settings: every validation rule names its field', () => {
  it('missing file and missing project entry: config file not found', () => {
    expect(messages(load())).toEqual([`config file not found at ${join(home, 'settings.json')}`]);
    write({ version: 2 });
    expect(load().errors[0]).toMatchObject({
      code: 'missing_file',
      message: expect.stringContaining('config file not found at'),
    });
  });

  it('unparsable JSON: failed to parse config', () => {
    writeFileSync(join(home, 'settings.json'), '{ nope');
    expect(load().errors[0]!.message).toMatch(/^failed to parse config: /);
  });

  it('rule 1: version must be 1 or 2', () => {
    write({ version: 3, [repo]: { agents: [{ name: 'a', prompt: 'x' }] } });
    expect(load().errors).toEqual([
      { code: 'version_mismatch', field: 'version', message: 'config version 3 is not supported (expected 2)' },
    ]);
    write({ version: 0, [repo]: { agents: [{ name: 'a', prompt: 'x' }] } });
    expect(messages(load())).toEqual(['config validation failed: version: must be 1 or 2, got 0']);
    write({ [repo]: { agents: [{ name: 'a', prompt: 'x' }] } });
    expect(messages(load())).toEqual(['config validation failed: version: required (1 or 2)']);
  });

  it('rule 2: at least one agent', () => {
    expect(messages(withEntry({ agents: [] }))).toEqual(['config validation failed: agents list cannot be empty']);
    expect(messages(withEntry({}))).toEqual([
      'config validation failed: agents: Invalid input: expected array, received undefined',
    ]);
  });

  it('rule 3: names match [a-z][a-z0-9-]* and are unique', () => {
    const r = withEntry({
      agents: [
        { name: 'Backend', prompt: 'x' },
        { name: 'a', prompt: 'x' },
        { name: 'a', prompt: 'y' },
      ],
    });
    expect(messages(r)).toEqual([
      'config validation failed: agents[0].name: agent name "Backend" must match [a-z][a-z0-9-]*',
      'config validation failed: agent names must be unique (duplicate: a)',
    ]);
    expect(r.errors[1]!.field).toBe('agents[2].name');
  });

  it('rule 4: provider references must be defined', () => {
    const r = withEntry({
      providers: { main: { type: 'anthropic' } },
      defaults: { provider: 'nope' },
      agents: [
        { name: 'a', prompt: 'x', provider: 'main' },
        { name: 'b', prompt: 'x' },
      ],
    });
    expect(messages(r)).toEqual([
      'config validation failed: defaults.provider: provider "nope" is not defined (defined: main)',
      'config validation failed: agents[1].provider: provider "nope" is not defined (defined: main)',
    ]);
    const implicit = withEntry({ providers: { main: { type: 'anthropic' } }, agents: [{ name: 'a', prompt: 'x' }] });
    expect(messages(implicit)).toEqual([
      'config validation failed: agents[0].provider: provider "default" is not defined (defined: main)',
    ]);
  });

  it('rule 5: provider type cannot be empty (and must be a kind colony has)', () => {
    const r = withEntry({
      providers: { default: { type: '' }, x: { type: 'bedrock' }, c: { type: 'command' } },
      agents: [{ name: 'a', prompt: 'x' }],
    });
    expect(messages(r)).toEqual([
      'config validation failed: providers.default.type: provider type cannot be empty',
      'config validation failed: providers.x.type: unknown provider type "bedrock" (one of anthropic, openai, command, scripted)',
      'config validation failed: providers.c.preset: a command provider needs a preset (claude, codex, jsonl) or an argv',
    ]);
  });

  it('rules 6 and 7: wasm tool names, uniqueness, paths and capabilities', () => {
    const r = withEntry({
      agents: [{ name: 'a', prompt: 'x' }],
      wasm_tools: [
        { name: 'Fmt', path: 'a.wasm' },
        { name: 'lint', path: '', capabilities: ['Logging', 'Root'] },
        { name: 'lint', path: 'b.wasm' },
      ],
    });
    expect(messages(r)).toEqual([
      'config validation failed: wasm_tools[0].name: wasm tool name "Fmt" must match [a-z][a-z0-9_-]*',
      'config validation failed: wasm_tools[1].path: wasm tool path cannot be empty',
      'config validation failed: wasm_tools[1].capabilities: unknown capability "Root" (one of Logging, WorkspaceRead, HttpRequest, ToolInvoke, SecretCheck)',
      'config validation failed: wasm_tools[2].name: wasm tool names must be unique (duplicate: lint)',
    ]);
  });

  it('field types and misspelt keys are named by path', () => {
    const r = withEntry({
      agents: [{ name: 'a', prompt: 'x', modle: 'opus' }],
      defaults: { max_consecutive_errors: 0, liveness: { max_nudges: -1 } },
      providers: { default: { type: 'anthropic', timeout: 'soon' } },
    });
    const fields = r.errors.map((e) => e.field);
    expect(fields).toEqual([
      'agents[0]',
      'defaults.max_consecutive_errors',
      'defaults.liveness.max_nudges',
      'providers.default.timeout',
    ]);
    expect(r.errors[0]!.message).toMatch(/^config validation failed: agents\[0\]: .*modle/);
  });

  it('unknown modes and bad prompt files are errors naming the field', () => {
    const outside = join(dir, 'secret.md');
    writeFileSync(outside, 'secret');
    const r = withEntry({
      agents: [
        { name: 'a', prompt: 'x', mode: 'yolo' },
        { name: 'b', prompt: '@prompts/missing.md' },
      ],
    });
    expect(messages(r)).toEqual([
      'config validation failed: agents[0].mode: unknown mode "yolo" (one of code, delegate)',
    ]);
    const r2 = withEntry({
      agents: [
        { name: 'b', prompt: '@prompts/missing.md' },
        { name: 'c', prompt: '@../secret.md' },
      ],
    });
    expect(messages(r2)).toEqual([
      'config validation failed: agents[0].prompt: prompt file not found: prompts/missing.md',
      'config validation failed: agents[1].prompt: prompt file ../secret.md is outside the project root',
    ]);
  });

  it('resolves already-parsed JSON too (no file needed)', () => {
    const r = resolveRuntimeConfig(
      { version: 2, [repo]: { agents: [{ name: 'a', prompt: 'x' }] } },
      { projectRoot: repo, settingsPath: 'mem' },
    );
    expect(r.config?.agents[0]?.name).toBe('a');
  });
});

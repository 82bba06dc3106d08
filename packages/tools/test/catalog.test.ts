/**
 * The catalog against the MCP tool contract (seeds/002): tool names, error codes,
 * examples that pass their own schemas, and every derived surface (JSON Schema,
 * OpenAI / Anthropic tools, docs) built from the one definition.
 */
import { describe, expect, it } from 'vitest';
import {
  COLONY_TOOLS,
  type ColonyBackend,
  ERROR_CODES,
  inputJsonSchema,
  MAX_CONTENT_CHARS,
  renderToolDocs,
  type Tool,
  ToolRegistry,
  toAnthropicTools,
  toOpenAITools,
} from '../src/index';

/** The contract sections this catalog implements. */
const CONTRACT_TOOLS = [
  'search',
  'get_observations',
  'timeline',
  'list_sessions',
  'recall_session',
  'attention_inbox',
  'task_thread',
  'task_list',
  'task_timeline',
  'task_updates_since',
  'task_post',
  'task_note_working',
  'task_link',
  'task_links',
  'task_unlink',
  'task_message',
  'task_messages',
  'task_message_mark_read',
  'task_message_claim',
  'task_message_retract',
  'task_claim_file',
  'task_drift_check',
  'task_hand_off',
  'task_accept_handoff',
  'task_decline_handoff',
  'task_relay',
  'task_accept_relay',
  'task_decline_relay',
  'task_claim_quota_accept',
  'task_claim_quota_decline',
  'task_claim_quota_release_expired',
  'task_plan_validate',
  'task_plan_publish',
  'task_plan_list',
  'task_plan_claim_subtask',
  'task_plan_complete_subtask',
  'task_plan_status_for_spec_row',
  'task_propose',
  'task_reinforce',
  'task_foraging_report',
  'spec_read',
  'openspec_sync_status',
  'spec_change_open',
  'spec_change_add_delta',
  'spec_build_context',
  'spec_build_record_failure',
  'spec_archive',
];

const CONTRACT_ERROR_CODES = [
  'INVALID_PARAMETERS',
  'SESSION_NOT_FOUND',
  'TASK_NOT_FOUND',
  'OBSERVATION_NOT_FOUND',
  'NOT_PARTICIPANT',
  'ACTIVE_TASK_NOT_FOUND',
  'AMBIGUOUS_ACTIVE_TASK',
  'TASK_LINK_SELF',
  'NOT_MESSAGE',
  'TASK_MISMATCH',
  'OBSERVATION_NOT_ON_TASK',
  'NOT_TARGET_SESSION',
  'NOT_TARGET_AGENT',
  'NOT_SENDER',
  'NOT_BROADCAST',
  'MESSAGE_EXPIRED',
  'ALREADY_REPLIED',
  'ALREADY_RETRACTED',
  'ALREADY_CLAIMED',
  'HANDOFF_EXPIRED',
  'NOT_TARGET_AGENT',
  'ALREADY_ACCEPTED',
  'OBSERVATION_NOT_ON_TASK',
  'PLAN_INVALID_WAVE_DEPENDENCY',
  'PLAN_WAVE_SCOPE_OVERLAP',
  'PLAN_FINALIZER_NOT_LAST',
  'PLAN_SCOPE_OVERLAP',
  'PLAN_SUBTASK_NOT_FOUND',
  'PLAN_SUBTASK_DEPS_UNMET',
  'PLAN_SUBTASK_NOT_AVAILABLE',
  'PLAN_SUBTASK_NOT_CLAIMED',
  'PLAN_SUBTASK_NOT_YOURS',
];

const tools = COLONY_TOOLS as unknown as readonly Tool<never>[];
const contract = tools.filter((t) => t.surface === 'contract');
const registry = new ToolRegistry(COLONY_TOOLS, {} as ColonyBackend, { now: () => 0 });

/** Every key anywhere in a JSON value, except the argument names under `properties`. */
function keywords(node: unknown, out = new Set<string>(), underProperties = false): Set<string> {
  if (Array.isArray(node)) for (const n of node) keywords(n, out);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (!underProperties) out.add(key);
      keywords(value, out, key === 'properties' && !underProperties);
    }
  }
  return out;
}

describe('COLONY_TOOLS', () => {
  it('serves every contract tool, each once', () => {
    const names = COLONY_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of CONTRACT_TOOLS) expect(names, name).toContain(name);
  });

  it('keeps the contract error codes in the closed union', () => {
    for (const code of CONTRACT_ERROR_CODES) expect(ERROR_CODES).toContain(code);
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s: its docs example passes its own input schema', (_n, tool) => {
    const parsed = tool.input.safeParse(tool.docs.example);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s: documents only known error codes', (_n, tool) => {
    for (const code of tool.docs.errors ?? []) expect(ERROR_CODES).toContain(code);
    expect(tool.docs.returns.length).toBeGreaterThan(0);
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s: rejects unknown argument names', (_n, tool) => {
    const parsed = tool.input.safeParse({ ...tool.docs.example, not_an_argument: 1 });
    expect(parsed.success).toBe(false);
  });

  it('accepts idempotency_key exactly on the mutating tools (unlisted in the fixed seed-001 schemas)', () => {
    const keyed = tools.filter((t) => t.mutates);
    for (const tool of tools) {
      expect('idempotency_key' in tool.input.shape, tool.name).toBe(keyed.includes(tool));
      if (keyed.includes(tool))
        expect(tool.input.safeParse({ ...tool.docs.example, idempotency_key: 'k1' }).success).toBe(true);
    }
    expect(keyed.map((t) => t.name)).toEqual([
      'recall_session',
      'task_thread',
      'task_post',
      'task_note_working',
      'task_claim_file',
      'task_link',
      'task_unlink',
      'task_hand_off',
      'task_accept_handoff',
      'task_decline_handoff',
      'task_relay',
      'task_accept_relay',
      'task_decline_relay',
      'task_claim_quota_accept',
      'task_claim_quota_decline',
      'task_claim_quota_release_expired',
      'task_message',
      'task_message_mark_read',
      'task_message_claim',
      'task_message_retract',
      'queen_plan_goal',
      'fs_write',
      'arbiter_decide',
      'ctx_put',
      'coord_enqueue',
      'coord_next',
      'coord_claim',
      'coord_complete',
      'coord_extend',
      'push_context',
      'send_message_to_agent',
      'get_messages_from_agents',
      'broadcast_message_to_agents',
      'batch_context_operation',
      'task_plan_publish',
      'task_plan_claim_subtask',
      'task_plan_complete_subtask',
      'task_ready_for_agent',
      'agent_upsert_profile',
      'rescue_stranded_run',
      'task_propose',
      'task_reinforce',
      'spec_change_open',
      'spec_change_add_delta',
      'spec_build_record_failure',
      'spec_archive',
      'workspace_fork',
      'workspace_merge',
      'workspace_destroy',
      'exec_parallel',
      'swarm_run',
      'workspace_clean',
    ]);
  });

  it('caps content at 64 KiB', () => {
    const post = tools.find((t) => t.name === 'task_post')!;
    const at = (n: number) => ({ ...post.docs.example, content: 'x'.repeat(n) });
    expect(post.input.safeParse(at(MAX_CONTENT_CHARS)).success).toBe(true);
    expect(post.input.safeParse(at(MAX_CONTENT_CHARS + 1)).success).toBe(false);
  });

  it('accepts only the contract post kinds', () => {
    const post = tools.find((t) => t.name === 'task_post')!;
    const kinds = ['question', 'answer', 'decision', 'blocker', 'note', 'failed_approach', 'blocked_path'];
    for (const kind of [...kinds, 'conflict_warning', 'reverted_solution']) {
      expect(post.input.safeParse({ ...post.docs.example, kind }).success, kind).toBe(true);
    }
    expect(post.input.safeParse({ ...post.docs.example, kind: 'edit' }).success).toBe(false);
  });

  it('requires absolute repo roots', () => {
    const thread = tools.find((t) => t.name === 'task_thread')!;
    expect(thread.input.safeParse({ ...thread.docs.example, repo_root: 'relative/repo' }).success).toBe(false);
  });
});

describe('toolsets', () => {
  it('core is a non-empty, proper subset of all, in the same order', () => {
    const all = registry.list('all').map((t) => t.name);
    const core = registry.list('core').map((t) => t.name);
    expect(core.length).toBeGreaterThan(0);
    expect(core.length).toBeLessThan(all.length);
    expect(all.filter((n) => core.includes(n))).toEqual(core);
    expect(registry.list()).toEqual(registry.list('all'));
    for (const name of ['search', 'get_observations', 'task_thread', 'task_post', 'task_note_working']) {
      expect(core).toContain(name);
    }
  });

  it('serves messages to read and answer in core, and claims, retractions and links in all only', () => {
    const core = registry.list('core').map((t) => t.name);
    for (const name of ['task_message', 'task_messages', 'task_message_mark_read']) expect(core).toContain(name);
    for (const name of ['task_message_claim', 'task_message_retract', 'task_link', 'task_links', 'task_unlink']) {
      expect(core).not.toContain(name);
    }
  });
});

describe('inputJsonSchema', () => {
  it.each(tools.map((t) => [t.name, t] as const))('%s: a lean object schema with every argument', (_n, tool) => {
    const schema = inputJsonSchema(tool);
    expect(schema.type).toBe('object');
    expect(schema).not.toHaveProperty('$schema');
    expect(schema).not.toHaveProperty('additionalProperties');
    const used = keywords(schema);
    for (const bound of [
      'additionalProperties',
      'maxLength',
      'minLength',
      'minimum',
      'maximum',
      'pattern',
      '$schema',
    ]) {
      expect(used.has(bound), bound).toBe(false);
    }
    const listed = Object.entries(tool.input.shape).filter(([name]) => !tool.unlisted.includes(name));
    expect(Object.keys(schema.properties as object).sort()).toEqual(listed.map(([name]) => name).sort());
    const required = listed
      .filter(([, field]) => !(field as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success)
      .map(([name]) => name)
      .sort();
    expect([...((schema.required as string[] | undefined) ?? [])].sort()).toEqual(required);
    expect(inputJsonSchema(tool)).toBe(schema); // cached
  });

  it('keeps enums and defaults a model needs', () => {
    const post = inputJsonSchema(tools.find((t) => t.name === 'task_post')!);
    expect((post.properties as Record<string, { enum?: unknown[] }>).kind?.enum).toContain('failed_approach');
    const search = inputJsonSchema(tools.find((t) => t.name === 'search')!);
    expect((search.properties as Record<string, { default?: unknown }>).limit?.default).toBe(10);
  });
});

describe('function-calling adapters', () => {
  it('exports OpenAI function tools', () => {
    const openai = toOpenAITools(registry);
    expect(openai).toHaveLength(contract.length);
    for (const [i, tool] of contract.entries()) {
      expect(openai[i]).toEqual({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: inputJsonSchema(tool) },
      });
    }
  });

  it('exports Anthropic tools', () => {
    const anthropic = toAnthropicTools(registry);
    expect(anthropic).toHaveLength(contract.length);
    for (const [i, tool] of contract.entries()) {
      expect(anthropic[i]).toEqual({
        name: tool.name,
        description: tool.description,
        input_schema: inputJsonSchema(tool),
      });
      expect(Object.keys(anthropic[i]!)).toEqual(['name', 'description', 'input_schema']);
    }
  });

  it('narrows to the core toolset from a registry or a plain array alike', () => {
    const core = registry.list('core').map((t) => t.name);
    expect(toOpenAITools(registry, 'core').map((t) => t.function.name)).toEqual(core);
    expect(toAnthropicTools(tools, 'core').map((t) => t.name)).toEqual(core);
    expect(toAnthropicTools(tools).map((t) => t.name)).toEqual(contract.map((t) => t.name));
  });

  it('exports the framework toolset apart from the contract', () => {
    const framework = tools.filter((t) => t.surface === 'framework').map((t) => t.name);
    expect(framework).toEqual(expect.arrayContaining(['fs_list', 'fs_write', 'ctx_put', 'coord_next']));
    expect(toOpenAITools(registry, 'framework').map((t) => t.function.name)).toEqual(framework);
    expect(toAnthropicTools(tools, 'framework').map((t) => t.name)).toEqual(framework);
    expect(registry.list('all').some((t) => t.surface === 'framework')).toBe(false);
  });
});

describe('renderToolDocs', () => {
  const docs = renderToolDocs(tools, { preamble: '# colony MCP tools\n\nHand-written intro.' });

  it('starts with the generated banner and the preamble', () => {
    expect(docs.split('\n')[0]).toMatch(/^<!-- Generated from the tool registry/);
    expect(docs).toContain('# colony MCP tools\n\nHand-written intro.');
    expect(docs.endsWith('\n')).toBe(true);
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s: has an index row and a full section', (name, tool) => {
    expect(docs).toContain(`| [${name}](#${name}) |`);
    const start = docs.indexOf(`\n## ${name}\n`);
    expect(start).toBeGreaterThan(0);
    const next = docs.indexOf('\n## ', start + 1);
    const section = docs.slice(start, next === -1 ? undefined : next);
    expect(section).toContain(tool.description);
    expect(section).toContain(`**Returns:** ${tool.docs.returns}`);
    expect(section).toContain('`INVALID_PARAMETERS`');
    for (const code of tool.docs.errors ?? []) expect(section).toContain(`\`${code}\``);
    for (const arg of Object.keys(tool.input.shape)) expect(section).toContain(`| \`${arg}\` |`);
    expect(section).toContain(JSON.stringify({ name, input: tool.docs.example }));
  });

  it('shows bounds that the lean schema leaves out', () => {
    expect(docs).toContain(`max ${MAX_CONTENT_CHARS} chars`);
  });
});

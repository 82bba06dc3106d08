/**
 * @module tools/framework-context
 * Seed 000 shared context: a versioned key/value store every agent of a swarm reads
 * and writes. Findings go under `AgentName.task` keys; the orchestrator keeps the
 * round number under `phase` (coord_status reports it) and agents may use
 * `phase_ready` as a barrier.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, contextKey, jsonValue, limit } from '../schemas';

export const CtxPutInput = z.strictObject({
  agent: agentName,
  key: contextKey,
  value: jsonValue,
  mode: z.enum(['set', 'if_absent', 'if_version']).default('set'),
  /** Required with mode if_version (checked by the service: refinements would block `.extend`). */
  expected_version: z.int().nonnegative().optional(),
});
export type CtxPutInput = z.output<typeof CtxPutInput>;

export type CtxPutResult =
  | { ok: true; key: string; version: number }
  | { ok: false; error: 'version_mismatch'; key: string; version: number };

export interface CtxGetResult {
  key: string;
  value: unknown;
  version: number;
}

export interface CtxKeysResult {
  keys: string[];
  truncated?: true;
}

export interface FrameworkContextBackend {
  put(args: CtxPutInput): Promise<CtxPutResult>;
  get(args: CtxGetInput): Promise<CtxGetResult>;
  keys(args: CtxKeysInput): Promise<CtxKeysResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly framework: { readonly context: FrameworkContextBackend } };

export const ctxPut = defineTool({
  name: 'ctx_put',
  title: 'Put context key',
  description: 'Store a JSON value under a shared-context key (mode set, if_absent, or if_version).',
  input: CtxPutInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: true, idempotent: false },
  docs: {
    returns:
      '{ ok: true, key, version } or, when the condition fails, { ok: false, error: ' +
      '"version_mismatch", key, version } with the current version (0 when absent).',
    errors: ['RATE_LIMITED'],
    notes:
      'expected_version is required with if_version (INVALID_PARAMETERS otherwise). Versions start at ' +
      '1 and grow by one per write. if_absent writes only a new key; if_version writes only when the ' +
      'current version equals expected_version (0 = absent). Findings convention: key ' +
      '`AgentName.task`, value { ok, task, data, ts, agent }.',
    example: {
      agent: 'Gemini',
      key: 'Gemini.list_code_files',
      value: {
        ok: true,
        task: 'list_code_files',
        data: ['scripts/ai_swarm.py'],
        ts: '2025-01-01T12:00:00Z',
        agent: 'Gemini',
      },
    },
  },
  handler: (args, b: Host) => b.framework.context.put(args),
});

export const CtxGetInput = z.strictObject({ agent: agentName, key: contextKey });
export type CtxGetInput = z.output<typeof CtxGetInput>;

export const ctxGet = defineTool({
  name: 'ctx_get',
  title: 'Get context key',
  description: 'Read a shared-context key.',
  input: CtxGetInput,
  surface: 'framework',
  mutates: false,
  docs: {
    returns: '{ key, value, version }; an absent key answers value null, version 0.',
    errors: ['RATE_LIMITED'],
    example: { agent: 'Claude', key: 'Gemini.list_code_files' },
  },
  handler: (args, b: Host) => b.framework.context.get(args),
});

export const CtxKeysInput = z.strictObject({
  agent: agentName,
  prefix: z.string().max(200).optional(),
  limit: limit(200, 1000),
});
export type CtxKeysInput = z.output<typeof CtxKeysInput>;

export const ctxKeys = defineTool({
  name: 'ctx_keys',
  title: 'Context keys',
  description: 'List shared-context keys, optionally by prefix.',
  input: CtxKeysInput,
  surface: 'framework',
  mutates: false,
  docs: {
    returns: '{ keys: [ key ] } sorted, plus truncated: true when more than limit match.',
    errors: ['RATE_LIMITED'],
    example: { agent: 'Claude', prefix: 'Gemini.' },
  },
  handler: (args, b: Host) => b.framework.context.keys(args),
});

export const frameworkContextTools = [ctxPut, ctxGet, ctxKeys];

/**
 * @module runtime/governance
 * `colony swarm permissions check` and `colony swarm hooks run`: the project's
 * permissions and lifecycle hooks evaluated exactly as a running session would, without
 * a model. Both read the project's entry in `$COLONY_HOME/settings.json`.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  evaluatePermission,
  type HookDispatchResult,
  hookEventOf,
  LifecycleHooks,
  loadRuntimeConfig,
  type PermissionVerdict,
  parseCallSpec,
  permissionPolicyOf,
  type ResolvedProjectConfig,
} from '@swarm/runtime';
import { resolveHome } from '../paths.js';
import { SUPERVISOR } from './_agents.js';
import { projectRootOf } from './config.js';
import { SwarmControlError } from './control.js';

export interface PermissionCheck extends PermissionVerdict {
  readonly agent: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

async function projectConfig(cwd: string, home?: string): Promise<ResolvedProjectConfig> {
  const loaded = loadRuntimeConfig({ home: resolveHome(home), projectRoot: await projectRootOf(cwd) });
  if (!loaded.config) throw new SwarmControlError(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.config;
}

/** The decision for `agent` calling `call` (`Tool(input)`), with the step and rule that made it. */
export async function checkPermission(options: {
  cwd: string;
  home?: string;
  agent: string;
  call: string;
}): Promise<PermissionCheck> {
  const config = await projectConfig(options.cwd, options.home);
  const names = [...config.agents.map((a) => a.name), SUPERVISOR];
  if (!names.includes(options.agent))
    throw new SwarmControlError(`unknown agent ${options.agent} (one of ${names.join(', ')})`);
  const spec = parseCallSpec(options.call);
  if (!spec) throw new SwarmControlError(`not a tool call: ${options.call} (write Tool or Tool(input))`);
  const policy = permissionPolicyOf(config, options.agent);
  const verdict: PermissionVerdict = policy
    ? evaluatePermission(policy, spec.tool, spec.input)
    : {
        decision: 'allow',
        step: 6,
        source: 'mode',
        rule: null,
        mode: 'default',
        reason: 'no permissions configured: every call is allowed',
      };
  return { agent: options.agent, tool: spec.tool, input: spec.input, ...verdict };
}

/**
 * Fires `event` (`PreToolUse` or `pre_tool_use`) at the project's hooks with the JSON
 * object in `input_file` as the context (`session_id` and `cwd` default to `cli` and
 * the project root); waits for async hooks too, so none outlives the command.
 */
export async function runHooks(options: {
  cwd: string;
  home?: string;
  event: string;
  input_file?: string;
}): Promise<HookDispatchResult> {
  const event = hookEventOf(options.event);
  if (!event) throw new SwarmControlError(`unknown hook event ${options.event}`);
  const config = await projectConfig(options.cwd, options.home);
  const input = options.input_file ? readInput(options.input_file) : {};
  const { session_id, cwd, hook_event_name: _ignored, ...fields } = input;
  const hooks = new LifecycleHooks(config.hooks, {
    session_id: typeof session_id === 'string' ? session_id : 'cli',
    cwd: typeof cwd === 'string' ? cwd : config.project_root,
  });
  const result = await hooks.fire(event, fields);
  await hooks.drain();
  return result;
}

function readInput(path: string): Record<string, unknown> {
  if (!existsSync(path)) throw new SwarmControlError(`no such input file: ${path}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SwarmControlError(`input file ${path} is not JSON: ${(error as Error).message}`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new SwarmControlError(`input file ${path} must hold a JSON object`);
  return json as Record<string, unknown>;
}

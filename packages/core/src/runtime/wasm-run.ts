/**
 * @module runtime/wasm-run
 * `colony swarm wasm run <tool> --input FILE`: one invocation of a configured WASM tool
 * without a model or a session, exactly as an agent's call runs (worker thread, limits,
 * capabilities), with the repository root as its workspace. invoke_tool has no tools
 * here (a HostFunctionError), since no session is running.
 */
import { loadRuntimeConfig, outcomeText, runWasm, type WasmOutcome, wasmRunOptions } from '@swarm/runtime';
import { resolveHome } from '../paths.js';
import { projectRootOf } from './config.js';
import { SwarmControlError } from './control.js';

export interface WasmRunResult {
  readonly tool: string;
  readonly ok: boolean;
  /** The seed's error kind of a failure (null: success, or the guest's own error). */
  readonly kind: string | null;
  readonly text: string;
  readonly outcome: WasmOutcome;
}

export async function runWasmTool(options: {
  cwd: string;
  home?: string;
  tool: string;
  input: string;
}): Promise<WasmRunResult> {
  const root = await projectRootOf(options.cwd);
  const loaded = loadRuntimeConfig({ home: resolveHome(options.home), projectRoot: root });
  if (!loaded.config) throw new SwarmControlError(loaded.errors.map((e) => e.message).join('; '));
  const tools = loaded.config.raw.wasm_tools ?? [];
  const tool = tools.find((t) => t.name === options.tool);
  if (!tool) {
    const known = tools.map((t) => t.name).join(', ') || '(none)';
    throw new SwarmControlError(`no wasm tool ${options.tool} in the project's wasm_tools; configured: ${known}`);
  }
  const outcome = await runWasm('execute', options.input, wasmRunOptions(tool, { base: root, worktree: root }));
  return {
    tool: tool.name,
    ok: outcome.ok,
    kind: outcome.ok ? null : outcome.kind,
    text: outcomeText(outcome),
    outcome,
  };
}

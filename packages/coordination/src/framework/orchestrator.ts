/**
 * @module framework/orchestrator
 * Runs the tool calls of a model's reply (seed 000) for one agent in one workspace.
 * Read-only calls run at once, side by side; a call that writes runs alone, after
 * the calls before it, so a reply reading a key after putting it sees the new value.
 * fs_write only queues a proposal: nothing reaches the disk before an arbiter
 * approves it (see `decide`) AND writes are allowed.
 *
 * The orchestrator, not the model, says who is calling and where: the caller argument
 * (`agent`, or a seed-001 tool's `agent_name` / `from_agent`) and `repo_root` are
 * always set from its own options, whatever the reply says, so a model cannot act as
 * another agent or reach outside its workspace.
 */
import type { ToolCallOutcome, ToolErrorPayload, ToolRegistry, Toolset } from '@swarm/tools';
import { type EnvelopeError, type ParsedReply, parseToolCalls, type ToolCallRequest } from './envelope';

/** What the orchestrator needs of a colony: calling tools and knowing which ones write. */
export interface ToolCaller {
  handleToolCall(name: string, args: unknown, options?: { toolset?: Toolset }): Promise<ToolCallOutcome>;
  readonly registry: Pick<ToolRegistry<never>, 'get'>;
}

export interface OrchestratorOptions {
  readonly colony: ToolCaller;
  /** The calling agent's name (the `agent` argument of every call). */
  readonly agent: string;
  /** The workspace root (the `repo_root` argument of the file tools). */
  readonly repoRoot: string;
  /** Tools the model may call; default `framework`. */
  readonly toolset?: Toolset;
}

export interface CallReport {
  readonly name: string;
  readonly read_only: boolean;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: ToolErrorPayload;
}

export interface TurnReport {
  /** One report per call, in reply order. */
  readonly calls: CallReport[];
  /** Envelope problems: JSON that did not parse, calls without a name. */
  readonly errors: EnvelopeError[];
  /** Ids of the write proposals this turn queued. */
  readonly proposals: number[];
}

/** An arbiter reply that was not strict JSON never reaches the tool. */
export type ArbiterReport =
  | CallReport
  | { readonly name: 'arbiter_decide'; readonly read_only: false; readonly ok: false; readonly parse_error: string };

/** The decisions of an arbiter's STRICT JSON reply: one object, its only key `decisions`. */
export function parseArbiterReply(reply: string): { ok: true; decisions: unknown } | { ok: false; message: string } {
  let body = reply.trim();
  const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(body);
  if (fenced) body = fenced[2]!.trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, message: `arbiter reply is not strict JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: 'arbiter reply must be a JSON object { "decisions": [...] }' };
  }
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'decisions') {
    return { ok: false, message: `arbiter reply must hold only "decisions", not ${JSON.stringify(keys)}` };
  }
  return { ok: true, decisions: (value as { decisions: unknown }).decisions };
}

export class Orchestrator {
  readonly #colony: ToolCaller;
  readonly #agent: string;
  readonly #repoRoot: string;
  readonly #toolset: Toolset;

  constructor(options: OrchestratorOptions) {
    this.#colony = options.colony;
    this.#agent = options.agent;
    this.#repoRoot = options.repoRoot;
    this.#toolset = options.toolset ?? 'framework';
  }

  /** Parses a reply and runs its calls. Never throws for anything the reply contains. */
  async handleReply(reply: string): Promise<TurnReport> {
    const parsed: ParsedReply = parseToolCalls(reply);
    const calls = await this.run(parsed.calls);
    const proposals = calls.flatMap((c) =>
      c.ok && c.name === 'fs_write' ? [(c.result as { proposal_id: number }).proposal_id] : [],
    );
    return { calls, errors: parsed.errors, proposals };
  }

  /** Runs calls: consecutive read-only ones together, each writing one alone and in order. */
  async run(calls: readonly ToolCallRequest[]): Promise<CallReport[]> {
    const reports: CallReport[] = [];
    let batch: ToolCallRequest[] = [];
    const flush = async () => {
      reports.push(...(await Promise.all(batch.map((c) => this.#call(c, true)))));
      batch = [];
    };
    for (const call of calls) {
      if (this.#readOnly(call.name)) {
        batch.push(call);
        continue;
      }
      await flush();
      reports.push(await this.#call(call, false));
    }
    await flush();
    return reports;
  }

  /**
   * Applies an arbiter's reply: STRICT JSON `{ "decisions": [ { path, action, notes } ] }`,
   * bare or as the reply's only fenced block, sent to arbiter_decide as this agent.
   */
  async decide(reply: string): Promise<ArbiterReport> {
    const parsed = parseArbiterReply(reply);
    if (!parsed.ok) return { name: 'arbiter_decide', read_only: false, ok: false, parse_error: parsed.message };
    return this.#call({ name: 'arbiter_decide', args: { decisions: parsed.decisions } }, false);
  }

  #readOnly(name: string): boolean {
    // Unknown tools are refused without side effects, so they may run with the reads.
    return this.#colony.registry.get(name)?.mutates !== true;
  }

  async #call(call: ToolCallRequest, readOnly: boolean): Promise<CallReport> {
    const tool = this.#colony.registry.get(call.name);
    const shape = tool?.input.shape ?? {};
    // The caller argument: `agent` for seed 000, `agent_name` / `from_agent` for seed 001.
    const caller = tool?.callerArg;
    const args = {
      ...call.args,
      ...(caller ? { [caller]: this.#agent } : {}),
      ...('repo_root' in shape ? { repo_root: this.#repoRoot } : {}),
    };
    const outcome = await this.#colony.handleToolCall(call.name, args, { toolset: this.#toolset });
    return outcome.ok
      ? { name: call.name, read_only: readOnly, ok: true, result: outcome.value }
      : { name: call.name, read_only: readOnly, ok: false, error: outcome.error };
  }
}

/**
 * The results of a turn as one JSON text to hand back to the model (the transcript
 * line of seed 000): `{ "tool_results": [ { name, ok, result | error } ], "errors": [...] }`.
 */
export function formatTurnReport(report: TurnReport): string {
  return JSON.stringify({
    tool_results: report.calls.map((c) =>
      c.ok ? { name: c.name, ok: true, result: c.result } : { name: c.name, ok: false, error: c.error },
    ),
    ...(report.errors.length ? { errors: report.errors } : {}),
  });
}

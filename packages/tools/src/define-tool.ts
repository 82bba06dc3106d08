/**
 * @module define-tool
 * A tool is defined once: name, short description, zod input, handler binding, and the
 * docs that only docs/mcp.md shows. MCP registration, OpenAI/Anthropic schemas,
 * `handleToolCall` and the docs all derive from this one object.
 */
import { z } from 'zod';
import type { ErrorCode, ErrorFormat } from './errors';
import type { Toolset } from './toolsets';

export { TOOLSETS, type Toolset } from './toolsets';

/** Which surface a tool belongs to: the MCP contract, the framework surfaces, or the runtime (host execution). */
export type ToolSurface = 'contract' | 'framework' | 'runtime';

/** The optional retry key every mutating tool accepts. */
export const idempotencyKey = z.string().min(1).max(200);

export interface ToolDocs {
  /** The shape of a successful answer, in the contract's words. */
  readonly returns: string;
  /** Error codes this tool can answer with, beyond INVALID_PARAMETERS. */
  readonly errors?: readonly ErrorCode[];
  /** Longer guidance for docs/mcp.md; never sent in tools/list. */
  readonly notes?: string;
  /** A copy-paste example input. */
  readonly example: Record<string, unknown>;
}

/**
 * How a tool behaves, as the MCP spec's tool annotations mean it (clients auto-approve
 * read-only tools and warn before destructive or open-world ones). `readOnlyHint` is
 * `!mutates`; a mutating tool states the other two, since the spec's defaults
 * (destructive, not idempotent) fit few colony tools.
 */
export interface ToolHints {
  /** May overwrite or delete what exists, rather than only add (mutating tools only). */
  readonly destructive?: boolean;
  /** A second call with the same arguments changes nothing more (mutating tools only). */
  readonly idempotent?: boolean;
  /** Reaches beyond colony's store and worktrees (runs arbitrary commands). Default false. */
  readonly openWorld?: boolean;
}

/** The MCP spec's tool annotations, every hint resolved. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface ToolSpec<B, S extends z.ZodObject, R> {
  readonly name: string;
  /** A short human name, shown by clients instead of `name`. */
  readonly title: string;
  /** One or two sentences: this is what every agent pays for on every turn. */
  readonly description: string;
  readonly input: S;
  /** Part of the lean `core` toolset (every contract tool is in `all`). */
  readonly core?: boolean;
  /** Default `contract`; `framework` tools are served only in the `framework` toolset. */
  readonly surface?: ToolSurface;
  /** Writes state. Mutating tools accept `idempotency_key`. */
  readonly mutates: boolean;
  /** Behaviour hints; a mutating tool must state `destructive` and `idempotent`. */
  readonly hints?: ToolHints;
  /**
   * Whether the tool accepts `idempotency_key`; default: when it mutates. The key is
   * never in the lean JSON schema (tools/list, function schemas), only in docs/mcp.md;
   * `unlisted` says so where an outside contract fixes that schema word for word (seed 001).
   */
  readonly idempotencyKey?: boolean | 'unlisted';
  /**
   * The handler is async (it runs processes): a keyed call reserves its key, runs outside
   * any write transaction, then records the answer (RegistryCallbacks.idempotentAsync).
   */
  readonly async?: boolean;
  /** How refusals are worded; default `colony`. */
  readonly errorFormat?: ErrorFormat;
  /**
   * What identifies a keyed call for idempotency (its hash is stored beside the key);
   * default: every argument but `idempotency_key`. A tool whose arguments carry secrets
   * leaves their values out, so nothing in the store can be tested against a guess.
   */
  readonly fingerprint?: (args: z.output<S>) => unknown;
  /**
   * The argument naming the calling agent, which an orchestrator sets itself instead of
   * trusting a model with it. Default `agent` when the input has it.
   */
  readonly callerArg?: string;
  readonly docs: ToolDocs;
  readonly handler: (args: z.output<S>, backend: B) => R | Promise<R>;
}

/** A registered tool, its input widened with `idempotency_key` when it mutates. */
export interface Tool<B = unknown> {
  readonly name: string;
  readonly title: string;
  readonly annotations: ToolAnnotations;
  readonly description: string;
  readonly input: z.ZodObject;
  readonly core: boolean;
  readonly surface: ToolSurface;
  readonly mutates: boolean;
  /** The handler is async (see ToolSpec.async). */
  readonly async: boolean;
  readonly errorFormat: ErrorFormat;
  /** What identifies a keyed call (see ToolSpec.fingerprint); null: its arguments. */
  readonly fingerprint: ((args: Record<string, unknown>) => unknown) | null;
  /** The argument naming the calling agent, if any (see ToolSpec.callerArg). */
  readonly callerArg: string | null;
  /** Arguments accepted but left out of the published JSON schema (`idempotency_key`). */
  readonly unlisted: readonly string[];
  readonly docs: ToolDocs;
  readonly handler: (args: Record<string, unknown>, backend: B) => unknown;
}

/** Whether a toolset serves a tool. */
export function inToolset(tool: Pick<Tool, 'core' | 'surface'>, toolset: Toolset): boolean {
  if (toolset === 'framework') return tool.surface === 'framework';
  if (toolset === 'runtime') return tool.surface === 'runtime';
  return tool.surface === 'contract' && (toolset === 'all' || tool.core);
}

const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * A tool as `defineTool` returns it: a `Tool` whose name is a literal and which carries,
 * for the type checker only, its arguments, result and refusal shape (`~types` is never
 * set at run time). `ToolName`, `ToolArgs<N>` and `ToolResult<N>` are read from these.
 */
export interface DefinedTool<B, N extends string, A, R, F extends ErrorFormat> extends Tool<B> {
  readonly name: N;
  readonly '~types'?: { readonly args: A; readonly result: R; readonly errorFormat: F };
}

/** The arguments a caller passes: the input's, plus `idempotency_key` when the tool mutates. */
type CallArgs<S extends z.ZodObject, M extends boolean> = z.input<S> &
  (M extends true ? { idempotency_key?: string } : unknown);

export function defineTool<
  B,
  S extends z.ZodObject,
  R,
  const N extends string,
  const M extends boolean,
  const F extends ErrorFormat = 'colony',
>(
  spec: ToolSpec<B, S, R> & { readonly name: N; readonly mutates: M; readonly errorFormat?: F },
): DefinedTool<B, N, CallArgs<S, M>, Awaited<R>, F> {
  if (!TOOL_NAME.test(spec.name)) throw new Error(`invalid tool name: ${spec.name}`);
  const keyed = spec.idempotencyKey === 'unlisted' ? spec.mutates : (spec.idempotencyKey ?? spec.mutates);
  const input = keyed ? spec.input.extend({ idempotency_key: idempotencyKey.optional() }) : spec.input;
  const callerArg = spec.callerArg ?? ('agent' in spec.input.shape ? 'agent' : null);
  if (callerArg !== null && !(callerArg in spec.input.shape)) {
    throw new Error(`${spec.name}: callerArg "${callerArg}" is not an argument`);
  }
  return {
    name: spec.name,
    title: spec.title,
    annotations: annotationsOf(spec),
    description: spec.description,
    input,
    core: spec.core ?? false,
    surface: spec.surface ?? 'contract',
    mutates: spec.mutates,
    async: spec.async ?? false,
    errorFormat: spec.errorFormat ?? 'colony',
    fingerprint: (spec.fingerprint as Tool<B>['fingerprint'] | undefined) ?? null,
    callerArg,
    // The retry key is for clients, not models: the lean schema leaves it out (every
    // mutating tool takes it, which the server instructions say once) and docs list it.
    unlisted: keyed ? ['idempotency_key'] : [],
    docs: spec.docs,
    handler: spec.handler as Tool<B>['handler'],
  } as DefinedTool<B, N, CallArgs<S, M>, Awaited<R>, F>;
}

function annotationsOf(spec: Pick<ToolSpec<never, z.ZodObject, never>, 'name' | 'mutates' | 'hints'>): ToolAnnotations {
  const hints = spec.hints ?? {};
  const openWorldHint = hints.openWorld ?? false;
  if (!spec.mutates) {
    if (hints.destructive !== undefined || hints.idempotent !== undefined) {
      throw new Error(`${spec.name}: a read-only tool states neither destructive nor idempotent`);
    }
    return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint };
  }
  if (hints.destructive === undefined || hints.idempotent === undefined) {
    throw new Error(`${spec.name}: a mutating tool states hints.destructive and hints.idempotent`);
  }
  return { readOnlyHint: false, destructiveHint: hints.destructive, idempotentHint: hints.idempotent, openWorldHint };
}

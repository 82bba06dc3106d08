/**
 * @module runtime/_agents
 * Builds one runner per agent of a session from the resolved settings: its provider,
 * its tools (confined to its worktree, colony's core tools with session_id/agent
 * supplied, claims taken on write/edit), its prompt inputs (git status and log of the
 * worktree, colony's ready plan sub-tasks, AGENTS.md) and its budgets. Every tool call
 * is guarded (`guardTools`): the agent's permission policy, its lifecycle hooks (cwd =
 * its worktree), and an `ask` that becomes a needs_reply message to the operator.
 */
import { existsSync, readFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import {
  AgentRunner,
  type AgentSnapshot,
  type AgentTools,
  agentEnvironment,
  agentTools,
  BudgetMeter,
  type ColonyMailbox,
  colonyMailbox,
  colonySessionId,
  createModelProvider,
  guardTools,
  joinThread,
  LifecycleHooks,
  type Mailbox,
  type MarkAllRead,
  type McpManager,
  mailboxAsker,
  notifyingMailbox,
  operatorAnswer,
  permissionPolicyOf,
  type ReadySubtask,
  type ResolvedProjectConfig,
  type SessionInfo,
  SkillScope,
  type ToolCaller,
} from '@swarm/runtime';
import { gitRaw } from '@swarm/worktree';
import type { Colony } from '../open-colony.js';
import { agentToolSet } from './_tool-set.js';

export const SUPERVISOR = 'supervisor';

export interface BuildAgentsOptions {
  readonly colony: Colony;
  readonly caller: ToolCaller;
  readonly config: ResolvedProjectConfig;
  readonly info: SessionInfo;
  readonly root: string;
  readonly worktrees: Readonly<Record<string, string>>;
  readonly mailbox: Mailbox & Pick<ColonyMailbox, 'task_id' | 'takeMessage'>;
  readonly session_budget: BudgetMeter;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long an `ask` waits for the operator before denying; default permissions.ask_timeout_secs, else 60 s. */
  readonly ask_timeout_ms?: number;
  /** The project's MCP servers, shared by every agent. */
  readonly mcp?: McpManager;
  readonly onChange: (snapshot: AgentSnapshot) => void;
  readonly log: (agent: string, line: string) => void;
  /** Each agent's WASM tools (see _wasm.ts), offered beside the built-ins. */
  readonly wasm?: Readonly<Record<string, AgentTools>>;
}

function askTimeout(o: BuildAgentsOptions, agent_secs: number | null | undefined): { timeout_ms?: number } {
  const secs = agent_secs ?? o.config.permissions?.ask_timeout_secs;
  const ms = o.ask_timeout_ms ?? (secs ? secs * 1000 : undefined);
  return ms ? { timeout_ms: ms } : {};
}

export function callerOf(colony: Colony): ToolCaller {
  return {
    async callTool(name, args) {
      const out = await colony.handleToolCall(name, args);
      return out.ok ? { ok: true, text: out.text, value: out.value } : { ok: false, text: out.text };
    },
  };
}

/**
 * The mailbox's batched read: every message that goes into a prompt is marked read in
 * one store write (MessageService.markReadAll), or, on any refusal, none is.
 */
export function markReadOf(colony: Colony): MarkAllRead {
  return async ({ session_id, task_id, ids }) =>
    (await colony.messages.markReadAll({ session_id, task_id, message_observation_ids: ids }))
      .filter((r) => r.newly_read)
      .map((r) => r.id);
}

/** The colony mailbox of a session, on `colony`'s store. */
export function sessionMailbox(
  colony: Colony,
  options: { repo_root: string; branch: string; session_id: string; agents: readonly string[] },
): Promise<ColonyMailbox> {
  return colonyMailbox({ caller: callerOf(colony), markRead: markReadOf(colony), ...options });
}

export function buildRunners(o: BuildAgentsOptions): AgentRunner[] {
  const { config, info, colony } = o;
  const names = info.agents;
  const colonyTools = colony.toAnthropicTools('core').map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.input_schema as Record<string, unknown>,
  }));
  const agentsMd = join(o.root, 'AGENTS.md');
  const instructions = existsSync(agentsMd) ? readFileSync(agentsMd, 'utf8') : null;
  const d = config.defaults;
  return names.map((name) => {
    const agent = config.agents.find((a) => a.name === name);
    const providerName = agent?.provider ?? d.provider;
    const provider = config.providers[providerName];
    if (!provider) throw new Error(`agent ${name}: provider ${providerName} is not configured`);
    const worktree = o.worktrees[name]!;
    const colony_session_id = colonySessionId(info.id, name);
    const env = agentEnvironment({ agent_name: name, session_id: info.id, db_path: info.db_path, agent_names: names });
    const hooks = config.hooks
      ? new LifecycleHooks(config.hooks, {
          session_id: info.id,
          cwd: worktree,
          agent_name: name,
          env,
          log: (line) => o.log(name, line),
        })
      : null;
    const mailbox = notifyingMailbox(o.mailbox, hooks);
    const own = agentTools({
      worktree,
      agent: name,
      colony_session_id,
      env,
      mailbox,
      colony: o.caller,
      colony_tools: colonyTools,
      sandbox: config.sandbox,
      ...(o.wasm?.[name] ? { extra: o.wasm[name] } : {}),
      claim: async (file_path) => {
        const out = await o.caller.callTool('task_claim_file', {
          task_id: o.mailbox.task_id,
          session_id: colony_session_id,
          file_path,
        });
        if (!out.ok) throw new Error(out.text);
      },
    });
    const modelProvider = createModelProvider(provider, {
      cwd: worktree,
      session_timeout: d.session_timeout,
      ...(o.env ? { env: o.env } : {}),
    });
    const model = agent?.model_id ?? config.supervisor.model_id;
    const scope = new SkillScope();
    const tools = agentToolSet({
      own,
      mcp: o.mcp,
      project_root: o.root,
      scope,
      provider: modelProvider,
      model,
      config,
      hooks,
      // Permissions and lifecycle hooks guard every call: built-ins, colony's, MCP tools, fork sub-agents'.
      wrap: (executor) =>
        guardTools(executor, {
          agent: name,
          permissions: permissionPolicyOf(config, name),
          asker: mailboxAsker({
            mailbox,
            ...askTimeout(o, agent?.permissions?.ask_timeout_secs),
            // The operator answers with a message to the agent: `allow` or `deny <why>` (operator-reply.ts).
            answer: operatorAnswer(o.mailbox.takeMessage),
            now: () => colony.clock.now(),
          }),
          hooks,
          log: (line) => o.log(name, line),
        }),
    });
    const budget = agent?.budget ?? d.budget;
    /** One relay per rate-limit episode (reset by a session that did not fail). */
    let relayed = false;
    return new AgentRunner({
      name,
      agent_prompt: agent?.prompt ?? config.supervisor.prompt,
      mode: agent?.mode ?? d.mode,
      model,
      provider: modelProvider,
      tools,
      hooks,
      mailbox,
      worktree,
      session_id: info.id,
      colony_session_id,
      db_path: info.db_path,
      agent_names: names,
      now: () => colony.clock.now(),
      environment: async () => ({
        platform: process.platform,
        os_version: release(),
        shell: process.env.SHELL ?? 'sh',
        cwd: worktree,
        git_status: (await gitRaw(['status', '--short'], { cwd: worktree })).stdout.trim(),
        recent_commits: (await gitRaw(['log', '--oneline', '-5'], { cwd: worktree })).stdout.trim(),
      }),
      ready_subtasks: () => readySubtasks(o.caller, colony_session_id, name, o.root),
      project_instructions: instructions,
      max_consecutive_errors: d.max_consecutive_errors,
      max_total_errors: d.max_total_errors,
      session_timeout_ms: d.session_timeout ? d.session_timeout * 1000 : null,
      liveness: d.liveness,
      budgets: [new BudgetMeter(budget, 'agent'), o.session_budget],
      onChange: o.onChange,
      log: (line) => o.log(name, line),
      // Re-joining the thread (task_thread) refreshes the session heartbeat and writes nothing else.
      heartbeat: async () => {
        await joinThread(o.caller, { repo_root: o.root, branch: info.base_branch, session_id: info.id, agent: name });
      },
      onSession: async (result, seq) => {
        scope.clear();
        o.log(name, `session ${seq} ended: ${result.outcome} (${result.reason}), ${result.tool_calls} tool calls`);
        if (result.error?.kind !== 'rate_limited') {
          if (result.outcome !== 'error') relayed = false;
          return;
        }
        if (relayed) return;
        relayed = true;
        const relay = await relayOnQuota(o, name, colony_session_id, result.reason);
        o.log(name, relay);
      },
    });
  });
}

async function readySubtasks(
  caller: ToolCaller,
  session_id: string,
  agent: string,
  repo_root: string,
): Promise<ReadySubtask[] | null> {
  const out = await caller.callTool('task_ready_for_agent', { session_id, agent, repo_root, auto_claim: false });
  if (!out.ok) return null;
  const ready = (out.value as { ready?: Record<string, unknown>[] }).ready ?? [];
  return ready.map((r) => ({
    plan_slug: String(r.plan_slug),
    subtask_index: Number(r.subtask_index),
    title: String(r.title),
    status: r.reason === 'continue_current_task' ? 'claimed' : 'available',
    file_scope: (r.file_scope as string[] | undefined) ?? [],
  }));
}

/**
 * A provider's quota or rate limit ran out: relay the agent's claimed sub-task (else the
 * session thread) with task_relay, so another agent can take it while this one backs off.
 */
async function relayOnQuota(o: BuildAgentsOptions, agent: string, session_id: string, reason: string): Promise<string> {
  const ready = await o.caller.callTool('task_ready_for_agent', {
    session_id,
    agent,
    repo_root: o.root,
    auto_claim: false,
  });
  const entries = ready.ok ? ((ready.value as { ready?: Record<string, unknown>[] }).ready ?? []) : [];
  const current = entries.find((e) => e.reason === 'continue_current_task' && typeof e.task_id === 'number');
  const task_id = (current?.task_id as number | undefined) ?? o.mailbox.task_id;
  const out = await o.caller.callTool('task_relay', {
    task_id,
    session_id,
    agent,
    reason: /quota/i.test(reason) ? 'quota' : 'rate_limit',
    one_line: `${agent} hit its provider's rate limit; take over ${current ? `${String(current.plan_slug)}/${String(current.subtask_index)}` : 'its work'}`,
    base_branch: o.info.base_branch,
    fetch_files_at: `colony/${o.info.id}/${agent}`,
  });
  return out.ok ? `relayed task ${task_id} (rate limited)` : `relay failed: ${out.text}`;
}

/**
 * @module prompt/prompt-context
 * Everything seed 003's `build_prompt()` reads, passed in as data: the PromptContext
 * fields, the EnvironmentInfo (git output is gathered by the caller: `git status
 * --short`, `git log --oneline -5`), the consumed messages, the ready plan sub-tasks
 * (colony plans replace beads) and the time. Assembly is then a pure function, fresh
 * at every BuildingPrompt, nothing cached.
 */
import type { ExecutionMode } from '../settings/schema.js';

export interface EnvironmentInfo {
  /** `process.platform`. */
  readonly platform: string;
  /** `os.release()` (the seed's `uname -r`). */
  readonly os_version: string;
  /** `$SHELL`. */
  readonly shell: string;
  /** The agent's worktree. */
  readonly cwd: string;
  /** `git status --short`. */
  readonly git_status: string;
  /** `git log --oneline -5`. */
  readonly recent_commits: string;
}

export interface PromptMessage {
  /** Sender's agent name, or `operator`. */
  readonly from: string;
  readonly body: string;
  /** Urgent (colony urgency `blocking`) messages are marked [URGENT]. */
  readonly urgent: boolean;
  /** Epoch ms. */
  readonly sent_at: number;
}

/** A claimable colony plan sub-task (from `task_ready_for_agent` with auto_claim false). */
export interface ReadySubtask {
  readonly plan_slug: string;
  readonly subtask_index: number;
  readonly title: string;
  /** `available`, or `claimed` for the one the agent already holds. */
  readonly status: string;
  readonly file_scope?: readonly string[];
}

export interface PromptContext {
  readonly agent_name: string;
  readonly agent_prompt: string;
  readonly mode: ExecutionMode | null;
  readonly session_id: string;
  readonly session_seq: number;
  /** colony's store path (the seed's mailbox database). */
  readonly db_path: string;
  readonly worktree_path: string;
  /** Every agent of the session. */
  readonly agent_names: readonly string[];
  /** The agent's colony session id: the `session_id` its colony tool calls pass. */
  readonly colony_session_id: string;
  /** Workflow stage context, when the agent runs inside a workflow. */
  readonly workflow_context?: string | null;
  /** Why the last session was interrupted, when it was. */
  readonly interrupt_context?: string | null;
  /** The project's AGENTS.md, when it exists. */
  readonly project_instructions?: string | null;
  readonly environment: EnvironmentInfo;
  /** Pending messages consumed for this prompt, oldest first. */
  readonly messages: readonly PromptMessage[];
  /** Ready plan sub-tasks; null when colony could not be asked (the section is left out). */
  readonly ready_subtasks?: readonly ReadySubtask[] | null;
  /** Epoch ms from the injected clock (message ages, the date line). */
  readonly now: number;
}

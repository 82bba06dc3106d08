/**
 * @module prompt/build-prompt
 * Seed 003's prompt pipeline: up to 14 numbered sections, each a small pure function of
 * the PromptContext that returns its text or null (left out). Order and conditions are
 * the seed's: 1 Identity, 2 Agent Role, 3 Mode Instructions (mode set), 4 Workflow
 * Context (in a workflow), 5 Project Instructions (AGENTS.md exists), 6 Core Mandates,
 * 7 Doing Tasks, 8 Tool Usage Policy, 9 Swarm Workflow, 10 Tone & Style, 11 Environment,
 * 12 Messages (any pending), 13 Available plan sub-tasks (colony plans replace beads;
 * when colony answered), 14 Session Context (with the Interrupt Context when
 * interrupted).
 */
import {
  CORE_MANDATES,
  DOING_TASKS,
  INTERRUPT_TEXT,
  MODE_INSTRUCTIONS,
  swarmWorkflow,
  TONE_AND_STYLE,
  TOOL_POLICY,
} from './fixed-sections.js';
import type { PromptContext, PromptMessage, ReadySubtask } from './prompt-context.js';

export interface PromptSection {
  readonly number: number;
  readonly id: string;
  readonly text: string;
}

type SectionFn = (ctx: PromptContext) => string | null;

export const identitySection: SectionFn = (ctx) =>
  `# Identity\n\nYou are ${ctx.agent_name}, one of ${ctx.agent_names.length} agents (${ctx.agent_names.join(', ')}) working in parallel on this repository, each in its own git worktree and branch, coordinated through colony.`;

export const roleSection: SectionFn = (ctx) => `# Your Role\n\n${ctx.agent_prompt.trim()}`;

export const modeSection: SectionFn = (ctx) =>
  ctx.mode ? `# Mode: ${ctx.mode}\n\n${MODE_INSTRUCTIONS[ctx.mode]}` : null;

export const workflowSection: SectionFn = (ctx) =>
  ctx.workflow_context?.trim() ? `# Workflow Context\n\n${ctx.workflow_context.trim()}` : null;

export const projectSection: SectionFn = (ctx) =>
  ctx.project_instructions?.trim() ? `# Project Instructions (AGENTS.md)\n\n${ctx.project_instructions.trim()}` : null;

export const mandatesSection: SectionFn = () => `# Core Mandates\n\n${CORE_MANDATES}`;
export const doingTasksSection: SectionFn = () => `# Doing Tasks\n\n${DOING_TASKS}`;
export const toolPolicySection: SectionFn = () => `# Tool Usage Policy\n\n${TOOL_POLICY}`;
export const swarmSection: SectionFn = (ctx) =>
  `# Swarm Workflow\n\n${swarmWorkflow(ctx.agent_name, ctx.colony_session_id, ctx.agent_names)}`;
export const toneSection: SectionFn = () => `# Tone & Style\n\n${TONE_AND_STYLE}`;

export const environmentSection: SectionFn = (ctx) => {
  const env = ctx.environment;
  const block = (text: string) => (text.trim() ? text.trimEnd() : '(none)');
  return [
    '# Environment',
    '',
    `- Platform: ${env.platform}`,
    `- OS version: ${env.os_version}`,
    `- Shell: ${env.shell || '(unknown)'}`,
    `- Working directory: ${env.cwd}`,
    `- Date: ${new Date(ctx.now).toISOString().slice(0, 10)}`,
    '',
    'git status --short:',
    block(env.git_status),
    '',
    'Recent commits (git log --oneline -5):',
    block(env.recent_commits),
  ].join('\n');
};

/** `2m ago`, `45s ago`, `3h ago`, `2d ago`. */
export function formatAge(sentAt: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - sentAt) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

export function formatMessage(message: PromptMessage, now: number): string {
  const head = `${message.urgent ? '[URGENT] ' : ''}From ${message.from} (${formatAge(message.sent_at, now)}):`;
  return `${head}\n${message.body.trim()}`;
}

export const messagesSection: SectionFn = (ctx) =>
  ctx.messages.length === 0
    ? null
    : ['## Messages from teammates', ...ctx.messages.map((m) => formatMessage(m, ctx.now))].join('\n\n');

export function formatSubtask(task: ReadySubtask): string {
  const files = task.file_scope?.length ? ` (files: ${task.file_scope.join(', ')})` : '';
  return `- ${task.plan_slug}/${task.subtask_index}: [${task.status}] ${task.title}${files}`;
}

export const subtasksSection: SectionFn = (ctx) => {
  if (!ctx.ready_subtasks) return null;
  const lines = ctx.ready_subtasks.map(formatSubtask);
  const claim = `Claim one with task_plan_claim_subtask { plan_slug, subtask_index, session_id: "${ctx.colony_session_id}", agent: "${ctx.agent_name}" }.`;
  return ['## Available Tasks (colony plans)', '', ...(lines.length ? [...lines, '', claim] : ['(none ready)'])].join(
    '\n',
  );
};

export const sessionSection: SectionFn = (ctx) => {
  const lines = [
    '# Session Context',
    '',
    `- Session id: ${ctx.session_id}`,
    `- Session sequence: ${ctx.session_seq}`,
    `- Worktree: ${ctx.worktree_path}`,
    `- colony store: ${ctx.db_path}`,
  ];
  if (ctx.interrupt_context != null) lines.push('', '## Interrupt Context', '', INTERRUPT_TEXT);
  return lines.join('\n');
};

/** The 14 sections in the seed's order. */
export const SECTIONS: ReadonlyArray<readonly [number, string, SectionFn]> = [
  [1, 'identity', identitySection],
  [2, 'role', roleSection],
  [3, 'mode', modeSection],
  [4, 'workflow', workflowSection],
  [5, 'project', projectSection],
  [6, 'mandates', mandatesSection],
  [7, 'doing-tasks', doingTasksSection],
  [8, 'tool-policy', toolPolicySection],
  [9, 'swarm-workflow', swarmSection],
  [10, 'tone', toneSection],
  [11, 'environment', environmentSection],
  [12, 'messages', messagesSection],
  [13, 'subtasks', subtasksSection],
  [14, 'session', sessionSection],
];

/** The sections that apply, in order. */
export function promptSections(ctx: PromptContext): PromptSection[] {
  return SECTIONS.flatMap(([number, id, fn]) => {
    const text = fn(ctx);
    return text === null ? [] : [{ number, id, text }];
  });
}

/** The whole system prompt. */
export function buildPrompt(ctx: PromptContext): string {
  return promptSections(ctx)
    .map((s) => s.text)
    .join('\n\n');
}

/**
 * @module batons/open-baton
 * Emitting a baton. A handoff names the files it transfers; a relay carries the
 * sender's fresh claims (never stale ones) and a worktree recipe, because its sender
 * may be gone. Either way the sender's claims on those files turn handoff_pending,
 * tied to the baton and expiring with it, in the transaction that writes the baton.
 */
import {
  editedFilesSince,
  insertBaton,
  type JsonObject,
  markClaimsPending,
  sessionClaims,
  type Task,
} from '@swarm/storage';
import { ColonyError, type TaskHandOffInput, type TaskRelayInput } from '@swarm/tools';
import { CLAIM_WEAK_AFTER_MS, claimAgeClass } from '../claims/age';
import { appendObservation, type DomainContext } from '../context';
import { normalizeRepoPath } from '../repo-paths';

const MINUTE = 60_000;
/** A relay's touched_files: the sender's edits on the task within this window. */
const TOUCHED_WINDOW_MS = CLAIM_WEAK_AFTER_MS;
const TOUCHED_SHOWN = 50;

export const FETCH_FILES_WARNING =
  'fetch_files_at omitted: files the sender left dirty or untracked are in no commit, so the receiver may need a human to recover them. Pass the commit holding the work when you can.';

/** Writes a handoff and its baton; the sender's live claims on transferred files wait on it. */
export async function openHandoff(
  ctx: DomainContext,
  task: Task,
  fromAgent: string,
  args: TaskHandOffInput,
): Promise<{ id: number; files: string[] }> {
  if (args.to_session_id === args.session_id) {
    throw new ColonyError('INVALID_PARAMETERS', 'to_session_id is your own session: hand off to someone else', {
      details: { fields: ['to_session_id'] },
    });
  }
  const files = [...new Set((args.transferred_files ?? []).map((f) => normalizeRepoPath(task.repoRoot, f)))];
  const now = ctx.clock.now();
  const expiresAt = now + args.expires_in_minutes * MINUTE;
  const payload = { next_steps: args.next_steps ?? [], blockers: args.blockers ?? [], transferred_files: files };
  const id = await appendObservation(ctx, {
    sessionId: args.session_id,
    taskId: task.id,
    kind: 'handoff',
    content: handoffBody(args, files),
    metadata: { to_agent: args.to_agent, to_session_id: args.to_session_id ?? null, expires_at: expiresAt, ...payload },
  });
  await insertBaton(ctx.store, {
    id,
    taskId: task.id,
    kind: 'handoff',
    fromSessionId: args.session_id,
    fromAgent,
    toAgent: args.to_agent,
    toSessionId: args.to_session_id ?? null,
    summary: args.summary,
    payload,
    createdAt: now,
    expiresAt,
  });
  const wanted = new Set(files);
  const claims = await sessionClaims(ctx.store, task.id, args.session_id, ['active', 'handoff_pending']);
  await markClaimsPending(
    ctx.store,
    claims.filter((c) => wanted.has(c.filePath)).map((c) => c.id),
    id,
    expiresAt,
  );
  return { id, files };
}

function handoffBody(args: TaskHandOffInput, files: readonly string[]): string {
  const list = (title: string, items: readonly string[]) =>
    items.length === 0 ? [] : [`${title}:`, ...items.map((i) => `- ${i}`)];
  return [
    args.summary,
    ...list('Next steps', args.next_steps ?? []),
    ...list('Blockers', args.blockers ?? []),
    ...list('Files', files),
  ].join('\n');
}

/** How the receiver of a relay gets to the sender's work. */
export interface WorktreeRecipe extends JsonObject {
  repo_root: string;
  base_branch: string;
  branch: string;
  fetch_files_at: string | null;
  claimed_files: string[];
  touched_files: string[];
  steps: string[];
}

/** A relay's arguments. A rescue relays on behalf of a stranded session, with reason `stranded`. */
export type RelayArgs = Omit<TaskRelayInput, 'reason'> & { readonly reason: TaskRelayInput['reason'] | 'stranded' };

/**
 * Writes a relay and its baton; the sender's fresh active claims wait on it. With
 * `heartbeat: false` the relay is no sign of life of the sender (a rescue writes it).
 */
export async function openRelay(
  ctx: DomainContext,
  task: Task,
  fromAgent: string,
  args: RelayArgs,
  options: { readonly heartbeat?: boolean } = {},
): Promise<{ id: number; warning?: string }> {
  const now = ctx.clock.now();
  const expiresAt = now + args.expires_in_minutes * MINUTE;
  const fresh = (await sessionClaims(ctx.store, task.id, args.session_id, ['active'])).filter(
    (c) => claimAgeClass(c, now) === 'fresh',
  );
  const files = fresh.map((c) => c.filePath);
  const touched = (await editedFilesSince(ctx.store, task.id, args.session_id, now - TOUCHED_WINDOW_MS))
    .slice(0, TOUCHED_SHOWN)
    .map((e) => e.filePath);
  const recipe = worktreeRecipe(task, args, files, touched);
  const payload = {
    reason: args.reason,
    one_line: args.one_line,
    base_branch: args.base_branch,
    fetch_files_at: args.fetch_files_at ?? null,
    transferred_files: files,
    worktree_recipe: recipe,
  };
  const id = await appendObservation(ctx, {
    sessionId: args.session_id,
    taskId: task.id,
    kind: 'relay',
    content: relayBody(args, recipe),
    metadata: { to_agent: args.to_agent, expires_at: expiresAt, ...payload },
    heartbeat: options.heartbeat !== false,
  });
  await insertBaton(ctx.store, {
    id,
    taskId: task.id,
    kind: 'relay',
    fromSessionId: args.session_id,
    fromAgent,
    toAgent: args.to_agent,
    summary: args.one_line,
    payload,
    createdAt: now,
    expiresAt,
  });
  await markClaimsPending(
    ctx.store,
    fresh.map((c) => c.id),
    id,
    expiresAt,
  );
  return args.fetch_files_at === undefined ? { id, warning: FETCH_FILES_WARNING } : { id };
}

export function worktreeRecipe(
  task: Task,
  args: Pick<TaskRelayInput, 'base_branch' | 'fetch_files_at'>,
  claimed: string[],
  touched: string[],
): WorktreeRecipe {
  const ref = args.fetch_files_at ?? task.branch;
  const dir = `.colony/worktrees/${task.branch.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
  return {
    repo_root: task.repoRoot,
    base_branch: args.base_branch,
    branch: task.branch,
    fetch_files_at: args.fetch_files_at ?? null,
    claimed_files: claimed,
    touched_files: touched,
    steps: [
      `git -C ${task.repoRoot} fetch --all --prune`,
      `git -C ${task.repoRoot} worktree add --detach ${dir} ${ref}`,
      `cd ${dir} && git diff ${args.base_branch}...HEAD --stat`,
      args.fetch_files_at
        ? `The work is committed at ${args.fetch_files_at}: switch to a branch of your own there and merge it back into ${task.branch}.`
        : `No commit named: take the sender's latest push of ${task.branch}, and ask a human about uncommitted files.`,
      'Accept with task_accept_relay (it claims claimed_files for you), then review touched_files before editing.',
    ],
  };
}

function relayBody(args: RelayArgs, recipe: WorktreeRecipe): string {
  return [
    `relay (${args.reason}): ${args.one_line}`,
    `base_branch: ${recipe.base_branch}; branch: ${recipe.branch}; fetch_files_at: ${recipe.fetch_files_at ?? 'none'}`,
    `claimed_files: ${recipe.claimed_files.join(', ') || 'none'}`,
    `touched_files: ${recipe.touched_files.join(', ') || 'none'}`,
    'steps:',
    ...recipe.steps.map((s, i) => `${i + 1}. ${s}`),
  ].join('\n');
}

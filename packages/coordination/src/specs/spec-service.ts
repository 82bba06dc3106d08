/**
 * @module specs/spec-service
 * OpenSpec on colony: the root SPEC.md of a repository, spec changes (open, add
 * deltas, archive with a three-way merge) and the auto-archive of a plan's change when
 * its last sub-task completes. Plans publish through `openChange` and finish through
 * `autoArchive`; the spec tools call the same methods.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countSpecFailure, findTask, setSpecFailureProposal } from '@swarm/storage';
import {
  ColonyError,
  type OpenspecSyncStatusInput,
  type RecordFailureResult,
  type SpecArchiveInput,
  type SpecArchiveResult,
  type SpecBackend,
  type SpecBuildContextInput,
  type SpecBuildRecordFailureInput,
  type SpecChangeAddDeltaInput,
  type SpecChangeOpenInput,
  type SpecChangeOpenResult,
  type SpecConflictEntry,
  type SpecContextResult,
  type SpecReadInput,
  type SpecReadResult,
  type SyncStatusResult,
} from '@swarm/tools';
import { withBudget } from '../budget';
import { appendObservation, type DomainContext } from '../context';
import { ProposalService } from '../proposals/proposal-service';
import { compactLine } from '../tasks/post-routing';
import { TaskService } from '../tasks/task-service';
import {
  type AddDeltaOptions,
  type ArchiveOptions,
  type OpenChangeOptions,
  SpecChanges,
  specBranch,
} from './spec-changes';
import { readSpec, taskContext } from './spec-context';
import { failureSignature, shortSignature, testFileOf, upsertFailureDelta } from './spec-failures';
import { confine, nodeFileOps, type SpecFileOps, specPaths } from './spec-files';
import { syncStatus } from './spec-sync';

export const SPEC_FAILURE_KIND = 'spec-failure';
export const PLAN_ARCHIVED_KIND = 'plan-archived';
export const PLAN_ARCHIVE_BLOCKED_KIND = 'plan-archive-blocked';
export const PLAN_ARCHIVE_ERROR_KIND = 'plan-archive-error';
export const PLAN_ARCHIVE_SKIPPED_KIND = 'plan-archive-skipped';

/** What task_plan_complete_subtask reports as `auto_archive`. */
export interface AutoArchiveOutcome {
  status: 'archived' | 'blocked' | 'error' | 'skipped';
  reason?: string;
  archived_path?: string;
  merged_root_hash?: string;
  applied?: number;
  conflicts?: SpecConflictEntry[];
}

export interface AutoArchiveOptions {
  readonly repoRoot: string;
  readonly slug: string;
  /** The session whose completion triggered the archive. */
  readonly sessionId: string;
  readonly agent: string;
}

export interface SpecServiceOptions {
  /** File operations (default node:fs); tests inject failures here. */
  readonly fs?: SpecFileOps;
  readonly tasks?: TaskService;
  /** Where repeated build failures are proposed as invariants. */
  readonly proposals?: ProposalService;
}

export class SpecService implements SpecBackend {
  readonly #ctx: DomainContext;
  readonly #changes: SpecChanges;
  readonly #tasks: TaskService;
  readonly #proposals: ProposalService;
  readonly #fs: SpecFileOps;

  constructor(ctx: DomainContext, options: SpecServiceOptions = {}) {
    this.#ctx = ctx;
    this.#fs = options.fs ?? nodeFileOps;
    this.#tasks = options.tasks ?? new TaskService(ctx);
    this.#proposals = options.proposals ?? new ProposalService(ctx);
    this.#changes = new SpecChanges(ctx, this.#tasks, this.#fs);
  }

  // The tools (snake_case arguments, contract answers).

  read(args: SpecReadInput): SpecReadResult {
    return readSpec(this.#rootText(args.repo_root));
  }

  buildContext(args: SpecBuildContextInput): SpecContextResult {
    const context = taskContext(this.#rootText(args.repo_root), args.task_id);
    if (!context) {
      throw new ColonyError('SPEC_TASK_NOT_FOUND', `no task ${args.task_id}`, { details: { task_id: args.task_id } });
    }
    return context;
  }

  async syncStatus(args: OpenspecSyncStatusInput): Promise<SyncStatusResult> {
    const ctx = this.#ctx;
    const status = await ctx.store.read(() =>
      syncStatus({
        store: ctx.store,
        fs: this.#fs,
        paths: specPaths(args.repo_root, ctx.roots),
        now: ctx.clock.now(),
        staleAfterHours: args.stale_after_hours,
        limit: args.limit,
      }),
    );
    return withBudget(
      status,
      {
        available: status.total,
        returned: status.drift.length,
        hydrate_with: 'openspec_sync_status',
        why_collapsed: `First ${args.limit} drift rows, by kind: raise limit for the rest.`,
      },
      ctx.tokens,
    );
  }

  changeOpen(args: SpecChangeOpenInput): Promise<SpecChangeOpenResult> {
    return this.openChange({
      repoRoot: args.repo_root,
      slug: args.slug,
      sessionId: args.session_id,
      agent: args.agent,
      proposal: args.proposal,
    });
  }

  changeAddDelta(args: SpecChangeAddDeltaInput): Promise<{ delta_count: number }> {
    return this.addDelta({
      repoRoot: args.repo_root,
      slug: args.slug,
      sessionId: args.session_id,
      op: args.op,
      target: args.target,
      cells: args.row_cells,
    });
  }

  async archiveChange(args: SpecArchiveInput): Promise<SpecArchiveResult> {
    const result = await this.archive({
      repoRoot: args.repo_root,
      slug: args.slug,
      sessionId: args.session_id,
      agent: args.agent,
      strategy: args.strategy,
    });
    if (result.status === 'refused') {
      throw new ColonyError(
        'SPEC_ARCHIVE_CONFLICT',
        `spec change "${args.slug}" conflicts with SPEC.md in ${result.conflicts.length} place(s): nothing written`,
        { details: { ...result } },
      );
    }
    return result;
  }

  buildRecordFailure(args: SpecBuildRecordFailureInput): Promise<RecordFailureResult> {
    const ctx = this.#ctx;
    const signatureHash = failureSignature(args.test_id, args.error);
    const summary = args.error_summary ?? compactLine(args.error, 120);
    return ctx.store.write(async () => {
      const open = this.#changes.read(args.repo_root, args.slug);
      const root = open.paths.root;
      const taskId = (
        await this.#tasks.thread({
          repo_root: root,
          branch: specBranch(open.slug),
          session_id: args.session_id,
          agent: args.agent,
        })
      ).task_id;
      const row = await countSpecFailure(
        ctx.store,
        { repoRoot: root, signatureHash, testId: args.test_id, summary },
        ctx.clock.now(),
      );
      await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId,
        kind: SPEC_FAILURE_KIND,
        content: `${args.test_id} failed (${row.count}x): ${args.error}${args.stack ? `\n\n${args.stack}` : ''}`,
        metadata: { slug: open.slug, test_id: args.test_id, signature_hash: signatureHash, match_count: row.count },
      });
      let action: RecordFailureResult['action'] = 'logged';
      let proposalId = row.proposalId;
      if (proposalId !== null) action = 'duplicate';
      else if (row.count >= args.promote_after) {
        proposalId = (
          await this.#proposals.proposeWith({
            repoRoot: root,
            branch: specBranch(open.slug),
            summary: compactLine(`Invariant: ${summary}`, 200),
            rationale: compactLine(`${args.test_id} failed ${row.count} times: ${args.error}`, 2000),
            touchesFiles: touchedTestFile(root, args.test_id),
            sessionId: args.session_id,
            metadata: { signature_hash: signatureHash, spec_slug: open.slug },
          })
        ).proposal_id;
        await setSpecFailureProposal(ctx.store, root, signatureHash, proposalId);
        action = 'promoted';
      }
      const cells = [shortSignature(signatureHash), args.test_id, String(row.count), summary];
      this.#changes.replaceDeltas(open, upsertFailureDelta(open.base, open.change.deltas, cells));
      return { action, signature_hash: signatureHash, match_count: row.count, proposal_id: proposalId };
    });
  }

  #rootText(repoRoot: string): string {
    const paths = specPaths(repoRoot, this.#ctx.roots);
    const text = this.#fs.readFile(confine(paths.root, paths.spec));
    if (text === null) {
      throw new ColonyError('SPEC_NOT_FOUND', `no SPEC.md in ${paths.root}`, { details: { repo_root: paths.root } });
    }
    return text;
  }

  // The library API (plans publish and auto-archive through these).

  /** Opens a spec change: openspec/changes/<slug>/CHANGE.md and the `spec/<slug>` thread, joined. */
  openChange(opts: OpenChangeOptions): Promise<SpecChangeOpenResult> {
    return this.#changes.openChange(opts);
  }

  /** Appends one delta row to an open change; returns the running total. */
  addDelta(opts: AddDeltaOptions): Promise<{ delta_count: number }> {
    return this.#changes.addDelta(opts);
  }

  /** Validates, three-way merges and archives a change (see SpecChanges.archive). */
  archive(opts: ArchiveOptions): Promise<SpecArchiveResult> {
    return this.#changes.archive(opts);
  }

  /**
   * The auto-archive after a plan's last sub-task completed: a three_way archive whose
   * outcome is recorded on the change's task thread as plan-archived,
   * plan-archive-blocked (conflicts; the change stays open) or plan-archive-error (the
   * archive threw; nothing was written). Never throws. Call it after the completion's
   * own transaction has committed.
   */
  async autoArchive(opts: AutoArchiveOptions): Promise<AutoArchiveOutcome> {
    let outcome: AutoArchiveOutcome;
    try {
      const result = await this.#changes.archive({ ...opts, strategy: 'three_way' });
      outcome =
        result.status === 'archived'
          ? {
              status: 'archived',
              archived_path: result.archived_path ?? '',
              merged_root_hash: result.merged_root_hash ?? '',
              applied: result.applied,
            }
          : {
              status: 'blocked',
              reason: `three-way merge has ${result.conflicts.length} conflicts: resolve by hand, then call spec_archive`,
              conflicts: result.conflicts,
            };
    } catch (error) {
      outcome = { status: 'error', reason: (error as Error).message };
    }
    await this.#recordAutoArchive(opts, outcome);
    return outcome;
  }

  /** Records an auto-archive that did not run (disabled, sub-tasks outstanding, no parent). */
  async skipAutoArchive(opts: AutoArchiveOptions & { readonly reason: string }): Promise<AutoArchiveOutcome> {
    const outcome: AutoArchiveOutcome = { status: 'skipped', reason: opts.reason };
    await this.#recordAutoArchive(opts, outcome);
    return outcome;
  }

  async #recordAutoArchive(opts: AutoArchiveOptions, outcome: AutoArchiveOutcome): Promise<void> {
    const kind = {
      archived: PLAN_ARCHIVED_KIND,
      blocked: PLAN_ARCHIVE_BLOCKED_KIND,
      error: PLAN_ARCHIVE_ERROR_KIND,
      skipped: PLAN_ARCHIVE_SKIPPED_KIND,
    }[outcome.status];
    try {
      const ctx = this.#ctx;
      await ctx.store.write(async () => {
        const task = await findTask(ctx.store, specPaths(opts.repoRoot).root, specBranch(opts.slug));
        if (!task) return;
        await appendObservation(ctx, {
          sessionId: opts.sessionId,
          taskId: task.id,
          kind,
          content: `auto-archive of ${opts.slug}: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`,
          metadata: {
            slug: opts.slug,
            status: outcome.status,
            reason: outcome.reason ?? null,
            archived_path: outcome.archived_path ?? null,
            merged_root_hash: outcome.merged_root_hash ?? null,
            conflicts: outcome.conflicts?.length ?? 0,
          },
        });
      });
    } catch {
      // The record is bookkeeping; the outcome is still answered.
    }
  }
}

/** The test's file, when the test id names a file inside the repository. */
function touchedTestFile(root: string, testId: string): string[] {
  const file = testFileOf(testId);
  if (!file || file.startsWith('/') || file.split('/').includes('..')) return [];
  return existsSync(join(root, file)) ? [file] : [];
}

/**
 * @module specs/spec-service
 * OpenSpec on colony: the root SPEC.md of a repository, spec changes (open, add
 * deltas, archive with a three-way merge) and the auto-archive of a plan's change when
 * its last sub-task completes. Plans publish through `openChange` and finish through
 * `autoArchive`; the spec tools call the same methods.
 */
import { findTask } from '@swarm/storage';
import type { SpecArchiveResult, SpecChangeOpenResult, SpecConflictEntry } from '@swarm/tools';
import { appendObservation, type DomainContext } from '../context';
import { TaskService } from '../tasks/task-service';
import {
  type AddDeltaOptions,
  type ArchiveOptions,
  type OpenChangeOptions,
  SpecChanges,
  specBranch,
} from './spec-changes';
import { nodeFileOps, type SpecFileOps, specPaths } from './spec-files';

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
}

export class SpecService {
  readonly #ctx: DomainContext;
  readonly #changes: SpecChanges;

  constructor(ctx: DomainContext, options: SpecServiceOptions = {}) {
    this.#ctx = ctx;
    this.#changes = new SpecChanges(ctx, options.tasks ?? new TaskService(ctx), options.fs ?? nodeFileOps);
  }

  /** Opens a spec change: openspec/changes/<slug>/CHANGE.md and the `spec/<slug>` thread, joined. */
  openChange(opts: OpenChangeOptions): SpecChangeOpenResult {
    return this.#changes.openChange(opts);
  }

  /** Appends one delta row to an open change; returns the running total. */
  addDelta(opts: AddDeltaOptions): { delta_count: number } {
    return this.#changes.addDelta(opts);
  }

  /** Validates, three-way merges and archives a change (see SpecChanges.archive). */
  archive(opts: ArchiveOptions): SpecArchiveResult {
    return this.#changes.archive(opts);
  }

  /**
   * The auto-archive after a plan's last sub-task completed: a three_way archive whose
   * outcome is recorded on the change's task thread as plan-archived,
   * plan-archive-blocked (conflicts; the change stays open) or plan-archive-error (the
   * archive threw; nothing was written). Never throws. Call it after the completion's
   * own transaction has committed.
   */
  autoArchive(opts: AutoArchiveOptions): AutoArchiveOutcome {
    let outcome: AutoArchiveOutcome;
    try {
      const result = this.#changes.archive({ ...opts, strategy: 'three_way' });
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
    this.#recordAutoArchive(opts, outcome);
    return outcome;
  }

  /** Records an auto-archive that did not run (disabled, sub-tasks outstanding, no parent). */
  skipAutoArchive(opts: AutoArchiveOptions & { readonly reason: string }): AutoArchiveOutcome {
    const outcome: AutoArchiveOutcome = { status: 'skipped', reason: opts.reason };
    this.#recordAutoArchive(opts, outcome);
    return outcome;
  }

  #recordAutoArchive(opts: AutoArchiveOptions, outcome: AutoArchiveOutcome): void {
    const kind = {
      archived: PLAN_ARCHIVED_KIND,
      blocked: PLAN_ARCHIVE_BLOCKED_KIND,
      error: PLAN_ARCHIVE_ERROR_KIND,
      skipped: PLAN_ARCHIVE_SKIPPED_KIND,
    }[outcome.status];
    try {
      const ctx = this.#ctx;
      ctx.store.write(() => {
        const task = findTask(ctx.store, specPaths(opts.repoRoot).root, specBranch(opts.slug));
        if (!task) return;
        appendObservation(ctx, {
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

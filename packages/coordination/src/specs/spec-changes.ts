/**
 * @module specs/spec-changes
 * Spec changes: open one (CHANGE.md, a copy of the base SPEC.md and the `spec/<slug>`
 * task thread), add deltas to it, and archive it: deltas applied to the base,
 * three-way merged with the current root, the root written and the change moved to
 * openspec/archive/ together or not at all.
 *
 * Every step runs inside `store.write` and first locks the repository's spec scope
 * (`lockWriteScope`: SQLite's BEGIN IMMEDIATE already, a lock of its own on PostgreSQL,
 * whose writers run side by side), which serialises changes to one repository's spec
 * files across processes as well as the rows and observations they come with. File
 * writes go to a temporary file first and land by rename; a failure restores what was
 * renamed, then the transaction rolls back.
 */
import { dirname, join } from 'node:path';
import { findTask, lockWriteScope } from '@swarm/storage';
import { ColonyError, type SpecArchiveResult, type SpecChangeOpenResult, type SpecConflictEntry } from '@swarm/tools';
import { appendObservation, type DomainContext, requireParticipant } from '../context';
import type { TaskService } from '../tasks/task-service';
import { type ChangeDocument, parseChange, writeChange } from './change-format';
import { applyDeltas, checkDelta, DeltaError, type DeltaOp, type SpecDelta } from './spec-deltas';
import {
  archiveName,
  confine,
  nodeFileOps,
  requireSlug,
  type SpecFileOps,
  type SpecPaths,
  specPaths,
} from './spec-files';
import { rootHash } from './spec-format';
import { mergeSpec } from './spec-merge';

export const SPEC_CHANGE_OPEN_KIND = 'spec-change-open';
export const SPEC_DELTA_KIND = 'spec-delta';
export const SPEC_ARCHIVE_KIND = 'spec-archive';

export const ARCHIVE_STRATEGIES = ['three_way', 'refuse_on_conflict', 'last_writer_wins'] as const;
export type ArchiveStrategy = (typeof ARCHIVE_STRATEGIES)[number];

/** The task-thread branch of a spec change. */
export function specBranch(slug: string): string {
  return `spec/${slug}`;
}

export interface OpenChangeOptions {
  readonly repoRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly proposal: string;
  /** Title of the task thread (default `Spec change: <slug>`). */
  readonly title?: string;
}

export interface AddDeltaOptions {
  readonly repoRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly op: DeltaOp;
  /** A row id like `V.3` or `T12`. */
  readonly target: string;
  /** The row's cells after the id; ignored for remove. */
  readonly cells?: readonly string[];
}

export interface ArchiveOptions {
  readonly repoRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly strategy?: ArchiveStrategy;
}

/** An open change as read from disk. */
export interface OpenChange {
  readonly paths: SpecPaths;
  readonly slug: string;
  readonly change: ChangeDocument;
  /** SPEC.md as the change opened on ('' when there was none). */
  readonly base: string;
}

export class SpecChanges {
  readonly #ctx: DomainContext;
  readonly #tasks: TaskService;
  readonly #fs: SpecFileOps;

  constructor(ctx: DomainContext, tasks: TaskService, fs: SpecFileOps = nodeFileOps) {
    this.#ctx = ctx;
    this.#tasks = tasks;
    this.#fs = fs;
  }

  /** Creates openspec/changes/<slug>/ and opens or joins the `spec/<slug>` thread. */
  openChange(opts: OpenChangeOptions): Promise<SpecChangeOpenResult> {
    const slug = requireSlug(opts.slug);
    const paths = specPaths(opts.repoRoot, this.#ctx.roots);
    const dir = confine(paths.root, paths.changeDir(slug));
    confine(paths.root, paths.spec);
    const fs = this.#fs;
    return this.#ctx.store.write(async () => {
      await lockWriteScope(this.#ctx.store, specScope(paths.root));
      if (fs.exists(dir)) {
        throw new ColonyError('SPEC_CHANGE_EXISTS', `spec change "${slug}" is already open at ${dir}`, {
          details: { slug, path: paths.changeFile(slug) },
        });
      }
      const thread = await this.#join(paths.root, slug, opts.sessionId, opts.agent, opts.title);
      const base = fs.readFile(paths.spec) ?? '';
      const baseRootHash = rootHash(base);
      await appendObservation(this.#ctx, {
        sessionId: opts.sessionId,
        taskId: thread,
        kind: SPEC_CHANGE_OPEN_KIND,
        content: `opened spec change ${slug}: ${opts.proposal}`,
        metadata: { slug, base_root_hash: baseRootHash, path: paths.changeFile(slug) },
      });
      const change: ChangeDocument = {
        slug,
        baseRootHash,
        taskId: thread,
        openedBy: `${opts.agent} (${opts.sessionId})`,
        openedAt: new Date(this.#ctx.clock.now()).toISOString(),
        proposal: opts.proposal,
        deltas: [],
      };
      try {
        fs.mkdir(dir);
        fs.writeFile(paths.baseFile(slug), base);
        writeAtomically(fs, paths.changeFile(slug), writeChange(change));
      } catch (error) {
        fs.remove(dir);
        throw ioError(`spec change "${slug}" not created`, error);
      }
      return { task_id: thread, path: paths.changeFile(slug), base_root_hash: baseRootHash };
    });
  }

  /** Appends a delta row; it must apply to the base with the deltas before it. Returns the running total. */
  addDelta(opts: AddDeltaOptions): Promise<{ delta_count: number }> {
    const delta = toDelta(opts.op, opts.target, opts.cells ?? []);
    return this.#ctx.store.write(async () => {
      await lockWriteScope(this.#ctx.store, specScope(specPaths(opts.repoRoot, this.#ctx.roots).root));
      const open = this.read(opts.repoRoot, opts.slug);
      const task = await findTask(this.#ctx.store, open.paths.root, specBranch(open.slug));
      if (!task) {
        throw new ColonyError('SPEC_CHANGE_NOT_FOUND', `spec change "${open.slug}" has no task thread`, {
          details: { slug: open.slug },
        });
      }
      await requireParticipant(this.#ctx, task, opts.sessionId);
      const deltas = [...open.change.deltas, delta];
      applyOrThrow(open.base, deltas);
      await appendObservation(this.#ctx, {
        sessionId: opts.sessionId,
        taskId: task.id,
        kind: SPEC_DELTA_KIND,
        content: `${delta.op} ${delta.target}${delta.cells.length ? `: ${delta.cells.join(' | ')}` : ''}`,
        metadata: { slug: open.slug, op: delta.op, target: delta.target, cells: [...delta.cells] },
      });
      this.#writeChange(open, { ...open.change, deltas });
      return { delta_count: deltas.length };
    });
  }

  /** Replaces the deltas of a change (used for §B rows that are updated in place). */
  replaceDeltas(open: OpenChange, deltas: readonly SpecDelta[]): void {
    applyOrThrow(open.base, deltas);
    this.#writeChange(open, { ...open.change, deltas: [...deltas] });
  }

  /**
   * Validates, merges and archives a change. Conflicts are values: `conflict` under
   * three_way, `refused` under refuse_on_conflict (nothing written either way);
   * last_writer_wins takes the change's side of every conflicting hunk.
   */
  archive(opts: ArchiveOptions): Promise<SpecArchiveResult> {
    const strategy = opts.strategy ?? 'three_way';
    const fs = this.#fs;
    return this.#ctx.store.write(async () => {
      await lockWriteScope(this.#ctx.store, specScope(specPaths(opts.repoRoot, this.#ctx.roots).root));
      const open = this.read(opts.repoRoot, opts.slug);
      const { paths, slug } = open;
      confine(paths.root, paths.spec);
      const archiveDir = confine(paths.root, this.#archiveDir(paths, slug));
      const current = fs.readFile(paths.spec);
      const proposed = applyOrThrow(open.base, open.change.deltas);
      const merged = mergeSpec(open.base, current ?? '', proposed);
      const conflicts: SpecConflictEntry[] = merged.conflicts.map((c) => ({ ...c }));
      if (conflicts.length > 0 && strategy !== 'last_writer_wins') {
        const status = strategy === 'refuse_on_conflict' ? 'refused' : 'conflict';
        return { status, archived_path: null, merged_root_hash: null, conflicts, applied: 0 };
      }
      const mergedHash = rootHash(merged.text);
      const thread = await this.#join(paths.root, slug, opts.sessionId, opts.agent);
      await appendObservation(this.#ctx, {
        sessionId: opts.sessionId,
        taskId: thread,
        kind: SPEC_ARCHIVE_KIND,
        content: `archived spec change ${slug} (${open.change.deltas.length} deltas, ${strategy}${
          conflicts.length ? `, ${conflicts.length} conflicts taken from the change` : ''
        })`,
        metadata: {
          slug,
          strategy,
          archived_path: archiveDir,
          merged_root_hash: mergedHash,
          applied: open.change.deltas.length,
          conflicts: conflicts.length,
        },
      });
      commitArchive(fs, { spec: paths.spec, changeDir: paths.changeDir(slug), archiveDir, merged: merged.text });
      return {
        status: 'archived',
        archived_path: archiveDir,
        merged_root_hash: mergedHash,
        conflicts,
        applied: open.change.deltas.length,
      };
    });
  }

  /** Reads an open change; SPEC_CHANGE_NOT_FOUND when it is missing or unreadable. */
  read(repoRoot: string, slug: string): OpenChange {
    const safe = requireSlug(slug);
    const paths = specPaths(repoRoot, this.#ctx.roots);
    confine(paths.root, paths.changeDir(safe));
    const text = this.#fs.readFile(paths.changeFile(safe));
    const change = text === null ? null : parseChange(text);
    if (!change) {
      throw new ColonyError('SPEC_CHANGE_NOT_FOUND', `no open spec change "${safe}" (${paths.changeFile(safe)})`, {
        details: { slug: safe },
      });
    }
    let base = this.#fs.readFile(paths.baseFile(safe));
    if (base === null) {
      // A change written by hand may lack the base copy: the root still at the base hash is the base.
      const root = this.#fs.readFile(paths.spec) ?? '';
      if (rootHash(root) !== change.baseRootHash) {
        throw new ColonyError(
          'SPEC_CHANGE_NOT_FOUND',
          `spec change "${safe}" has no base.SPEC.md and SPEC.md has moved since base ${change.baseRootHash}`,
          { details: { slug: safe } },
        );
      }
      base = root;
    }
    return { paths, slug: safe, change, base };
  }

  async #join(root: string, slug: string, sessionId: string, agent: string, title?: string): Promise<number> {
    return (
      await this.#tasks.thread({
        repo_root: root,
        branch: specBranch(slug),
        session_id: sessionId,
        agent,
        title: title ?? `Spec change: ${slug}`,
      })
    ).task_id;
  }

  #archiveDir(paths: SpecPaths, slug: string): string {
    const name = archiveName(slug, this.#ctx.clock.now());
    let dir = join(paths.archive, name);
    for (let n = 2; this.#fs.exists(dir); n++) dir = join(paths.archive, `${name}-${n}`);
    return dir;
  }

  #writeChange(open: OpenChange, change: ChangeDocument): void {
    try {
      writeAtomically(this.#fs, open.paths.changeFile(open.slug), writeChange(change));
    } catch (error) {
      throw ioError(`CHANGE.md of "${open.slug}" not written`, error);
    }
  }
}

function toDelta(op: DeltaOp, target: string, cells: readonly string[]): SpecDelta {
  try {
    return checkDelta(op, target, cells);
  } catch (error) {
    if (error instanceof DeltaError) {
      throw new ColonyError('INVALID_PARAMETERS', error.message, {
        details: { fields: [error.problem === 'cells' ? 'row_cells' : 'target'], target },
      });
    }
    throw error;
  }
}

/** The base with the deltas applied; a delta that no longer fits is SPEC_ROW_EXISTS or SPEC_ROW_NOT_FOUND. */
function applyOrThrow(base: string, deltas: readonly SpecDelta[]): string {
  try {
    return applyDeltas(base, deltas);
  } catch (error) {
    if (error instanceof DeltaError) {
      const code = error.problem === 'exists' ? 'SPEC_ROW_EXISTS' : 'SPEC_ROW_NOT_FOUND';
      throw new ColonyError(code, `${error.message} in the change's base SPEC.md`, {
        details: { target: error.target },
      });
    }
    throw error;
  }
}

/** Writes through a temporary file and a rename, so readers never see half a file. */
function writeAtomically(fs: SpecFileOps, path: string, data: string): void {
  const tmp = `${path}.tmp`;
  fs.writeFile(tmp, data);
  try {
    fs.rename(tmp, path);
  } catch (error) {
    fs.remove(tmp);
    throw error;
  }
}

interface ArchiveWrite {
  readonly spec: string;
  readonly changeDir: string;
  readonly archiveDir: string;
  readonly merged: string;
}

/**
 * The root write and the move to the archive, both or neither: the merged root is
 * staged in a temporary file, the change folder is renamed into the archive, then the
 * staged root is renamed over SPEC.md. A failure of the last step moves the folder back.
 */
function commitArchive(fs: SpecFileOps, w: ArchiveWrite): void {
  const staged = `${w.spec}.archive.tmp`;
  try {
    fs.mkdir(dirname(w.archiveDir));
    fs.writeFile(staged, w.merged);
  } catch (error) {
    fs.remove(staged);
    throw ioError('archive not written', error);
  }
  try {
    fs.rename(w.changeDir, w.archiveDir);
  } catch (error) {
    fs.remove(staged);
    throw ioError('archive not written', error);
  }
  try {
    fs.rename(staged, w.spec);
  } catch (error) {
    try {
      fs.rename(w.archiveDir, w.changeDir);
    } finally {
      fs.remove(staged);
    }
    throw ioError('archive not written (the change stays open)', error);
  }
}

function ioError(what: string, error: unknown): ColonyError {
  return new ColonyError('INTERNAL_ERROR', `${what}: ${(error as Error).message}`, { cause: error });
}

/** The write scope of a repository's spec files (see lockWriteScope). */
export const specScope = (root: string): string => `spec:${root}`;

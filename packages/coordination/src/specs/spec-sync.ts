/**
 * @module specs/spec-sync
 * openspec_sync_status: where the task threads of spec changes and the durable files
 * under openspec/ disagree, each with the exact call that repairs it (or null when
 * only a person can). Read-only.
 */
import { join } from 'node:path';
import { type ColonyStore, findTask, listTasks, type Task, taskTimeline } from '@swarm/storage';
import type { SyncDriftKind, SyncDriftRow, SyncStatusResult } from '@swarm/tools';
import { parseChange } from './change-format';
import { SPEC_ARCHIVE_KIND, specBranch } from './spec-changes';
import { CHANGE_FILE, SLUG, type SpecFileOps, type SpecPaths } from './spec-files';
import { rootHash } from './spec-format';

const ARCHIVED = /^\d{4}-\d{2}-\d{2}-(.+?)(?:-\d+)?$/;
const UNCHECKED = /^\s*[-*] \[ \]/gm;
const ORDER: readonly SyncDriftKind[] = [
  'broken_change',
  'change_without_task',
  'task_without_change',
  'archive_unrecorded',
  'stale_checkbox',
  'base_moved',
  'stale_change',
];
/** How much of a thread's history is scanned for its spec-archive record. */
const TIMELINE_SCAN = 1000;

export interface SyncInput {
  readonly store: ColonyStore;
  readonly fs: SpecFileOps;
  readonly paths: SpecPaths;
  readonly now: number;
  readonly staleAfterHours: number;
  readonly limit: number;
}

/** Placeholders the caller fills in with its own session and agent. */
const YOU = { session_id: '<your session_id>', agent: '<your agent>' };

export async function syncStatus(input: SyncInput): Promise<Omit<SyncStatusResult, 'budget'>> {
  const { store, fs, paths } = input;
  const rootText = fs.readFile(paths.spec);
  const currentHash = rootText === null ? null : rootHash(rootText);
  const drift: SyncDriftRow[] = [];
  const add = (kind: SyncDriftKind, slug: string, detail: string, repair: SyncDriftRow['repair'] = null) =>
    drift.push({ kind, slug, detail, repair });
  const thread = async (slug: string): Promise<Task | undefined> => findTask(store, paths.root, specBranch(slug));

  const open = fs.list(paths.changes).filter((name) => SLUG.test(name));
  for (const slug of open) {
    const text = fs.readFile(paths.changeFile(slug));
    const change = text === null ? null : parseChange(text);
    if (!change) {
      add(
        'broken_change',
        slug,
        `openspec/changes/${slug}/ has no readable ${CHANGE_FILE}: restore it or remove the folder`,
      );
      continue;
    }
    const archiveArgs = { repo_root: paths.root, slug, ...YOU, strategy: 'three_way' };
    const task = await thread(slug);
    if (!task) {
      add('change_without_task', slug, `open change has no ${specBranch(slug)} task thread`, {
        tool: 'task_thread',
        args: { repo_root: paths.root, branch: specBranch(slug), ...YOU },
      });
    } else if (input.now - task.updatedAt > input.staleAfterHours * 3_600_000) {
      const hours = Math.floor((input.now - task.updatedAt) / 3_600_000);
      add('stale_change', slug, `no activity on task ${task.id} for ${hours}h`, {
        tool: 'spec_archive',
        args: archiveArgs,
      });
    }
    if (change.baseRootHash !== (currentHash ?? rootHash(''))) {
      add('base_moved', slug, `SPEC.md changed since the change opened on ${change.baseRootHash.slice(0, 12)}`, {
        tool: 'spec_archive',
        args: archiveArgs,
      });
    }
  }

  const archived = fs.list(paths.archive).filter((name) => ARCHIVED.test(name));
  const archivedSlugs = new Set<string>();
  for (const dir of archived) {
    const slug = ARCHIVED.exec(dir)?.[1] ?? dir;
    archivedSlugs.add(slug);
    const text = fs.readFile(join(paths.archive, dir, CHANGE_FILE)) ?? '';
    const unchecked = text.match(UNCHECKED)?.length ?? 0;
    if (unchecked > 0) {
      add('stale_checkbox', slug, `${unchecked} unchecked item(s) in openspec/archive/${dir}/${CHANGE_FILE}`);
    }
    const task = await thread(slug);
    const recorded =
      task && (await taskTimeline(store, task.id, TIMELINE_SCAN)).some((o) => o.kind === SPEC_ARCHIVE_KIND);
    if (!recorded) {
      add(
        'archive_unrecorded',
        slug,
        `openspec/archive/${dir} was not archived through spec_archive`,
        task
          ? {
              tool: 'task_post',
              args: { task_id: task.id, session_id: YOU.session_id, kind: 'note', content: `archived as ${dir}` },
            }
          : null,
      );
    }
  }

  for (const task of await listTasks(store, { repoRoot: paths.root, limit: 1000 })) {
    const slug = task.branch.slice('spec/'.length);
    if (!task.branch.startsWith('spec/') || !SLUG.test(slug)) continue;
    if (open.includes(slug) || archivedSlugs.has(slug)) continue;
    add('task_without_change', slug, `task ${task.id} on ${task.branch} has no change or archive folder`, {
      tool: 'spec_change_open',
      args: { repo_root: paths.root, slug, ...YOU, proposal: task.title ?? slug },
    });
  }

  drift.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.slug.localeCompare(b.slug));
  return {
    repo_root: paths.root,
    root_hash: currentHash,
    open_changes: open.length,
    archived_changes: archived.length,
    drift: drift.slice(0, input.limit),
    total: drift.length,
    truncated: drift.length > input.limit,
  };
}

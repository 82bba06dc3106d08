/**
 * @module links/link-service
 * Links between related task threads: bidirectional (stored once as low/high id) and
 * idempotent, so either side discovers the other without copying decisions across.
 * A new link or a removal by a known session appends its observation in the same
 * transaction.
 */
import { deleteTaskLink, insertTaskLink, listTaskLinks, type TaskLink } from '@swarm/storage';
import {
  ColonyError,
  type LinkBackend,
  type LinkedTaskEntry,
  type TaskLinkInput,
  type TaskLinkResult,
  type TaskLinksInput,
  type TaskUnlinkInput,
} from '@swarm/tools';
import { appendObservation, type DomainContext, ensureSession, requireTask } from '../context';

export const TASK_LINK_KIND = 'task_link';
export const TASK_UNLINK_KIND = 'task_unlink';

export class LinkService implements LinkBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  link(args: TaskLinkInput): Promise<TaskLinkResult> {
    const ctx = this.#ctx;
    if (args.task_id === args.other_task_id) {
      throw new ColonyError('TASK_LINK_SELF', `task ${args.task_id} cannot be linked to itself`, {
        details: { task_id: args.task_id },
      });
    }
    return ctx.store.write(async () => {
      await requireTask(ctx, args.task_id);
      await requireTask(ctx, args.other_task_id);
      await ensureSession(ctx, args.session_id);
      const { link, created } = await insertTaskLink(
        ctx.store,
        { taskId: args.task_id, otherTaskId: args.other_task_id, createdBy: args.session_id, note: args.note ?? null },
        ctx.clock.now(),
      );
      if (created) {
        await appendObservation(ctx, {
          sessionId: args.session_id,
          taskId: args.task_id,
          kind: TASK_LINK_KIND,
          content: `linked task #${args.task_id} with task #${args.other_task_id}${args.note ? `: ${args.note}` : ''}`,
          metadata: { other_task_id: args.other_task_id, note: args.note ?? null },
        });
      }
      return linkResult(link);
    });
  }

  async links(args: TaskLinksInput): Promise<LinkedTaskEntry[]> {
    await requireTask(this.#ctx, args.task_id);
    return (await listTaskLinks(this.#ctx.store, args.task_id)).map(({ link, other }) => ({
      other_task: {
        id: other.id,
        repo_root: other.repoRoot,
        branch: other.branch,
        title: other.title,
        status: other.status,
      },
      ...linkResult(link),
    }));
  }

  unlink(args: TaskUnlinkInput): Promise<{ removed: boolean }> {
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      await requireTask(ctx, args.task_id);
      await requireTask(ctx, args.other_task_id);
      if (args.session_id !== undefined) await ensureSession(ctx, args.session_id);
      const removed = await deleteTaskLink(ctx.store, args.task_id, args.other_task_id);
      if (removed && args.session_id !== undefined) {
        await appendObservation(ctx, {
          sessionId: args.session_id,
          taskId: args.task_id,
          kind: TASK_UNLINK_KIND,
          content: `unlinked task #${args.task_id} from task #${args.other_task_id}`,
          metadata: { other_task_id: args.other_task_id },
        });
      }
      return { removed };
    });
  }
}

function linkResult(link: TaskLink): TaskLinkResult {
  return {
    low_id: link.lowId,
    high_id: link.highId,
    created_at: link.createdAt,
    created_by: link.createdBy,
    note: link.note,
  };
}

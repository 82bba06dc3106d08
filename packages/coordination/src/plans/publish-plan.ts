/**
 * @module plans/publish-plan
 * Publishing a plan: the ordering rules first (a refusal writes nothing), then, in one
 * write transaction, the spec change and its thread, the plan row with its plan-config
 * observation, and per sub-task a thread on `spec/<slug>/sub-<index>`, a plan-subtask
 * observation and the sub-task row (available without dependencies, blocked with).
 * The publisher joins the spec thread only: publishing is advertising, not claiming.
 */
import { ensureTask, findPlan, insertPlan, insertSubtask, upsertSession } from '@swarm/storage';
import { ColonyError, type PlanPublishResult, type TaskPlanPublishInput } from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import { appendObservation, type DomainContext } from '../context';
import { inferIdeFromSessionId } from '../ide';
import { normalizeRepoRoot } from '../tasks/task-service';
import { normalizeSubtasks } from './plan-check';
import { checkPlanRules, computeWaves, refusalCode } from './plan-rules';
import { type PlanSpecLane, subtaskBranch } from './spec-lane';

export const PLAN_CONFIG_KIND = 'plan-config';
export const PLAN_SUBTASK_KIND = 'plan-subtask';

export function publishPlan(
  ctx: DomainContext,
  specs: PlanSpecLane,
  args: TaskPlanPublishInput,
): Promise<PlanPublishResult> {
  const repoRoot = normalizeRepoRoot(args.repo_root);
  const subtasks = normalizeSubtasks(repoRoot, args.subtasks);
  const { errors } = checkPlanRules(subtasks);
  const code = refusalCode(errors.map((e) => e.code));
  if (code) {
    const first = errors.find((e) => e.code === code);
    throw new ColonyError(code, `plan "${args.slug}" refused: ${first?.message}`, { details: { errors } });
  }
  const waves = computeWaves(subtasks);
  return ctx.store.write(async () => {
    const existing = await findPlan(ctx.store, repoRoot, args.slug);
    if (existing) {
      throw new ColonyError(
        'PLAN_ALREADY_PUBLISHED',
        `plan "${args.slug}" is already published in ${repoRoot}: pick another slug`,
        { details: { plan_slug: args.slug, repo_root: repoRoot, spec_task_id: existing.specTaskId } },
      );
    }
    const now = ctx.clock.now();
    await upsertSession(
      ctx.store,
      { id: args.session_id, ide: inferIdeFromSessionId(args.session_id), agent: args.agent },
      now,
    );
    const change = await specs.openChange({
      repoRoot,
      slug: args.slug,
      title: args.title,
      problem: args.problem,
      acceptanceCriteria: args.acceptance_criteria,
      sessionId: args.session_id,
      agent: args.agent,
    });
    const configId = await appendObservation(ctx, {
      sessionId: args.session_id,
      taskId: change.taskId,
      kind: PLAN_CONFIG_KIND,
      content: `plan ${args.slug}: ${args.title} (${subtasks.length} sub-tasks, auto_archive ${args.auto_archive})`,
      metadata: { plan_slug: args.slug, auto_archive: args.auto_archive, subtask_count: subtasks.length },
    });
    const plan = await insertPlan(
      ctx.store,
      {
        repoRoot,
        slug: args.slug,
        title: args.title,
        problem: args.problem,
        acceptanceCriteria: args.acceptance_criteria,
        specTaskId: change.taskId,
        specChangePath: change.path,
        autoArchive: args.auto_archive,
        createdBy: args.session_id,
        createdByAgent: args.agent,
        observationId: configId,
      },
      now,
    );
    const published = await mapInOrder(subtasks, async (subtask, index) => {
      const branch = subtaskBranch(args.slug, index);
      const { task } = await ensureTask(
        ctx.store,
        { repoRoot, branch, title: subtask.title, createdBySession: args.session_id },
        now,
      );
      const status = subtask.depends_on.length === 0 ? 'available' : 'blocked';
      const advertId = await appendObservation(ctx, {
        sessionId: args.session_id,
        taskId: task.id,
        kind: PLAN_SUBTASK_KIND,
        content: `${subtask.title}\n\n${subtask.description}`,
        metadata: {
          parent_plan_slug: args.slug,
          parent_plan_title: args.title,
          parent_spec_task_id: change.taskId,
          subtask_index: index,
          file_scope: subtask.file_scope,
          depends_on: subtask.depends_on,
          capability_hint: subtask.capability_hint,
          spec_row_id: subtask.spec_row_id,
          wave_index: waves[index] ?? 0,
          status,
        },
      });
      await insertSubtask(ctx.store, {
        planId: plan.id,
        subtaskIndex: index,
        title: subtask.title,
        description: subtask.description,
        fileScope: subtask.file_scope,
        dependsOn: subtask.depends_on,
        capabilityHint: subtask.capability_hint,
        specRowId: subtask.spec_row_id,
        taskId: task.id,
        branch,
        waveIndex: waves[index] ?? 0,
        status,
        observationId: advertId,
      });
      return { subtask_index: index, branch, task_id: task.id, title: subtask.title };
    });
    return {
      plan_slug: args.slug,
      spec_task_id: change.taskId,
      spec_change_path: change.path,
      subtasks: published,
    };
  });
}

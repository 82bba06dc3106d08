/**
 * @module plans/plan-check
 * The preflight of a plan: its sub-tasks with repo-relative file scopes, the ordering
 * rules, live file claims that already hold its files, folders shared by parallel
 * sub-tasks, and one summary of findings. Reads only.
 */
import { posix } from 'node:path';
import { type ColonyStore, claimsOnRepoFile } from '@swarm/storage';
import type {
  PlanFinding,
  PlanLiveClaimCollision,
  PlanModuleWarning,
  PlanSubtaskInput,
  PlanValidateResult,
  PlanValidationSummary,
  PlanWaveError,
} from '@swarm/tools';
import { claimAgeClass, isOwnership } from '../claims/age';
import { normalizeRepoPath } from '../repo-paths';
import { ancestorsOf, checkPlanRules, independentPairs, isFinalizer, type PlanShape } from './plan-rules';

/** Live claims read per file when looking for collisions. */
const CLAIM_SCAN = 20;

export interface NormalizedSubtask extends PlanShape {
  readonly title: string;
  readonly description: string;
  readonly file_scope: string[];
  readonly depends_on: number[];
  readonly capability_hint: string | null;
  readonly spec_row_id: string | null;
}

/** Repo-relative, de-duplicated file scopes and dependencies (PATH_OUTSIDE_REPO for a path leaving the repository). */
export function normalizeSubtasks(repoRoot: string, subtasks: readonly PlanSubtaskInput[]): NormalizedSubtask[] {
  return subtasks.map((s) => ({
    title: s.title,
    description: s.description,
    file_scope: [...new Set(s.file_scope.map((f) => normalizeRepoPath(repoRoot, f)))],
    depends_on: [...new Set(s.depends_on ?? [])],
    capability_hint: s.capability_hint ?? null,
    spec_row_id: s.spec_row_id ?? null,
  }));
}

/** The whole task_plan_validate answer for normalized sub-tasks. */
export async function validatePlan(
  store: ColonyStore,
  repoRoot: string,
  subtasks: readonly NormalizedSubtask[],
  now: number,
): Promise<PlanValidateResult> {
  const report = checkPlanRules(subtasks);
  const orderedWaveErrors = report.errors.filter((e) => e.code !== 'PLAN_SCOPE_OVERLAP');
  const collisions = await liveClaimCollisions(store, repoRoot, subtasks, now);
  const modules = report.waves === null ? [] : moduleWarnings(subtasks);
  const findings: PlanFinding[] = [
    ...report.errors.map(errorFinding),
    ...collisions.map(
      (c): PlanFinding => ({
        code: 'LIVE_CLAIM_COLLISION',
        severity: 'warning',
        message: `${c.file_path} is claimed by ${c.holder_session_id} (${c.holder_agent}) on ${c.holder_branch}`,
        subtask_index: c.subtask_index,
        file_path: c.file_path,
      }),
    ),
    ...modules.map(
      (m): PlanFinding => ({
        code: 'MODULE_OVERLAP',
        severity: 'warning',
        message: `sub-tasks ${m.a} and ${m.b} can run in parallel and both touch ${m.shared_modules.join(', ')}`,
        subtask_index: m.b,
      }),
    ),
    ...subtasks.flatMap((s, i): PlanFinding[] =>
      isFinalizer(s)
        ? [
            {
              code: 'PLAN_FINALIZER',
              severity: 'info',
              message: `sub-task ${i} is a finalizer: it runs last`,
              subtask_index: i,
            },
          ]
        : [],
    ),
  ];
  return {
    pairwise_overlaps: report.overlaps,
    live_claim_collisions: collisions,
    module_warnings: modules,
    ordered_wave_errors: orderedWaveErrors,
    waves: report.waves,
    summary: summarize(findings),
    partition_clean: report.overlaps.length === 0 && collisions.length === 0 && orderedWaveErrors.length === 0,
  };
}

function errorFinding(error: PlanWaveError): PlanFinding {
  return {
    code: error.code,
    severity: 'error',
    message: error.message,
    ...(error.subtask_index === undefined ? {} : { subtask_index: error.subtask_index }),
  };
}

function summarize(findings: PlanFinding[]): PlanValidationSummary {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return { blocking: counts.error > 0, finding_count: findings.length, counts, findings };
}

/** Files of the plan that someone already holds with a fresh or handoff_pending claim. */
async function liveClaimCollisions(
  store: ColonyStore,
  repoRoot: string,
  subtasks: readonly NormalizedSubtask[],
  now: number,
): Promise<PlanLiveClaimCollision[]> {
  const collisions: PlanLiveClaimCollision[] = [];
  for (const [index, subtask] of subtasks.entries()) {
    for (const file of subtask.file_scope) {
      const seen = new Set<string>();
      for (const claim of await claimsOnRepoFile(store, repoRoot, file, CLAIM_SCAN)) {
        const ageClass = claimAgeClass(claim, now);
        if (ageClass === null || !isOwnership(ageClass) || seen.has(claim.sessionId)) continue;
        seen.add(claim.sessionId);
        collisions.push({
          subtask_index: index,
          file_path: file,
          holder_session_id: claim.sessionId,
          holder_agent: claim.agent,
          holder_task_id: claim.taskId,
          holder_branch: claim.branch,
          claimed_at: claim.claimedAt,
        });
      }
    }
  }
  return collisions;
}

/** Parallel sub-tasks sharing no file but touching the same folder. */
function moduleWarnings(subtasks: readonly NormalizedSubtask[]): PlanModuleWarning[] {
  const folders = subtasks.map((s) => new Set(s.file_scope.map(posix.dirname).filter((d) => d !== '.')));
  const warnings: PlanModuleWarning[] = [];
  for (const [a, b] of independentPairs(ancestorsOf(subtasks))) {
    const fa = subtasks[a] as NormalizedSubtask;
    const fb = new Set((subtasks[b] as NormalizedSubtask).file_scope);
    if (fa.file_scope.some((f) => fb.has(f))) continue;
    const shared = [...(folders[a] ?? [])].filter((d) => folders[b]?.has(d)).sort();
    if (shared.length > 0) warnings.push({ a, b, shared_modules: shared });
  }
  return warnings;
}

/**
 * @module queen/decompose-goal
 * The queen's decomposition of a goal into a plan: a pure, deterministic function from
 * the goal to the task_plan_publish input. Affected files are split into lanes by kind
 * of work (capability) and module, so lanes never share a file; lanes then order in
 * waves, and a finalizer that depends on everything closes the plan.
 *
 * Waves ('wave' ordering, the default): implementation lanes (api, ui, infra) first
 * and in parallel; test and doc lanes next, depending on every implementation lane;
 * the finalizer last. 'serial' ordering chains every lane after the one before it.
 * Test and doc lanes are titled as the plan rules read finalizers ("Tests in ...",
 * "Update documentation in ..."), and the finalizer depends on every lane and scopes
 * every file, so the plan always passes the wave and finalizer rules.
 */
import type { QUEEN_ORDERINGS } from '@swarm/tools';
import { compareText } from '../compare-text';
import { isFinalizer } from '../plans/plan-rules';

/** Kinds of work a lane can be, in the order lanes are listed. */
const LANE_KINDS = ['infra_work', 'api_work', 'ui_work', 'test_work', 'doc_work'] as const;
type LaneKind = (typeof LANE_KINDS)[number];
const FOLLOW_UP: ReadonlySet<LaneKind> = new Set(['test_work', 'doc_work']);

/** Most lanes one plan gets before lanes of a kind merge across modules. */
export const MAX_LANES = 8;
/** Longest slug derived from a goal title. */
export const MAX_SLUG_CHARS = 48;
export type QueenOrdering = (typeof QUEEN_ORDERINGS)[number];

export interface QueenGoal {
  readonly goal_title: string;
  readonly problem: string;
  readonly acceptance_criteria: readonly string[];
  readonly repo_root: string;
  /** Repo-relative paths; at least one (every sub-task scopes files). */
  readonly affected_files: readonly string[];
  readonly ordering_hint: QueenOrdering;
  readonly finalizer?: string | undefined;
  readonly session_id: string;
  readonly agent?: string | undefined;
}

export interface QueenSubtask {
  title: string;
  description: string;
  file_scope: string[];
  depends_on: number[];
  capability_hint: string;
}

/** The task_plan_publish input a goal decomposes into. */
export interface QueenPlan {
  repo_root: string;
  slug: string;
  session_id: string;
  agent?: string;
  title: string;
  problem: string;
  acceptance_criteria: string[];
  subtasks: QueenSubtask[];
  auto_archive: true;
}

const LABEL: Record<LaneKind, string> = {
  infra_work: 'Infrastructure',
  api_work: 'Implementation',
  ui_work: 'UI',
  test_work: 'Tests',
  doc_work: 'Update documentation',
};

/** The kind of work a file calls for, from its path. */
export function capabilityOf(file: string): LaneKind {
  const f = file.toLowerCase();
  if (/(^|\/)(docs?)\//.test(f) || /\.(md|mdx|txt|rst)$/.test(f)) return 'doc_work';
  if (/(^|\/)(tests?|__tests__|e2e)\//.test(f) || /\.(test|spec)\.[a-z]+$/.test(f)) return 'test_work';
  if (/\.(tsx|jsx|vue|svelte|css|scss|html)$/.test(f) || /(^|\/)(ui|components|pages|frontend|web)\//.test(f)) {
    return 'ui_work';
  }
  if (
    /(^|\/)(\.github|\.ci|scripts|docker|deploy|infra)\//.test(f) ||
    /(^|\/)(dockerfile|makefile|package\.json|pnpm-[\w.-]+|turbo\.json|tsconfig[\w.-]*\.json)$/.test(f) ||
    /\.(ya?ml|toml|sh)$/.test(f)
  ) {
    return 'infra_work';
  }
  return 'api_work';
}

/** The module a file belongs to: `packages/x` or `apps/x` style two-level roots, else its top folder. */
export function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return '.';
  if (parts.length > 2 && ['packages', 'apps', 'libs', 'services', 'crates'].includes(parts[0] ?? '')) {
    return `${parts[0]}/${parts[1]}`;
  }
  return parts[0] ?? '.';
}

/** A plan slug from a goal title: lower-case words joined by dashes. */
export function slugify(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_CHARS) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, MAX_SLUG_CHARS) || 'goal';
}

interface Lane {
  readonly kind: LaneKind;
  readonly module: string;
  readonly files: string[];
}

function lanesOf(files: readonly string[]): Lane[] {
  const byKey = new Map<string, Lane>();
  const unique = [...new Set(files)].sort();
  const group = (moduleFor: (f: string) => string) => {
    byKey.clear();
    for (const file of unique) {
      const kind = capabilityOf(file);
      const module = moduleFor(file);
      const key = `${kind}\u0000${module}`;
      const lane = byKey.get(key) ?? { kind, module, files: [] };
      lane.files.push(file);
      byKey.set(key, lane);
    }
    return [...byKey.values()];
  };
  let lanes = group(moduleOf);
  if (lanes.length > MAX_LANES) lanes = group(() => '*');
  return lanes.sort(
    (a, b) => LANE_KINDS.indexOf(a.kind) - LANE_KINDS.indexOf(b.kind) || compareText(a.module, b.module),
  );
}

function laneTitle(lane: Lane, goal: QueenGoal): string {
  if (lane.module === '*' || lane.module === '.') return clip(`${LABEL[lane.kind]}: ${goal.goal_title}`, MAX_TITLE);
  return clip(`${LABEL[lane.kind]} in ${lane.module}`, MAX_TITLE);
}

/** Longest sub-task title and description a plan accepts. */
const MAX_TITLE = 200;
const MAX_DESCRIPTION = 4000;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function describe(goal: QueenGoal, what: string, files: readonly string[]): string {
  return clip(
    `${what} for "${goal.goal_title}".\nFiles: ${files.join(', ')}\nProblem: ${goal.problem}`,
    MAX_DESCRIPTION,
  );
}

/** Decomposes a goal into the plan to publish. Same goal in, same plan out. */
export function decomposeGoal(goal: QueenGoal): QueenPlan {
  const lanes = lanesOf(goal.affected_files);
  const subtasks: QueenSubtask[] = lanes.map((lane) => ({
    title: laneTitle(lane, goal),
    description: describe(
      goal,
      `${LABEL[lane.kind]} in ${lane.module === '*' ? 'the repository' : lane.module}`,
      lane.files,
    ),
    file_scope: lane.files,
    depends_on: [],
    capability_hint: lane.kind,
  }));
  order(subtasks, goal.ordering_hint);
  const criteria = goal.acceptance_criteria.map((c) => `- ${c}`).join('\n');
  subtasks.push({
    title: finalizerTitle(goal),
    description: clip(`Verify "${goal.goal_title}" against its acceptance criteria:\n${criteria}`, MAX_DESCRIPTION),
    file_scope: lanes.flatMap((l) => l.files).sort(),
    depends_on: subtasks.map((_, i) => i),
    capability_hint: 'test_work',
  });
  return {
    repo_root: goal.repo_root,
    slug: slugify(goal.goal_title),
    session_id: goal.session_id,
    ...(goal.agent === undefined ? {} : { agent: goal.agent }),
    title: goal.goal_title,
    problem: goal.problem,
    acceptance_criteria: [...goal.acceptance_criteria],
    subtasks,
    auto_archive: true,
  };
}

/** The finalizer's title, worded so the plan rules read it as the finalizer it is. */
function finalizerTitle(goal: QueenGoal): string {
  const title = goal.finalizer ?? `Verify ${goal.goal_title}`;
  const shape = { title, file_scope: [], depends_on: [], capability_hint: 'test_work' };
  return clip(isFinalizer(shape) ? title : `Verify: ${title}`, MAX_TITLE);
}

function order(subtasks: QueenSubtask[], ordering: QueenOrdering): void {
  if (ordering === 'serial') {
    subtasks.forEach((s, i) => {
      s.depends_on = i === 0 ? [] : [i - 1];
    });
    return;
  }
  const first = subtasks.flatMap((s, i) => (FOLLOW_UP.has(s.capability_hint as LaneKind) ? [] : [i]));
  for (const s of subtasks) {
    if (FOLLOW_UP.has(s.capability_hint as LaneKind)) s.depends_on = first;
  }
}

/** Which sub-tasks call for which capability: `{ api_work: [0, 2], test_work: [3] }`. */
export function capabilityMap(subtasks: readonly QueenSubtask[]): Record<string, number[]> {
  const map: Record<string, number[]> = {};
  subtasks.forEach((s, i) => {
    map[s.capability_hint] = [...(map[s.capability_hint] ?? []), i];
  });
  return map;
}

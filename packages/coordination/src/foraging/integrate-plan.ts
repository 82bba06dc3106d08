/**
 * @module foraging/integrate-plan
 * The deterministic integration plan of an indexed example: no model involved, only
 * the stored summary (manifest, entrypoints, copy candidates) and a fresh read of the
 * target's package.json. Only npm examples get a real dependency diff; the others say
 * why not in uncertainty_notes. `remove` is informational: target dependencies the
 * example does not use, never advice to delete them.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileToCopy, ManifestKind } from '@swarm/tools';
import { isDirectory } from './example-reader';
import type { ExampleSummary } from './patterns';

/** The target manifest as read now: its dependencies by section, or why they are unknown. */
export type TargetRead =
  | {
      readonly ok: true;
      readonly path: string;
      readonly dependencies: Record<string, string>;
      readonly devDependencies: Record<string, string>;
    }
  | { readonly ok: false; readonly path: string; readonly reason: string };

export interface PlanDraft {
  example_name: string;
  dependency_delta: { add: Record<string, string>; remove: string[] };
  files_to_copy: FileToCopy[];
  config_steps: string[];
  uncertainty_notes: string[];
}

/** Largest target package.json read. */
const MAX_TARGET_BYTES = 1024 * 1024;

const sorted = (record: Record<string, string>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Example scripts worth running after copying, in this order (start/dev run it, they configure nothing). */
const NPM_STEP_SCRIPTS = ['generate', 'build', 'test'];

/** The install command of each manifest kind, and how its scripts run. */
function kindSteps(kind: ManifestKind | null, summary: ExampleSummary): string[] {
  const scripts = Object.keys(summary.scripts);
  switch (kind) {
    case 'npm':
      return NPM_STEP_SCRIPTS.filter((s) => scripts.includes(s)).map((s) => `npm run ${s}`);
    case 'pypi':
      return summary.manifest_file === 'requirements.txt' ? ['pip install -r requirements.txt'] : ['pip install -e .'];
    case 'cargo':
      return ['cargo build', 'cargo test'];
    case 'go':
      return ['go mod tidy', 'go build ./...', 'go test ./...'];
    default:
      return [];
  }
}

function npmDelta(summary: ExampleSummary, target: TargetRead, notes: string[]) {
  const wanted = { ...summary.dev_dependencies, ...summary.dependencies };
  const have = target.ok ? { ...target.devDependencies, ...target.dependencies } : {};
  if (!target.ok) notes.push(`Target ${target.path}: ${target.reason}; every example dependency is listed in add.`);
  const add: Record<string, string> = {};
  for (const [name, range] of Object.entries(wanted)) {
    const current = have[name];
    if (current === undefined) add[name] = range;
    else if (current !== range)
      notes.push(`${name}: example wants ${range}, target has ${current}; check compatibility.`);
  }
  const remove = target.ok
    ? Object.keys(target.dependencies)
        .filter((n) => !(n in wanted))
        .sort()
    : [];
  const steps: string[] = [];
  const runtime = Object.keys(add).filter((n) => n in summary.dependencies);
  const dev = Object.keys(add).filter((n) => !(n in summary.dependencies));
  if (runtime.length > 0)
    steps.push(
      `npm install ${runtime
        .sort()
        .map((n) => `${n}@${add[n]}`)
        .join(' ')}`,
    );
  if (dev.length > 0)
    steps.push(
      `npm install -D ${dev
        .sort()
        .map((n) => `${n}@${add[n]}`)
        .join(' ')}`,
    );
  return { add: sorted(add), remove, steps };
}

/** The plan for one example against one target manifest. */
export function buildIntegratePlan(
  exampleName: string,
  kind: ManifestKind | null,
  summary: ExampleSummary,
  target: TargetRead,
): PlanDraft {
  const notes = [...summary.notes];
  let delta: { add: Record<string, string>; remove: string[] } = { add: {}, remove: [] };
  const steps: string[] = [];
  if (kind === 'npm') {
    const npm = npmDelta(summary, target, notes);
    delta = { add: npm.add, remove: npm.remove };
    steps.push(...npm.steps);
  } else {
    const declared = Object.keys({ ...summary.dependencies, ...summary.dev_dependencies });
    notes.push(
      kind === 'unknown' || kind === null
        ? 'The example has no manifest, so its dependencies are unknown and dependency_delta is empty.'
        : `Only npm examples get a dependency diff: this is a ${kind} example (${summary.manifest_file}), so add stays empty. It declares ${declared.length} dependencies${declared.length > 0 ? `: ${declared.slice(0, 15).join(', ')}${declared.length > 15 ? ', …' : ''}` : ''}.`,
    );
  }
  steps.push(...kindSteps(kind, summary));
  const prefix = `examples/${exampleName}/`;
  const files = summary.copy_candidates.map((c) => ({
    from: `${prefix}${c.path}`,
    to_suggestion: c.path,
    rationale: c.rationale,
  }));
  if (summary.copy_candidate_count > files.length) {
    notes.push(
      `${summary.copy_candidate_count - files.length} more source files are not listed; see examples_query or the folder.`,
    );
  }
  if (files.length === 0) notes.push('No entrypoint or source file was found to copy.');
  return {
    example_name: exampleName,
    dependency_delta: delta,
    files_to_copy: files,
    config_steps: steps,
    uncertainty_notes: notes,
  };
}

/** The target package.json's dependencies, or why they cannot be read. */
export function readTarget(abs: string, rel: string): TargetRead {
  let file = abs;
  let shown = rel || '.';
  if (isDirectory(abs)) {
    file = join(abs, 'package.json');
    shown = rel === '' ? 'package.json' : `${rel}/package.json`;
  }
  try {
    if (statSync(file).size > MAX_TARGET_BYTES) return { ok: false, path: shown, reason: 'too large to read' };
    const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return { ok: false, path: shown, reason: 'not a JSON object' };
    }
    const record = json as Record<string, unknown>;
    return {
      ok: true,
      path: shown,
      dependencies: deps(record.dependencies),
      devDependencies: deps(record.devDependencies),
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      path: shown,
      reason: code === 'ENOENT' ? 'not found' : `unreadable (${(error as Error).message.slice(0, 80)})`,
    };
  }
}

function deps(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * @module tools/examples
 * Example projects ("food sources") under `<repo_root>/examples/<name>/`: what the
 * forager indexed (`colony foraging scan`, or the SessionStart hook when
 * settings.foraging.scanOnSessionStart is on), a search over their `foraged-pattern`
 * observations, and a deterministic plan for bringing one into the repository.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { BudgetInfo } from '../schemas';
import { filePath, limit, repoRoot, text } from '../schemas';
import type { SearchHit } from './memory';

export const MANIFEST_KINDS = ['npm', 'pypi', 'cargo', 'go', 'unknown'] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];

/** A plain folder name of `<repo_root>/examples/`: no separators, not `.` or `..`. */
export const exampleName = text(200).refine(
  (s) => !/[/\\]/.test(s) && s !== '.' && s !== '..',
  'must be a plain folder name of <repo_root>/examples/ (no "/", "\\", "." or "..")',
);

export const ExamplesListInput = z.strictObject({ repo_root: repoRoot });
export type ExamplesListInput = z.output<typeof ExamplesListInput>;

export interface ExampleEntry {
  example_name: string;
  manifest_kind: ManifestKind | null;
  observation_count: number;
  last_scanned_at: number;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly examples: ExamplesBackend };

export const examplesList = defineTool({
  name: 'examples_list',
  title: 'List examples',
  description: 'Indexed example projects under examples/.',
  input: ExamplesListInput,
  mutates: false,
  docs: {
    returns: '[ { example_name, manifest_kind, observation_count, last_scanned_at } ] by name.',
    notes:
      'Reads the index only: it is filled by `colony foraging scan` and by the SessionStart hook when ' +
      'settings.foraging.scanOnSessionStart is true. manifest_kind is npm (package.json), pypi ' +
      '(pyproject.toml, setup.py, setup.cfg or requirements.txt), cargo (Cargo.toml), go (go.mod), ' +
      'unknown (none) or null. observation_count is the number of current foraged-pattern observations ' +
      'of the example (a re-scan of a changed example supersedes the old ones). An empty list means ' +
      'nothing was scanned for this repo_root yet.',
    example: { repo_root: '/abs/path/to/repo' },
  },
  handler: (args, b: Host) => b.examples.list(args),
});

export const ExamplesQueryInput = z.strictObject({
  query: z.string().min(1).max(2000),
  example_name: exampleName.optional(),
  limit: limit(10, 50),
});
export type ExamplesQueryInput = z.output<typeof ExamplesQueryInput>;

export const examplesQuery = defineTool({
  name: 'examples_query',
  title: 'Query examples',
  description: 'Search indexed example patterns.',
  input: ExamplesQueryInput,
  mutates: false,
  docs: {
    returns:
      '[ { id, session_id, kind, snippet, score, ts, task_id } ] - compact hits of kind foraged-pattern, best first.',
    notes:
      'BM25 over the current foraged-pattern observations of every indexed example (patterns ' +
      'superseded by a re-scan are left out), or of the examples named example_name. All terms must ' +
      'match; when fewer than `limit` hits do, hits matching any term fill the rest. Vector re-rank is ' +
      'intentionally skipped: the filter applies before ranking and the embedding index has no kind ' +
      "column. Each pattern's metadata (via get_observations) names example_name, repo_root, " +
      'manifest_kind and pattern (manifest, entrypoint, readme, files).',
    example: { query: 'webhook signature', example_name: 'stripe-webhook', limit: 10 },
  },
  handler: (args, b: Host) => b.examples.query(args),
});

export const ExamplesIntegratePlanInput = z.strictObject({
  repo_root: repoRoot,
  example_name: exampleName,
  target_hint: filePath.optional(),
});
export type ExamplesIntegratePlanInput = z.output<typeof ExamplesIntegratePlanInput>;

export interface FileToCopy {
  from: string;
  to_suggestion: string;
  rationale: string;
}

export interface IntegratePlan {
  example_name: string;
  dependency_delta: { add: Record<string, string>; remove: string[] };
  files_to_copy: FileToCopy[];
  config_steps: string[];
  uncertainty_notes: string[];
  budget: BudgetInfo;
}

export const examplesIntegratePlan = defineTool({
  name: 'examples_integrate_plan',
  title: 'Integration plan',
  description: 'Steps to integrate an indexed example.',
  input: ExamplesIntegratePlanInput,
  mutates: false,
  docs: {
    returns:
      '{ example_name, dependency_delta: { add: { name: range }, remove: [name] }, files_to_copy: [ { ' +
      'from, to_suggestion, rationale } ], config_steps, uncertainty_notes, budget }',
    errors: ['PATH_NOT_FOUND', 'PATH_OUTSIDE_REPO', 'PATH_IGNORED', 'ROOT_NOT_ALLOWED'],
    notes:
      'No LLM: derived from the indexed manifest and entrypoints plus a fresh read of the target ' +
      'package.json. target_hint: absolute paths are used as-is, relative ones are joined onto ' +
      'repo_root (a folder means its package.json); default <repo_root>/package.json; outside ' +
      'repo_root (lexically or through a symlink) answers PATH_OUTSIDE_REPO, inside .git PATH_IGNORED. ' +
      'dependency_delta.add: example dependencies and devDependencies missing from the target (any ' +
      'section). dependency_delta.remove is informational, never a recommendation to delete: target ' +
      'dependencies the example does not use. Only npm examples produce a real diff; other manifest ' +
      'kinds leave add empty and say so in uncertainty_notes, which also names version conflicts, a ' +
      'missing or malformed manifest or target, and truncated scans. files_to_copy.from is ' +
      "repo-relative; to_suggestion is relative to the target manifest's folder. An example not in the " +
      'index (run `colony foraging scan`) answers PATH_NOT_FOUND.',
    example: { repo_root: '/abs/path/to/repo', example_name: 'stripe-webhook', target_hint: 'apps/api/package.json' },
  },
  handler: (args, b: Host) => b.examples.integratePlan(args),
});

export interface ExamplesBackend {
  list(args: ExamplesListInput): Promise<ExampleEntry[]>;
  query(args: ExamplesQueryInput): Promise<SearchHit[]>;
  integratePlan(args: ExamplesIntegratePlanInput): Promise<IntegratePlan>;
}

export const exampleTools = [examplesList, examplesQuery, examplesIntegratePlan];

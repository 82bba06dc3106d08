/**
 * @module foraging/patterns
 * What the forager writes for one example: a few compact, searchable
 * `foraged-pattern` bodies (the manifest summary with dependencies and scripts, each
 * entrypoint with an excerpt, a README excerpt, the notable files), the structured
 * summary examples_integrate_plan reads, and the hash of both: an unchanged example
 * hashes the same, so a re-scan writes nothing.
 */

import type { JsonObject } from '@swarm/storage';
import type { ManifestKind } from '@swarm/tools';
import { nodeCrypto } from '../_crypto';
import type { ExampleFile, ExampleSnapshot } from './example-reader';

export type PatternKind = 'manifest' | 'entrypoint' | 'readme' | 'files';

export interface Pattern {
  readonly pattern: PatternKind;
  readonly content: string;
  /** The file the pattern is about, example-relative, when it is about one. */
  readonly path: string | null;
}

/** A file examples_integrate_plan proposes to copy. */
export interface CopyCandidate {
  readonly path: string;
  readonly rationale: string;
}

/** The structured index of an example: what the plan is derived from. */
export interface ExampleSummary {
  readonly manifest_file: string | null;
  readonly name: string | null;
  readonly version: string | null;
  readonly dependencies: Record<string, string>;
  readonly dev_dependencies: Record<string, string>;
  readonly scripts: Record<string, string>;
  readonly entrypoints: string[];
  readonly copy_candidates: CopyCandidate[];
  readonly copy_candidate_count: number;
  readonly file_count: number;
  readonly notes: string[];
  readonly truncated: boolean;
}

export interface ExampleIndex {
  readonly kind: ManifestKind;
  readonly patterns: Pattern[];
  readonly summary: ExampleSummary;
  readonly hash: string;
}

/** Copy candidates kept in the summary. */
export const MAX_COPY_CANDIDATES = 25;
/** Paths named in the `files` pattern. */
const MAX_LISTED_PATHS = 60;

const SOURCE =
  /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts|vue|svelte|py|rs|go|rb|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|sql|graphql|proto|css|scss|html)$/i;
const TEST = /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[a-z]+$|_test\.(go|py)$|(^|\/)test_[^/]*\.py$/i;
const CONFIG_TO_MERGE = /^(\.env\.example|\.env\.sample|tsconfig\.json|Dockerfile|docker-compose\.ya?ml|Makefile)$/;
const NOTABLE =
  /^(Dockerfile|docker-compose\.ya?ml|Makefile|\.env\.(example|sample)|tsconfig\.json|[^/]*\.config\.[a-z]+)$/i;

const list = (deps: Record<string, string>) =>
  Object.entries(deps)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

function manifestPattern(ex: ExampleSnapshot): Pattern {
  const m = ex.manifest;
  const lines = [
    m.file === null
      ? `Example ${ex.name} (unknown): no manifest (package.json, pyproject.toml, setup.py, setup.cfg, requirements.txt, Cargo.toml or go.mod).`
      : `Example ${ex.name} (${m.kind}, ${m.file}): ${[m.name, m.version].filter(Boolean).join(' ') || 'unnamed'}.`,
  ];
  if (m.file !== null) {
    lines.push(`Dependencies: ${list(m.dependencies)}.`, `Dev dependencies: ${list(m.devDependencies)}.`);
    const scripts = Object.entries(m.scripts).map(([k, v]) => `${k}: ${v}`);
    if (scripts.length > 0) lines.push(`Scripts: ${scripts.join('; ')}.`);
  }
  if (ex.entrypoints.length > 0) lines.push(`Entrypoints: ${ex.entrypoints.map((e) => e.path).join(', ')}.`);
  lines.push(...m.notes);
  return { pattern: 'manifest', content: lines.join('\n'), path: m.file };
}

function filesPattern(ex: ExampleSnapshot): Pattern {
  const paths = ex.files.map((f) => f.path);
  const notable = paths.filter((p) => NOTABLE.test(p.split('/').pop() ?? ''));
  const shown = paths.slice(0, MAX_LISTED_PATHS);
  const more = paths.length - shown.length;
  const lines = [
    `Example ${ex.name} files (${paths.length}${ex.truncated ? '+, scan capped' : ''}): ${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}.`,
  ];
  if (notable.length > 0) lines.push(`Notable: ${notable.slice(0, 20).join(', ')}.`);
  return { pattern: 'files', content: lines.join('\n'), path: null };
}

function copyCandidates(ex: ExampleSnapshot): CopyCandidate[] {
  const out: CopyCandidate[] = ex.entrypoints.map((e) => ({
    path: e.path,
    rationale:
      e.source === 'manifest' ? `entrypoint named by ${ex.manifest.file}` : 'entrypoint (conventional location)',
  }));
  const taken = new Set(out.map((c) => c.path));
  const rest = (f: ExampleFile) => !f.binary && !taken.has(f.path);
  for (const f of ex.files.filter(rest)) {
    if (SOURCE.test(f.path) && !TEST.test(f.path)) out.push({ path: f.path, rationale: 'source file of the example' });
    else if (CONFIG_TO_MERGE.test(f.path))
      out.push({ path: f.path, rationale: "config: merge with the target's, do not overwrite" });
  }
  return out;
}

/** The patterns, summary and hash of one example snapshot. */
export function indexExample(ex: ExampleSnapshot): ExampleIndex {
  const patterns: Pattern[] = [manifestPattern(ex)];
  for (const e of ex.entrypoints) {
    patterns.push({
      pattern: 'entrypoint',
      content: `Example ${ex.name} entrypoint ${e.path}:\n${e.excerpt}`,
      path: e.path,
    });
  }
  if (ex.readme) {
    patterns.push({
      pattern: 'readme',
      content: `Example ${ex.name} ${ex.readme.path}:\n${ex.readme.excerpt}`,
      path: ex.readme.path,
    });
  }
  patterns.push(filesPattern(ex));
  const candidates = copyCandidates(ex);
  const m = ex.manifest;
  const summary: ExampleSummary = {
    manifest_file: m.file,
    name: m.name,
    version: m.version,
    dependencies: m.dependencies,
    dev_dependencies: m.devDependencies,
    scripts: m.scripts,
    entrypoints: ex.entrypoints.map((e) => e.path),
    copy_candidates: candidates.slice(0, MAX_COPY_CANDIDATES),
    copy_candidate_count: candidates.length,
    file_count: ex.files.length,
    notes: [...m.notes, ...(ex.truncated ? [`The scan of ${ex.dir} stopped at its file cap: lists are partial.`] : [])],
    truncated: ex.truncated,
  };
  const hash = nodeCrypto()
    .createHash('sha256')
    .update(JSON.stringify({ kind: m.kind, patterns, summary }))
    .digest('hex');
  return { kind: m.kind, patterns, summary, hash };
}

/** The summary as stored (a JSON object). */
export const summaryJson = (summary: ExampleSummary): JsonObject => ({ ...summary });

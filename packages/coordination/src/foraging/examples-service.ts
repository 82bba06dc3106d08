/**
 * @module foraging/examples-service
 * Foraging: indexing `<repo_root>/examples/<name>/` folders (food sources) and the
 * three example tools over that index. A scan reads every example folder outside any
 * transaction, then in one write: an example whose index hash is unchanged writes
 * nothing (only last_scanned_at moves); a new or changed one gets fresh
 * `foraged-pattern` observations (contiguous ids, superseding the previous range) and
 * its row replaced; a folder that is gone loses its row. Patterns are history and stay;
 * the row says which are current.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  deleteExamples,
  type ExampleRow,
  FORAGED_PATTERN_KIND,
  ftsMatchExpression,
  getExample,
  getSession,
  type KeywordHit,
  listExamples,
  markExamplesScanned,
  reindexExamplePatterns,
  searchExamplePatterns,
  upsertExample,
  upsertSession,
} from '@swarm/storage';
import {
  ColonyError,
  type ExampleEntry,
  type ExamplesBackend,
  type ExamplesIntegratePlanInput,
  type ExamplesListInput,
  type ExamplesQueryInput,
  type IntegratePlan,
  type ManifestKind,
  type SearchHit,
} from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import { withBudget } from '../budget';
import { appendObservation, type DomainContext } from '../context';
import { Workspace } from '../framework/workspace';
import { makeSnippet } from '../memory/snippet';
import { requireRoot } from '../roots';
import { exampleFolders, readExample, type SkippedExample } from './example-reader';
import { buildIntegratePlan, readTarget } from './integrate-plan';
import { type ExampleSummary, indexExample, summaryJson } from './patterns';

/** The session foraged patterns are written under when the caller names none. */
export const FORAGER_SESSION_ID = 'colony-forager';

export type ScanStatus = 'new' | 'changed' | 'unchanged' | 'removed';

export interface ScannedExample {
  readonly example_name: string;
  readonly manifest_kind: ManifestKind | null;
  readonly status: ScanStatus;
  readonly patterns_written: number;
  readonly observation_count: number;
}

export interface ForagingScanResult {
  readonly repo_root: string;
  readonly examples: ScannedExample[];
  /** Folders not indexed, with why (a symlink, a name that is not plain, the cap). */
  readonly skipped: SkippedExample[];
}

export interface ScanOptions {
  /** Whose session the patterns are written under (it must exist); default FORAGER_SESSION_ID. */
  readonly sessionId?: string;
}

/** The stored spelling of a repository root: its real path when it exists. */
export function canonicalRoot(repoRoot: string): string {
  try {
    return realpathSync(resolve(repoRoot));
  } catch {
    return resolve(repoRoot);
  }
}

export class ExamplesService implements ExamplesBackend {
  readonly #ctx: DomainContext;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  /** Indexes the examples of a repository (PATH_NOT_FOUND when repo_root does not exist). */
  scan(repoRoot: string, options: ScanOptions = {}): Promise<ForagingScanResult> {
    requireRoot(this.#ctx.roots, repoRoot);
    const ws = Workspace.open(repoRoot);
    const { names, skipped } = exampleFolders(ws);
    const indexed = names.map((name) => ({ name, index: indexExample(readExample(ws, name)) }));
    const ctx = this.#ctx;
    return ctx.store.write(async () => {
      const now = ctx.clock.now();
      const sessionId = options.sessionId ?? FORAGER_SESSION_ID;
      if (!(await getSession(ctx.store, sessionId))) {
        await upsertSession(ctx.store, { id: sessionId, ide: 'colony', agent: 'forager' }, now);
      }
      const existing = new Map((await listExamples(ctx.store, ws.root)).map((row) => [row.exampleName, row]));
      const results: ScannedExample[] = [];
      const unchanged: number[] = [];
      for (const { name, index } of indexed) {
        const kind = index.kind;
        const before = existing.get(name);
        existing.delete(name);
        if (before && before.contentHash === index.hash) {
          unchanged.push(before.id);
          results.push(entryOf(before, 'unchanged', 0));
          continue;
        }
        const ids = await mapInOrder(index.patterns, (p, i) =>
          appendObservation(ctx, {
            sessionId,
            kind: FORAGED_PATTERN_KIND,
            content: p.content,
            heartbeat: false,
            metadata: {
              example_name: name,
              repo_root: ws.root,
              manifest_kind: kind,
              pattern: p.pattern,
              path: p.path,
              content_hash: index.hash,
              ...(i === 0 && before?.firstPatternId != null
                ? { supersedes: [before.firstPatternId, before.lastPatternId] }
                : {}),
            },
          }),
        );
        await reindexExamplePatterns(
          ctx.store,
          name,
          before?.firstPatternId != null && before.lastPatternId != null
            ? { lo: before.firstPatternId, hi: before.lastPatternId }
            : null,
          ids.map((observationId, i) => ({ observationId, content: index.patterns[i]?.content ?? '' })),
        );
        await upsertExample(ctx.store, {
          repoRoot: ws.root,
          exampleName: name,
          manifestKind: kind,
          contentHash: index.hash,
          observationCount: ids.length,
          firstPatternId: ids[0] ?? null,
          lastPatternId: ids.at(-1) ?? null,
          summary: summaryJson(index.summary),
          lastScannedAt: now,
        });
        results.push({
          example_name: name,
          manifest_kind: kind,
          status: before ? 'changed' : 'new',
          patterns_written: ids.length,
          observation_count: ids.length,
        });
      }
      await markExamplesScanned(ctx.store, unchanged, now);
      const gone = [...existing.values()];
      await deleteExamples(ctx.store, gone);
      results.push(...gone.map((row) => ({ ...entryOf(row, 'removed', 0), observation_count: 0 })));
      return { repo_root: ws.root, examples: results, skipped };
    });
  }

  async list(args: ExamplesListInput): Promise<ExampleEntry[]> {
    return (await listExamples(this.#ctx.store, canonicalRoot(args.repo_root))).map((row) => ({
      example_name: row.exampleName,
      manifest_kind: row.manifestKind as ManifestKind | null,
      observation_count: row.observationCount,
      last_scanned_at: row.lastScannedAt,
    }));
  }

  async query(args: ExamplesQueryInput): Promise<SearchHit[]> {
    const store = this.#ctx.store;
    const all = ftsMatchExpression(args.query, 'all');
    if (all === null) return [];
    const hits: KeywordHit[] = await searchExamplePatterns(store, all, args.limit, args.example_name);
    const any = ftsMatchExpression(args.query, 'any');
    if (hits.length < args.limit && any !== null && any !== all) {
      const seen = new Set(hits.map((h) => h.id));
      for (const hit of await searchExamplePatterns(store, any, args.limit, args.example_name)) {
        if (hits.length >= args.limit) break;
        if (!seen.has(hit.id)) hits.push(hit);
      }
    }
    return hits.map((hit) => ({
      id: hit.id,
      session_id: hit.sessionId,
      kind: hit.kind,
      snippet: makeSnippet(hit.content, args.query),
      score: Math.round(-hit.rank * 1000) / 1000,
      ts: hit.ts,
      task_id: hit.taskId,
    }));
  }

  async integratePlan(args: ExamplesIntegratePlanInput): Promise<IntegratePlan> {
    requireRoot(this.#ctx.roots, args.repo_root);
    const ws = Workspace.open(args.repo_root);
    const target = ws.resolve(args.target_hint ?? 'package.json', 'target_hint');
    const row = await getExample(this.#ctx.store, ws.root, args.example_name);
    if (!row) {
      throw new ColonyError(
        'PATH_NOT_FOUND',
        `example "${args.example_name}" is not indexed for ${ws.root}: run \`colony foraging scan\` (examples_list shows what is)`,
        { details: { example_name: args.example_name, repo_root: ws.root } },
      );
    }
    const summary = row.summary as unknown as ExampleSummary;
    const draft = buildIntegratePlan(
      row.exampleName,
      row.manifestKind as ManifestKind | null,
      summary,
      readTarget(target.abs, target.rel),
    );
    return withBudget(
      draft,
      {
        available: summary.copy_candidate_count,
        returned: draft.files_to_copy.length,
        hydrate_with: 'examples_query',
        why_collapsed: 'Only the first source files are listed; query the example for the rest.',
      },
      this.#ctx.tokens,
    );
  }
}

function entryOf(row: ExampleRow, status: ScanStatus, written: number): ScannedExample {
  return {
    example_name: row.exampleName,
    manifest_kind: row.manifestKind as ManifestKind | null,
    status,
    patterns_written: written,
    observation_count: row.observationCount,
  };
}

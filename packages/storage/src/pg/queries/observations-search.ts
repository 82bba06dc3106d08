/**
 * @module pg/queries/observations-search
 * Full-text search of the history on PostgreSQL (`keywordSearch`, `liveMatches` of
 * `src/observations.ts`) over the generated `content_tsv` column. The MATCH expression
 * built by `ftsMatchExpression` (quoted terms, space or OR) is read by
 * `websearch_to_tsquery('english', ...)`, which gives it the same AND / OR meaning.
 * Limits against FTS5: words are stemmed by the `english` configuration (FTS5's
 * `unicode61` does not stem, so "claims" also finds "claim" here) and stop words never
 * match; the rank is `-ts_rank_cd` (lower is better, as bm25), so the order of hits with
 * different scores can differ from SQLite's; ties and the pool bound are the same.
 */
import {
  type KeywordFilter,
  type KeywordHit,
  MATCH_CLOSE,
  MATCH_OPEN,
  type MarkedMatch,
  RANK_POOL,
} from '../../observations';
import { pgClient } from '../store/_handle';
import type { PgStore } from '../store/pg-store';
import { numbered } from './_common';
import { REF_NUMBERS } from './observations-timeline';

const QUERY = `websearch_to_tsquery('english', $1)`;
const O_COLUMNS = `o.id, o.session_id AS "sessionId", o.task_id AS "taskId", o.kind, o.ts, o.reply_to AS "replyTo"`;

/**
 * Nothing to do on PostgreSQL: `content_tsv` is a generated column, indexed with its
 * row. (SQLite indexes its history in batches: see src/_fts-batch.ts.)
 */
export async function indexPendingObservations(_store: PgStore): Promise<number> {
  return 0;
}

/** Ranked matches among the newest `RANK_POOL` (or `limit`) matches; the top `limit`, best first, ties newest first. */
export async function keywordSearch(
  store: PgStore,
  match: string,
  limit: number,
  filter: KeywordFilter = {},
): Promise<KeywordHit[]> {
  const params: unknown[] = [match];
  const where: string[] = [];
  const add = (column: string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(`AND o.${column} = $${params.length}`);
  };
  add('kind', filter.kind);
  add('task_id', filter.taskId);
  add('session_id', filter.sessionId);
  params.push(Math.max(RANK_POOL, limit), limit);
  const [pool, top] = [params.length - 1, params.length];
  const sql = `SELECT ${O_COLUMNS}, o.content, h.rank FROM (
      SELECT id, rank FROM (
        SELECT o.id, -ts_rank_cd(o.content_tsv, ${QUERY}) AS rank FROM observations o
        WHERE o.content_tsv @@ ${QUERY} ${where.join(' ')} ORDER BY o.id DESC LIMIT $${pool}) p
      ORDER BY rank, id DESC LIMIT $${top}) h
    JOIN observations o ON o.id = h.id ORDER BY h.rank, o.id DESC`;
  const { rows } = await pgClient(store).query(sql, params);
  return rows.map((r) => numbered<KeywordHit>(r, [...REF_NUMBERS, 'rank']));
}

/** The newest `limit` matches with id above `afterId`, newest first, matched words marked. */
export async function liveMatches(
  store: PgStore,
  match: string,
  afterId: number,
  limit: number,
): Promise<MarkedMatch[]> {
  const options = `StartSel=${MATCH_OPEN}, StopSel=${MATCH_CLOSE}, HighlightAll=true`;
  const { rows } = await pgClient(store).query(
    `SELECT ${O_COLUMNS}, ts_headline('english', o.content, ${QUERY}, $4) AS marked FROM (
       SELECT id FROM observations WHERE content_tsv @@ ${QUERY} AND id > $2 ORDER BY id DESC LIMIT $3) m
     JOIN observations o ON o.id = m.id ORDER BY o.id DESC`,
    [match, afterId, limit, options],
  );
  return rows.map((r) => numbered<MarkedMatch>(r, REF_NUMBERS));
}

import { join } from 'node:path';
import { noteStream, SESSION_COUNT, sessionId, TASK_COUNT, taskBranch } from '../lib/corpus.mjs';
import { CONFIG, coordination, core, details, HOME, log, row, storage, TMP, vocabulary } from '../lib/setup.mjs';
import { fmtRate } from '../lib/util.mjs';

// ---------------------------------------------------------------- 1a. single inserts

export async function benchSingleInserts() {
  log(`[1/6] single inserts: ${CONFIG.singleInserts} task posts, one write transaction each`);
  const colony = core.openColony({ home: HOME, dbPath: join(TMP, 'single.db') });
  try {
    const thread = colony.tasks.thread({
      repo_root: TMP,
      branch: 'agent/bench/single',
      session_id: 'claude-bench-single',
      agent: 'claude',
    });
    const stream = noteStream(vocabulary, 11);
    const post = (n) =>
      colony.tasks.post({
        task_id: thread.task_id,
        session_id: 'claude-bench-single',
        kind: n.kind,
        content: n.content,
      });
    const warm = Array.from({ length: 200 }, () => stream.next());
    for (const n of warm) post(n);

    const notes = Array.from({ length: CONFIG.singleInserts }, () => stream.next());
    const t0 = performance.now();
    for (const n of notes) post(n);
    const libMs = performance.now() - t0;

    // The same through the tool surface: zod parsing, the post and its receipt (a second write).
    const toolNotes = Array.from({ length: CONFIG.toolInserts }, () => stream.next());
    const t1 = performance.now();
    for (const n of toolNotes) {
      const out = await colony.handleToolCall('task_post', {
        task_id: thread.task_id,
        session_id: 'claude-bench-single',
        kind: n.kind,
        content: n.content,
      });
      if (!out.ok) throw new Error(`task_post failed: ${out.text}`);
    }
    const toolMs = performance.now() - t1;

    const libRate = (CONFIG.singleInserts / libMs) * 1000;
    const toolRate = (CONFIG.toolInserts / toolMs) * 1000;
    details.single_inserts = {
      library: {
        count: CONFIG.singleInserts,
        ms: libMs,
        per_sec: libRate,
        us_each: (libMs * 1000) / CONFIG.singleInserts,
      },
      tool_call: {
        count: CONFIG.toolInserts,
        ms: toolMs,
        per_sec: toolRate,
        us_each: (toolMs * 1000) / CONFIG.toolInserts,
      },
    };
    row('insert, single (colony.tasks.post, 1 txn each)', `${fmtRate(libRate)} /s`, null, null);
    row("insert, single (handleToolCall('task_post') + receipt)", `${fmtRate(toolRate)} /s`, null, null);
  } finally {
    colony.close();
  }
}

// ---------------------------------------------------------------- 1b. the corpus store, batched

export const DB = join(TMP, 'corpus.db');
export const batchStats = { notes: 0, tokenizeMs: 0, insertMs: 0, generateMs: 0, tokens: 0, chars: 0, segments: [] };
export let corpusStream;
export let taskIds;

export function createCorpusStore() {
  const store = storage.openStore({ path: DB });
  const now = 1_714_000_000_000;
  taskIds = store.write(() => {
    for (let i = 0; i < SESSION_COUNT; i++) {
      storage.upsertSession(
        store,
        { id: sessionId(i), ide: sessionId(i).split('-')[0], agent: sessionId(i).split('-')[0] },
        now,
      );
    }
    const ids = [];
    for (let t = 0; t < TASK_COUNT; t++) {
      const { task } = storage.ensureTask(
        store,
        { repoRoot: '/work/repo', branch: taskBranch(t), title: `feature ${t}`, createdBySession: sessionId(t) },
        now,
      );
      ids.push(task.id);
      for (let s = t; s < SESSION_COUNT; s += TASK_COUNT) storage.joinTask(store, task.id, sessionId(s), 'claude', now);
    }
    return ids;
  });
  corpusStream = noteStream(vocabulary, 1);
  return store;
}

/** Grows the corpus store to `target` observations, 1,000 per write transaction. */
export function extendCorpus(store, target) {
  const tokens = coordination.createTokenCounter();
  tokens.count('warm the tokenizer up'); // loading it is a one-off, not a per-insert cost
  const segment = { from: batchStats.notes, to: target, tokenizeMs: 0, insertMs: 0 };
  while (batchStats.notes < target) {
    const size = Math.min(CONFIG.batch, target - batchStats.notes);
    const g0 = performance.now();
    const batch = [];
    for (let i = 0; i < size; i++) {
      const n = corpusStream.next();
      const seq = batchStats.notes + i;
      batch.push({
        sessionId: sessionId(n.sessionIndex),
        // about a quarter of notes are session-only (no task thread)
        taskId: n.taskIndex < 12 ? taskIds[n.taskIndex] : null,
        kind: n.kind,
        content: n.content,
        ts: 1_714_000_000_000 + seq * 1500,
      });
    }
    const t0 = performance.now();
    // As appendObservation does: the real tokenizer counts every body.
    for (const o of batch) {
      o.tokenCount = tokens.count(o.content);
      batchStats.tokens += o.tokenCount;
      batchStats.chars += o.content.length;
    }
    const t1 = performance.now();
    storage.insertObservations(store, batch);
    const t2 = performance.now();
    batchStats.generateMs += t0 - g0;
    segment.tokenizeMs += t1 - t0;
    segment.insertMs += t2 - t1;
    batchStats.tokenizeMs += t1 - t0;
    batchStats.insertMs += t2 - t1;
    batchStats.notes += size;
  }
  batchStats.segments.push(segment);
  return segment;
}

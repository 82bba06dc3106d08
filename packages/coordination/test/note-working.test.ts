/**
 * task_note_working: posts working state to the one active task that matches, refuses
 * to guess between several, and touches the OMX notepad only as the contract allows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getObservation } from '@swarm/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { pointerLine } from '../src/tasks/omx-notepad';
import { createFixture, type Fixture, START } from './_fixture';

const WORKING =
  'branch=agent/codex/current-work; task=finish API slice; blocker=none; next=run typecheck; evidence=tests/api.test.ts';

let fx: Fixture;
afterEach(() => fx.close());

const notepad = (repo: string) => join(repo, '.omx', 'notepad.md');

async function joined(f: Fixture, repo: string, branch: string, session = 'codex-1') {
  return (
    await f.ok<{ task_id: number }>('task_thread', { repo_root: repo, branch, session_id: session, agent: 'codex' })
  ).task_id;
}

describe('task_note_working', () => {
  it('posts a working note to the one matching active task', async () => {
    fx = createFixture();
    const repo = fx.repo('repo');
    const taskId = await joined(fx, repo, 'agent/codex/current-work');
    fx.clock.advance(50);
    const result = await fx.ok('task_note_working', { session_id: 'codex-1', content: WORKING });
    expect(result).toEqual({ observation_id: result.observation_id, id: result.observation_id, task_id: taskId });
    const row = getObservation(fx.store, result.observation_id as number);
    expect(row).toMatchObject({
      kind: 'note',
      taskId,
      sessionId: 'codex-1',
      content: WORKING,
      ts: START + 50,
      metadata: { working: true },
    });
    expect(existsSync(notepad(repo))).toBe(false); // the bridge is off by default
  });

  it('keeps an explicit pointer in the note metadata', async () => {
    fx = createFixture();
    await joined(fx, fx.repo('repo'), 'main');
    const pointer = { next: 'push PR', evidence: 'pnpm test' };
    const result = await fx.ok('task_note_working', { session_id: 'codex-1', content: 'working', pointer });
    expect(getObservation(fx.store, result.id as number)?.metadata).toEqual({ working: true, pointer });
  });

  it('narrows by repo_root and branch when the session has several active tasks', async () => {
    fx = createFixture();
    const repo = fx.repo('repo');
    await joined(fx, repo, 'one');
    const two = await joined(fx, repo, 'two');
    const result = await fx.ok('task_note_working', {
      session_id: 'codex-1',
      repo_root: repo,
      branch: 'two',
      content: WORKING,
    });
    expect(result.task_id).toBe(two);
  });

  it('answers AMBIGUOUS_ACTIVE_TASK with compact candidates, writing nothing anywhere', async () => {
    fx = createFixture();
    const repo = fx.repo('repo');
    const one = await joined(fx, repo, 'one');
    fx.clock.advance(10);
    const two = await joined(fx, repo, 'two');
    const before = fx.observations();
    const error = await fx.fail('task_note_working', {
      session_id: 'codex-1',
      content: WORKING,
      repo_root: repo,
      allow_omx_notepad_fallback: true,
    });
    expect(error.code).toBe('AMBIGUOUS_ACTIVE_TASK');
    expect(error.candidates).toEqual([
      { task_id: two, repo_root: repo, branch: 'two', status: 'active', updated_at: START + 10, agent: 'codex' },
      { task_id: one, repo_root: repo, branch: 'one', status: 'active', updated_at: START, agent: 'codex' },
    ]);
    for (const c of error.candidates as object[]) {
      expect(Object.keys(c).sort()).toEqual(['agent', 'branch', 'repo_root', 'status', 'task_id', 'updated_at']);
    }
    expect(fx.observations()).toBe(before);
    expect(existsSync(notepad(repo))).toBe(false);
  });

  it('answers ACTIVE_TASK_NOT_FOUND when nothing matches, without a notepad unless allowed', async () => {
    fx = createFixture();
    const repo = fx.repo('repo');
    await joined(fx, repo, 'main');
    const before = fx.observations();
    const error = await fx.fail('task_note_working', {
      session_id: 'codex-1',
      repo_root: repo,
      branch: 'no-such-branch',
      content: WORKING,
    });
    expect(error).toMatchObject({ code: 'ACTIVE_TASK_NOT_FOUND', session_id: 'codex-1' });
    expect(error).not.toHaveProperty('omx_notepad_path');
    expect(fx.observations()).toBe(before);
    expect(existsSync(notepad(repo))).toBe(false);
  });

  it('writes the fallback pointer when allowed and nothing matches, and says where', async () => {
    fx = createFixture();
    const repo = fx.repo('repo');
    await fx.ok('task_thread', { repo_root: fx.repo('other'), branch: 'main', session_id: 'codex-1', agent: 'codex' });
    const before = fx.observations();
    const error = await fx.fail('task_note_working', {
      session_id: 'codex-1',
      repo_root: repo,
      content: WORKING,
      allow_omx_notepad_fallback: true,
    });
    expect(error.code).toBe('ACTIVE_TASK_NOT_FOUND');
    expect(error.omx_notepad_path).toBe(notepad(repo));
    expect(readFileSync(notepad(repo), 'utf8')).toBe(
      'branch=agent/codex/current-work; task=finish API slice; blocker=none; next=run typecheck; evidence=tests/api.test.ts; colony_observation_id=none\n',
    );
    expect(fx.observations()).toBe(before);
  });

  it('answers ACTIVE_TASK_NOT_FOUND for a session that joined nothing', async () => {
    fx = createFixture();
    expect((await fx.fail('task_note_working', { session_id: 'ghost', content: 'x' })).code).toBe(
      'ACTIVE_TASK_NOT_FOUND',
    );
  });

  it('with bridge.writeOmxNotepadPointer appends one pointer line per successful note', async () => {
    fx = createFixture({ bridge: { writeOmxNotepadPointer: true } });
    const repo = fx.repo('repo');
    await joined(fx, repo, 'agent/codex/current-work');
    const first = await fx.ok('task_note_working', { session_id: 'codex-1', content: WORKING });
    expect(first.omx_notepad_path).toBe(notepad(repo));
    const second = await fx.ok('task_note_working', {
      session_id: 'codex-1',
      content: 'plain progress text\nwith no fields',
      pointer: { blocker: 'flaky;test', next: 'rerun\nCI' },
    });
    const lines = readFileSync(notepad(repo), 'utf8').split('\n');
    expect(lines).toEqual([
      `branch=agent/codex/current-work; task=finish API slice; blocker=none; next=run typecheck; evidence=tests/api.test.ts; colony_observation_id=${first.id}`,
      `branch=agent/codex/current-work; task=agent/codex/current-work; blocker=flaky test; next=rerun CI; evidence=none; colony_observation_id=${second.id}`,
      '',
    ]);
    // Only the pointer: the note body never lands in the notepad.
    expect(readFileSync(notepad(repo), 'utf8')).not.toContain('plain progress text');
  });
});

describe('task_note_working with a repo_root that is not a directory', () => {
  it('keeps the note and answers a warning instead of a pointer', async () => {
    fx = createFixture({ bridge: { writeOmxNotepadPointer: true } });
    const missing = join(fx.dir, 'not-cloned-here');
    const taskId = await joined(fx, missing, 'main');
    const before = fx.observations();
    const result = await fx.ok('task_note_working', { session_id: 'codex-1', content: WORKING });
    expect(result.task_id).toBe(taskId);
    expect(result).not.toHaveProperty('omx_notepad_path');
    expect(result.warning).toMatch(/not an existing directory/);
    expect(fx.observations()).toBe(before + 1);
    expect(existsSync(missing)).toBe(false); // colony never creates a repository
  });

  it('answers the fallback with omx_notepad_warning and creates nothing', async () => {
    fx = createFixture();
    await fx.ok('task_thread', { repo_root: fx.repo('other'), branch: 'main', session_id: 'codex-1', agent: 'codex' });
    const missing = join(fx.dir, 'not-cloned-here');
    const error = await fx.fail('task_note_working', {
      session_id: 'codex-1',
      repo_root: missing,
      content: WORKING,
      allow_omx_notepad_fallback: true,
    });
    expect(error.code).toBe('ACTIVE_TASK_NOT_FOUND');
    expect(error).not.toHaveProperty('omx_notepad_path');
    expect(error.omx_notepad_warning).toMatch(/not an existing directory/);
    expect(existsSync(missing)).toBe(false);
  });
});

describe.skipIf(!existsSync('/proc/self'))('task_note_working with repo_root /proc', () => {
  // procfs answers ENOENT to mkdir under an existing folder; mkdir { recursive: true } then spins forever.
  it('answers the fallback with a warning at once instead of hanging the server', async () => {
    fx = createFixture();
    await fx.ok('task_thread', { repo_root: fx.repo('other'), branch: 'main', session_id: 'codex-1', agent: 'codex' });
    const error = await fx.fail('task_note_working', {
      session_id: 'codex-1',
      repo_root: '/proc',
      content: WORKING,
      allow_omx_notepad_fallback: true,
    });
    expect(error.code).toBe('ACTIVE_TASK_NOT_FOUND');
    expect(error.omx_notepad_warning).toMatch(/ENOENT/);
  });

  it('keeps the note and warns when the bridge cannot write there', async () => {
    fx = createFixture({ bridge: { writeOmxNotepadPointer: true } });
    await joined(fx, '/proc', 'main');
    const result = await fx.ok('task_note_working', { session_id: 'codex-1', content: WORKING });
    expect(result.warning).toMatch(/ENOENT/);
    expect(result.observation_id).toBeGreaterThan(0);
  });
});

describe('pointerLine', () => {
  it('writes the contract field order, with none for blanks', () => {
    expect(
      pointerLine({ branch: 'b', task: 't', blocker: '', next: 'n', evidence: 'e', colony_observation_id: 12 }),
    ).toBe('branch=b; task=t; blocker=none; next=n; evidence=e; colony_observation_id=12');
  });
});

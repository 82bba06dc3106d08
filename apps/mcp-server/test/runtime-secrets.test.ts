/**
 * Secrets given to the runtime tools (exec_parallel `env`, swarm_run `env_vars` and task
 * `env`) over the real MCP SDK client: they never reach the store's file bytes, the
 * per-task logs or the responses, including a secret the command writes in two chunks
 * and one the output cap cuts through; and an idempotency_key's stored fingerprint does
 * not depend on their values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GIT_IDENTITY, removeRepos, tempRepo } from './_git';
import { type Server, serverFleet, tempDir } from './_harness';
import { storeBytes } from './_store-probe';

const fleet = serverFleet();
afterEach(async () => {
  await fleet.closeAll();
  removeRepos();
});

const server = (db: string): Promise<Server> => fleet.start(db, undefined, { flags: ['--allow-exec'] });

/** Prints `$VAR` in two writes with a pause between, so it reaches the server in two chunks. */
function straddle(variable: string, cut: number, stream = ''): string {
  const half = (range: string) => `printf %s "$(printf %s "$${variable}" | cut -c${range})"${stream}`;
  return `${half(`1-${cut}`)}; sleep 0.3; ${half(`${cut + 1}-`)}; echo${stream}`;
}

/** Asserts none of the texts holds the secret or its distinctive first half. */
function expectAbsent(secret: string, where: string, ...texts: (string | Buffer)[]): void {
  for (const text of texts) {
    expect(text.includes(secret), where).toBe(false);
    expect(text.includes(secret.slice(0, 8)), `${where}: a prefix`).toBe(false);
  }
}

describe('secrets in exec_parallel env', () => {
  it('are masked across chunks and before the cap, and their values are not part of the stored fingerprint', async () => {
    const root = tempRepo();
    const db = join(tempDir(), 'colony.db');
    const s = await server(db);
    await s.call('workspace_fork', { repo_root: root, names: ['ws-a'] });
    const secret = 'sk-live-exec-5150-abcdef';
    const keyed = {
      repo_root: root,
      workspace_ids: ['ws-a'],
      commands: `${straddle('TOKEN', 10)}; ${straddle('TOKEN', 5, ' >&2')}`,
      idempotency_key: 'secret-1',
    };
    const chunked = await s.call('exec_parallel', { ...keyed, env: { TOKEN: secret } });
    expect(chunked.payload.results[0]).toMatchObject({ exit_code: 0, stdout: '***\n', stderr: '***\n' });
    // The same key with another value of TOKEN replays the first answer: the stored hash knows no value.
    const rotated = await s.call('exec_parallel', { ...keyed, env: { TOKEN: 'sk-live-other-value-0000' } });
    expect(rotated.payload).toEqual(chunked.payload);
    // Another variable name is another call.
    const renamed = await s.call('exec_parallel', { ...keyed, env: { OTHER: secret } });
    expect(renamed.payload.code).toBe('IDEMPOTENCY_KEY_REUSED');

    // The cap (9 bytes) falls inside the secret: the output was masked first, so none of it shows.
    const cut = await s.call('exec_parallel', {
      repo_root: root,
      workspace_ids: ['ws-a'],
      commands: 'printf "xxxxx%s-tail" "$TOKEN"',
      env: { TOKEN: secret },
      max_output_bytes: 9,
    });
    expect(cut.payload.results[0]).toMatchObject({ stdout: 'xxxxx***-', truncated: true });
    expectAbsent(secret, 'responses', chunked.text, rotated.text, cut.text);
    await s.close();
    const stored = storeBytes(db);
    expect(Buffer.concat(stored).includes('secret-1'), 'the store holds the call').toBe(true);
    expectAbsent(secret, 'store', ...stored);
  });
});

describe('secrets in swarm_run env_vars and task env', () => {
  it('never reach the store, the per-task logs or the response, split across chunks included', async () => {
    const root = tempRepo();
    const db = join(tempDir(), 'colony.db');
    const s = await server(db);
    const shared = 'sk-live-shared-7777-zyxwvu';
    const own = 'sk-live-task-8888-qrstuv';
    const r = await s.call('swarm_run', {
      repo_root: root,
      tasks: [
        { name: 'shared', command: `${straddle('API_KEY', 12)}; ${straddle('API_KEY', 3, ' >&2')}` },
        { name: 'own', command: straddle('TASK_TOKEN', 9), env: { TASK_TOKEN: own } },
        { name: 'fails', command: `echo "bad $API_KEY" >&2; exit 3` },
      ],
      env_vars: { API_KEY: shared, ...GIT_IDENTITY },
      idempotency_key: 'swarm-secret',
    });
    const [sharedTask, ownTask, failed] = r.payload.tasks;
    expect(sharedTask).toMatchObject({ success: true, stdout: '***\n', stderr: '***\n' });
    expect(ownTask).toMatchObject({ success: true, stdout: '***\n' });
    expect(failed).toMatchObject({ success: false, exit_code: 3, stderr: 'bad ***\n' });
    const status = await s.call('swarm_status', { swarm_id: r.payload.swarm_id });
    const collected = await s.call('swarm_collect', { swarm_id: r.payload.swarm_id });
    // A retry with the key and other secret values replays the stored answer.
    const replay = await s.call('swarm_run', {
      repo_root: root,
      tasks: [
        { name: 'shared', command: `${straddle('API_KEY', 12)}; ${straddle('API_KEY', 3, ' >&2')}` },
        {
          name: 'own',
          command: straddle('TASK_TOKEN', 9),
          env: { TASK_TOKEN: 'sk-live-rotated-0000' },
        },
        { name: 'fails', command: `echo "bad $API_KEY" >&2; exit 3` },
      ],
      env_vars: { API_KEY: 'sk-live-rotated-1111', ...GIT_IDENTITY },
      idempotency_key: 'swarm-secret',
    });
    expect(replay.payload).toEqual(r.payload);
    for (const secret of [shared, own]) expectAbsent(secret, 'responses', r.text, status.text, collected.text);
    const logs = join(root, '.colony', 'logs', 'swarm', r.payload.swarm_id);
    const logged = readdirSync(logs).map((f) => readFileSync(join(logs, f), 'utf8'));
    expect(logged.join('')).toContain('bad ***');
    await s.close();
    const stored = storeBytes(db);
    expect(Buffer.concat(stored).includes(r.payload.swarm_id), 'the store holds the run').toBe(true);
    for (const secret of [shared, own]) {
      expectAbsent(secret, 'logs', ...logged);
      expectAbsent(secret, 'store', ...stored);
    }
  });
});

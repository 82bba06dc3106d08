/**
 * colony-mcp answers plain tools/call requests on its stdio fast path (the SDK server's
 * per-message parsing skipped) with the same bytes as the SDK path that
 * COLONY_MCP_FASTPATH=0 keeps: two real processes on fresh stores with one fixed clock
 * get the same lines and give the same answers, ok, tool errors, unknown tools, bad
 * and malformed arguments alike.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { dbFor } from './_backend';
import { SERVER_MAIN, setClock, tempDir } from './_harness';
import { type Message, rawServer } from './_raw-stdio';

const servers: Array<ReturnType<typeof rawServer>> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** Every answer of one process to the same exchange, as JSON text. */
async function exchange(repo: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const home = tempDir('colony-fast-');
  const clock = join(home, 'clock');
  setClock(clock, 1_800_000_000_000);
  const server = rawServer([SERVER_MAIN, '--db', dbFor(join(home, 'c.db'))], home, {
    COLONY_CLOCK_FILE: clock,
    ...env,
  });
  servers.push(server);
  const answers: Message[] = [];
  answers.push(
    await server.request('initialize', {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS[0]!,
      capabilities: {},
      clientInfo: { name: 'fast-path-test', version: '1.0.0' },
    }),
  );
  server.notify('notifications/initialized');
  const call = async (name: unknown, args?: unknown) =>
    answers.push(await server.request('tools/call', { name, ...(args === undefined ? {} : { arguments: args }) }));
  await call('task_thread', { repo_root: repo, branch: 'main', session_id: 's1', agent: 'codex' });
  await call('task_post', { task_id: 1, session_id: 's1', kind: 'note', content: 'first post' });
  await call('task_post', { task_id: 1, session_id: 's1', kind: 'note' });
  await call('task_post', { task_id: 999, session_id: 's1', kind: 'note', content: 'no such task' });
  await call('no_such_tool', {});
  await call('task_list');
  await call('task_post', 'not an object');
  await call(42, {});
  return answers.map((answer) => JSON.stringify(answer));
}

describe('colony-mcp tools/call fast path', () => {
  it('answers as the SDK path does (COLONY_MCP_FASTPATH=0), byte for byte', async () => {
    const repo = join(tempDir('colony-fast-repo-'), 'repo');
    mkdirSync(repo);
    const [fast, sdk] = await Promise.all([exchange(repo, {}), exchange(repo, { COLONY_MCP_FASTPATH: '0' })]);
    expect(fast).toHaveLength(9);
    expect(fast).toEqual(sdk);
    expect(JSON.parse(fast[2]!).result.isError).toBeUndefined();
    expect(JSON.parse(fast[3]!).result.isError).toBe(true);
    expect(JSON.parse(fast[7]!).error.code).toBe(-32603); // the SDK's answer to arguments that are not a record
  });
});

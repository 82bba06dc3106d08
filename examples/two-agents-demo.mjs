#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Two agents sharing memory through colony's MCP server.
//
// "Claude" and "Codex" each get their own colony MCP server process (as two IDEs
// would), both on the embedded SQLite store ($COLONY_HOME/colony.db, default
// ~/.colony). Claude records a decision and a dead end; Codex, in the other process,
// finds them with a compact search, hydrates only what it needs, and replies; Claude
// sees the reply with task_updates_since. Run: `pnpm demo` (after `pnpm install`).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(root, 'apps/mcp-server/dist/main.js');
const run = new Date()
  .toISOString()
  .replace(/[-:.TZ]/g, '')
  .slice(0, 14);
const extraArgs = process.argv.slice(2); // e.g. --db /tmp/demo.db

async function connect(name) {
  const client = new Client({ name: `${name}-demo`, version: '1.0.0' });
  await client.connect(
    // The SDK passes only a minimal environment to servers: hand on ours, so
    // COLONY_HOME and friends reach them.
    new StdioClientTransport({
      command: process.execPath,
      args: [server, ...extraArgs],
      env: { ...process.env },
      stderr: 'inherit',
    }),
  );
  return {
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args });
      const payload = JSON.parse(result.content[0].text);
      if (result.isError) throw new Error(`${tool} -> ${payload.code}: ${payload.error}`);
      return payload;
    },
    close: () => client.close(),
  };
}

const say = (who, text) => console.log(`${who.padEnd(6)} ${text}`);

const claude = await connect('claude');
const codex = await connect('codex');
try {
  const repo = root;
  const branch = `demo/shared-memory-${run}`;
  const claudeSession = `claude-demo-${run}`;
  const codexSession = `codex-demo-${run}`;

  const thread = await claude.call('task_thread', {
    repo_root: repo,
    branch,
    session_id: claudeSession,
    agent: 'claude',
  });
  say('claude', `opened task #${thread.task_id} on ${branch}`);
  await claude.call('task_post', {
    task_id: thread.task_id,
    session_id: claudeSession,
    kind: 'decision',
    content: `Run ${run}: rate limiter uses a token bucket per agent, stored in apps/api/src/rate-limit.ts`,
  });
  await claude.call('task_post', {
    task_id: thread.task_id,
    session_id: claudeSession,
    kind: 'failed_approach',
    content: `Run ${run}: a global mutex around the rate limiter deadlocked the websocket tests; do not retry it`,
  });
  say('claude', 'posted a decision and a failed_approach warning');

  const joined = await codex.call('task_thread', { repo_root: repo, branch, session_id: codexSession, agent: 'codex' });
  say('codex', `joined task #${joined.task_id} (participants: ${joined.participants.map((p) => p.agent).join(', ')})`);
  const hits = await codex.call('search', { query: `rate limiter ${run}`, limit: 5 });
  say('codex', `search "rate limiter" -> ${hits.length} compact hits (no bodies):`);
  for (const hit of hits) say('', `  #${hit.id} [${hit.kind}] ${hit.snippet}`);
  const warning = hits.find((h) => h.kind === 'failed_approach');
  const [body] = await codex.call('get_observations', { ids: [warning.id] });
  say('codex', `hydrated only #${body.id}: "${body.content}"`);
  await codex.call('task_post', {
    task_id: joined.task_id,
    session_id: codexSession,
    kind: 'answer',
    content: 'Understood: keeping the per-agent token bucket, no global mutex.',
    reply_to: warning.id,
  });
  say('codex', 'replied on the thread');

  const updates = await claude.call('task_updates_since', {
    task_id: thread.task_id,
    session_id: claudeSession,
    since_ts: 0,
  });
  const reply = updates.find((u) => u.kind === 'answer');
  const [answer] = await claude.call('get_observations', { ids: [reply.id] });
  say('claude', `sees codex's reply from the other process: "${answer.content}"`);
  console.log('\nTwo server processes, one store: memory shared, nothing lost.');
} finally {
  await claude.close();
  await codex.close();
}

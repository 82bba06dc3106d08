#!/usr/bin/env node
// colony inside another agent framework, without MCP.
//
// The framework gives its model colony's tools as OpenAI function schemas, and runs
// each tool call the model makes through `colony.handleToolCall(name, args)`. Here a
// scripted "model" stands in for a real one, so the example runs offline.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openColony } from '@swarm/core';

const colony = openColony({ home: mkdtempSync(join(tmpdir(), 'colony-example-')) });
const tools = colony.toOpenAITools('core');
console.log(`framework registered ${tools.length} colony tools: ${tools.map((t) => t.function.name).join(', ')}`);

// What a model might answer, turn by turn: one tool call per turn.
const script = [
  {
    name: 'task_thread',
    arguments: { repo_root: '/work/app', branch: 'main', session_id: 'myagent-1', agent: 'myagent' },
  },
  {
    name: 'task_post',
    arguments: {
      task_id: 1,
      session_id: 'myagent-1',
      kind: 'decision',
      content: 'Cache invalidation goes through the event bus.',
    },
  },
  { name: 'search', arguments: { query: 'cache invalidation' } },
  { name: 'task_post', arguments: { task_id: 1, session_id: 'myagent-1', kind: 'gossip', content: 'x' } },
];

for (const call of script) {
  const outcome = await colony.handleToolCall(call.name, call.arguments);
  // The text is what goes back to the model as the tool result.
  console.log(`${call.name} -> ${outcome.ok ? 'ok' : `error ${outcome.error.code}`}: ${outcome.text}`);
}
await colony.close();

#!/usr/bin/env node
// An Anthropic tool_use loop over colony's context mesh and messages (seed 001).
//
// Each agent of the team is one conversation with Claude through @anthropic-ai/sdk:
// the model gets colony's seven function-calling schemas as tools, every tool_use
// block it answers with runs through `colony.handleToolCall`, and the results go back
// as tool_result blocks until the model stops asking for tools.
//
//   ANTHROPIC_API_KEY=... node examples/anthropic-tool-use-loop.mjs [--stream]
//
// Without ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL) it runs offline: a local server
// on 127.0.0.1 speaks the Messages API and answers from a scripted model.
// COLONY_HOME picks the store (default: a fresh temporary folder).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { openColony } from '@swarm/core';
import { callAs, OFFLINE_SCRIPT, systemPrompt, TEAM } from './_mesh-demo.mjs';

const { env } = process;

const stream = process.argv.includes('--stream');
const model = env.ANTHROPIC_MODEL ?? 'claude-sonnet-5-5';
const MAX_TURNS = 10;

const offline = !env.ANTHROPIC_API_KEY && !env.ANTHROPIC_BASE_URL;
const fake = offline
  ? await (await import('../test/support/fake-anthropic.mjs')).startFakeAnthropic({ script: OFFLINE_SCRIPT })
  : null;
if (fake) console.log(`no ANTHROPIC_API_KEY: a scripted Messages API server on ${fake.baseURL}`);
const client = new Anthropic(fake ? { baseURL: fake.baseURL, apiKey: 'offline' } : {});

const colony = openColony({ home: env.COLONY_HOME ?? mkdtempSync(join(tmpdir(), 'colony-example-')) });
// getSchemas() is seed 001's OpenAI-format list; the Messages API calls the same schema input_schema.
const tools = colony.getSchemas().map(({ function: f }) => ({
  name: f.name,
  description: f.description,
  input_schema: f.parameters,
}));
console.log(`${tools.length} colony tools for Claude (${stream ? 'streaming' : 'not streaming'})`);

try {
  for (const { agent, task } of TEAM) {
    const messages = [{ role: 'user', content: task }];
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      const params = { model, max_tokens: 1024, system: systemPrompt(agent), tools, messages };
      const reply = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
      messages.push({ role: 'assistant', content: reply.content });
      const uses = reply.content.filter((block) => block.type === 'tool_use');
      if (reply.stop_reason !== 'tool_use' || uses.length === 0) {
        const text = reply.content.filter((block) => block.type === 'text').map((block) => block.text);
        console.log(`[${agent}] says: ${text.join(' ')}`);
        break;
      }
      const results = [];
      for (const use of uses) {
        const outcome = await callAs(colony, agent, use.name, use.input);
        results.push({ type: 'tool_result', tool_use_id: use.id, content: outcome.text, is_error: !outcome.ok });
      }
      messages.push({ role: 'user', content: results });
    }
  }
} finally {
  await colony.close();
  await fake?.close();
}

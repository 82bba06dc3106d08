#!/usr/bin/env node
// An OpenAI-style function-calling loop over colony's context mesh and messages
// (seed 001), with nothing but fetch: any server speaking the Chat Completions API
// works (OpenAI, or a local model behind an OpenAI-compatible endpoint).
//
// Each agent of the team is one conversation: `colony.getSchemas()` is sent as
// `tools` as it is (seed 001's schemas are OpenAI function schemas), every tool call
// the model answers with runs through `colony.handleToolCall`, and the results go
// back as `tool` messages until the model stops calling tools.
//
//   OPENAI_API_KEY=... [OPENAI_BASE_URL=...] node examples/openai-function-calling-loop.mjs
//
// Without OPENAI_API_KEY (and OPENAI_BASE_URL) it runs offline: a local server on
// 127.0.0.1 speaks the Chat Completions API and answers from a scripted model.
// COLONY_HOME picks the store (default: a fresh temporary folder).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openColony } from '@swarm/core';
import { callAs, OFFLINE_SCRIPT, systemPrompt, TEAM } from './_mesh-demo.mjs';

const { env } = process;

const model = env.OPENAI_MODEL ?? 'gpt-5';
const MAX_TURNS = 10;

const offline = !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL;
const fake = offline
  ? await (await import('../test/support/fake-openai.mjs')).startFakeOpenAI({ script: OFFLINE_SCRIPT })
  : null;
if (fake) console.log(`no OPENAI_API_KEY: a scripted Chat Completions server on ${fake.baseURL}`);
const baseURL = fake?.baseURL ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
const apiKey = fake ? 'offline' : (env.OPENAI_API_KEY ?? '');

/** One Chat Completions request; the assistant message and why it stopped. */
async function complete(body) {
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`chat completions: HTTP ${response.status}: ${await response.text()}`);
  const { choices } = await response.json();
  return choices[0];
}

const colony = openColony({ home: env.COLONY_HOME ?? mkdtempSync(join(tmpdir(), 'colony-example-')) });
const tools = colony.getSchemas();
console.log(`${tools.length} colony tools as OpenAI functions: ${tools.map((t) => t.function.name).join(', ')}`);

try {
  for (const { agent, task } of TEAM) {
    const messages = [
      { role: 'system', content: systemPrompt(agent) },
      { role: 'user', content: task },
    ];
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      const { message, finish_reason } = await complete({ model, messages, tools, tool_choice: 'auto' });
      messages.push(message);
      const calls = message.tool_calls ?? [];
      if (finish_reason !== 'tool_calls' || calls.length === 0) {
        console.log(`[${agent}] says: ${message.content ?? ''}`);
        break;
      }
      for (const call of calls) {
        let input;
        try {
          input = JSON.parse(call.function.arguments || '{}');
        } catch {
          input = null; // not JSON: colony answers INVALID_PARAMETERS, and the model sees why
        }
        const outcome = await callAs(colony, agent, call.function.name, input);
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.text });
      }
    }
  }
} finally {
  await colony.close();
  await fake?.close();
}

#!/usr/bin/env node
// A stand-in for `codex exec --json --model <m> <prompt>`: JSONL thread/turn/item events.
const args = process.argv.slice(2);
const prompt = args.at(-1);
const out = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
out({ type: 'thread.started', thread_id: 't1' });
out({ type: 'turn.started' });
if (prompt.includes('FAIL')) {
  out({ type: 'turn.failed', error: { message: 'model refused' } });
  process.exit(1);
}
out({ type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: 'git status', exit_code: 0 } });
out({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: `codex says: ${prompt}` } });
out({ type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 10 } });

#!/usr/bin/env node
// A stand-in for `claude -p <prompt> --output-format stream-json --verbose --model <m> --append-system-prompt <s>`:
// prints the stream-json lines Claude Code prints. A prompt containing FAIL exits 3.
const args = process.argv.slice(2);
const value = (flag) => args[args.indexOf(flag) + 1];
const prompt = value('-p');
const out = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
out({ type: 'system', subtype: 'init', session_id: 's1', cwd: process.cwd(), model: value('--model') });
if (prompt.includes('FAIL')) {
  process.stderr.write('fake-claude: something broke\n');
  process.exit(3);
}
console.log('not json: a log line the parser must skip');
out({
  type: 'assistant',
  message: {
    content: [
      {
        type: 'text',
        text: `cwd=${process.cwd()} model=${value('--model')} system=${value('--append-system-prompt')}`,
      },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
    ],
  },
});
out({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] } });
out({ type: 'assistant', message: { content: [{ type: 'text', text: `done: ${prompt}` }] } });
out({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'done',
  total_cost_usd: 0.0123,
  usage: { input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 5, cache_read_input_tokens: 7 },
});

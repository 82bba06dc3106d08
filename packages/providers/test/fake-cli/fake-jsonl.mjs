#!/usr/bin/env node
// colony's JSON-lines contract: text, tool_use, usage, result.
const out = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const prompt = process.argv[2] ?? '';
out({ type: 'text', text: `got: ${prompt}` });
out({ type: 'tool_use', name: 'edit', input: { path: 'x' } });
out({ type: 'usage', input_tokens: 3, output_tokens: 4 });
out({ type: 'usage', input_tokens: 1, output_tokens: 1 });
out({
  type: 'result',
  status: prompt.includes('FAIL') ? 'error' : 'success',
  message: prompt.includes('FAIL') ? 'gave up' : undefined,
});

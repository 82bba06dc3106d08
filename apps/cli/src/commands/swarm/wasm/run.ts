/**
 * `colony swarm wasm run <tool> [--input FILE] [--json]`: one invocation of a WASM tool
 * from the project's `wasm_tools`, as an agent's call runs. The input is the file's JSON
 * (default `{}`). Prints the output (and log entries); a failure prints
 * `<Kind>: <message>` (the seed's error kinds) and exits 1.
 */
import { readFileSync } from 'node:fs';
import { defineCommand } from 'citty';
import { storeArgs } from '../../../_colony';
import { CliError, printJson, printLines } from '../../../_output';
import { control, controlOptions, repoArg } from '../_session';

export default defineCommand({
  meta: { name: 'run', description: 'Run one WASM tool on a JSON input file.' },
  args: {
    tool: { type: 'positional', description: 'Tool name (wasm_tools[].name)', required: true },
    input: { type: 'string', description: 'JSON input file (default {})', valueHint: 'file' },
    json: { type: 'boolean', description: 'Print the outcome as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    let input = '{}';
    if (args.input) {
      try {
        input = readFileSync(args.input, 'utf8');
        JSON.parse(input);
      } catch (error) {
        throw new CliError(`--input ${args.input}: ${(error as Error).message}`);
      }
    }
    const { runWasmTool } = await import('@swarm/core/runtime');
    const { cwd, home } = controlOptions(args);
    const result = await control(() => runWasmTool({ cwd, tool: String(args.tool), input, ...(home ? { home } : {}) }));
    if (args.json) printJson({ tool: result.tool, ok: result.ok, kind: result.kind, text: result.text });
    else printLines([result.text]);
    if (!result.ok) process.exitCode = 1;
  },
});

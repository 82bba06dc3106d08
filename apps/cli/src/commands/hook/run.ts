/**
 * `colony hook run <event> --ide <claude-code|codex>`: handles one IDE hook event. Reads
 * the IDE's hook JSON on stdin and prints what the IDE should show, in its format
 * (nothing when there is nothing to say). It never blocks the IDE: every failure,
 * bad input included, exits 1, which Claude Code and Codex both report and then
 * ignore; exit code 2, which they read as "block this tool call", is never used
 * (cli.ts maps usage errors of this command to 1).
 */
import {
  estimatingTokenCounter,
  formatHookOutput,
  HOOK_EVENTS,
  HOOK_IDES,
  HookInputError,
  isHookEvent,
  isHookIde,
  parseHookPayload,
} from '@swarm/core';
import { defineCommand } from 'citty';
import { usageError } from '../../_args';
import { storeArgs, withColony } from '../../_colony';
import { applyVerbose, debug, verboseArg } from '../../_debug';
import { CliError } from '../../_output';
import { readHookStdin } from '../../_stdin';

export default defineCommand({
  meta: { name: 'run', description: 'Handle one IDE hook event (the IDE hook JSON on stdin).' },
  args: {
    event: { type: 'positional', description: `Hook event: ${HOOK_EVENTS.join(', ')}`, required: true },
    ide: {
      type: 'string',
      description: `The IDE running the hook: ${HOOK_IDES.join(', ')}`,
      valueHint: 'ide',
      required: true,
    },
    ...storeArgs,
    ...verboseArg,
  },
  async run({ args }) {
    applyVerbose(args);
    const started = performance.now();
    const event = String(args.event);
    if (!isHookEvent(event)) throw usageError(`unknown hook event "${event}"; events: ${HOOK_EVENTS.join(', ')}`);
    if (!isHookIde(args.ide)) throw usageError(`unknown --ide "${args.ide}"; IDEs: ${HOOK_IDES.join(', ')}`);
    const ide = args.ide;
    let payload: ReturnType<typeof parseHookPayload>;
    try {
      const stdin = await readHookStdin();
      debug(`hook ${event} (${ide}): ${Buffer.byteLength(stdin)} bytes of input`);
      payload = parseHookPayload(event, stdin);
    } catch (error) {
      if (error instanceof HookInputError) throw new CliError(error.message);
      throw error;
    }
    // A hook writes a few short records; loading the tokenizer would cost more than the write.
    const result = await withColony(args, (colony) => colony.hooks.run(event, ide, payload), {
      tokens: estimatingTokenCounter(),
    });
    const output = formatHookOutput(ide, event, result);
    debug(`hook ${event} (${ide}): ${output.length} bytes out in ${Math.round(performance.now() - started)} ms`);
    process.stdout.write(output);
  },
});

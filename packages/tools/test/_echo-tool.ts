/** The `echo` tool the stdio tests serve: answers `{ echoed: text }` after `onText` saw the text (it may throw). */
import { z } from 'zod';
import { defineTool } from '../src/index';

export function echoTool(onText: (text: string) => void = () => {}) {
  return defineTool({
    name: 'echo',
    title: 'echo',
    description: 'Echo the text.',
    input: z.strictObject({ text: z.string() }),
    core: true,
    mutates: false,
    docs: { returns: '{ echoed }', example: { text: 'hi' } },
    handler: (args) => {
      onText(args.text);
      return { echoed: args.text };
    },
  });
}

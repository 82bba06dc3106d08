/** What the stdio tests share: the `echo` tool they serve and the client's handshake messages. */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool } from '../src/index';

/** Answers `{ echoed: text }` after `onText` saw the text (it may throw). */
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

/** A client's `initialize` request under `id`. */
export const initializeRequest = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '0' } },
});
export const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

/**
 * @module mcp/stdio
 * Serves MCP on this process's stdin/stdout until stdin closes.
 *
 * An IDE starts one server per session and waits for its handshake; many sessions
 * never call a tool. So the server reads newline-delimited JSON-RPC itself and answers
 * the plain handshake (initialize, ping, tools/list) from build-time data (see
 * `_handshake.ts`). The first other message loads the SDK server, replays the
 * initialize it answered (so the SDK knows the client) and hands every message from
 * then on to it. Without handshake data, the first message hands over.
 *
 * Warm-up: once the handshake is done (`notifications/initialized`, or tools/list
 * asked), the SDK server is loaded and told the replayed handshake in idle time
 * (`setImmediate`, after any line already read), and then the registry is told to warm
 * (`ToolSource.warm`: colony opens). Clients call tools seconds after initialize, so the
 * first call then costs about what a warm one does. Routing does not change: the
 * handshake is still answered here until the first other message hands over. A warm-up
 * that fails is silent; the hand-over meets the same failure and reports it, as without
 * warm-up.
 *
 * Once the SDK server has taken over, a plain tools/call is answered by the fast path
 * (`_fast-call.ts`): the same call the SDK server's handler makes, the same answer,
 * without the SDK's per-message parsing. Every other message is the SDK's.
 *
 * No runtime imports beyond node: the SDK and the registry load at warm-up or hand-over.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerHandshake, answerLine, type McpHandshake } from './_handshake';
import { answerModern, isModernRequest, type ModernServer, modernAnswer } from './_modern';
import type { McpServerOptions } from './_server';
import { LineSplitter, MAX_LINE_BYTES, oversizeAnswer, refusedMessageAnswer } from './_stdio-lines';

export interface StdioOptions extends McpServerOptions {
  /** Build-time handshake answers (`mcpHandshake`); without them the SDK answers everything. */
  readonly handshake?: McpHandshake;
  /** Told about transport errors (an unparsable line, a failed hand-over). */
  readonly onError?: (error: Error) => void;
  /** For tests: streams other than this process's stdin and stdout. */
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
  /** Epoch milliseconds for the timestamp of a transport-level refusal (default: the system clock). */
  readonly now?: () => number;
  /** For tests: the largest line accepted (default 10 MiB). */
  readonly maxLineBytes?: number;
  /** Load the SDK and warm the registry once the handshake is done (default true). */
  readonly warmUp?: boolean;
  /**
   * Answer plain tools/call requests here, calling what the SDK server's handler calls,
   * without the SDK's per-message parsing (default true; see `_fast-call.ts`).
   */
  readonly fastPath?: boolean;
}

export interface StdioHandle {
  /** Resolves when the client has gone (stdin ended) or close() was called. */
  readonly closed: Promise<void>;
  /** True once the SDK server has taken over (a message other than the handshake came). */
  readonly loaded: () => boolean;
  close(): Promise<void>;
}

/** Whether a line ends the handshake: the client's `notifications/initialized`, or it lists the tools. */
function handshakeDone(line: string): boolean {
  if (!line.includes('notifications/initialized') && !line.includes('tools/list')) return false;
  try {
    const { method } = JSON.parse(line) as { method?: unknown };
    return method === 'notifications/initialized' || method === 'tools/list';
  } catch {
    return false;
  }
}

function parseOrUndefined(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** The id under which the initialize answered from the handshake is replayed to the SDK. */
const REPLAY_ID = 'colony:replayed-initialize';

interface Sdk {
  /** Hands a line to the SDK server (or the fast path); `message` is the line parsed, when known. */
  deliver(line: string, message?: unknown): void;
  close(): Promise<void>;
}

export async function serveStdio(options: StdioOptions): Promise<StdioHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const toolset = options.toolset;
  const identity = {
    name: options.name ?? 'colony',
    version: options.version,
    ...(options.instructions ? { instructions: options.instructions } : {}),
  };

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  /** Handshake messages answered here, replayed to the SDK on hand-over. */
  const replay: string[] = [];
  let answeredInitialize = false;
  /** How many of `replay` the loaded SDK server has been told. */
  let replayed = 0;
  /** Lines that arrived while the SDK was loading. */
  let queued: string[] | undefined;
  /** The SDK server once loaded (by warm-up or hand-over); `sdk` once it has taken over. */
  let loading: Promise<Sdk> | undefined;
  let ready: Sdk | undefined;
  let sdk: Sdk | undefined;
  let ended = false;
  let warming = false;

  const write = (message: unknown) => stdout.write(`${JSON.stringify(message)}\n`);
  /** What `server/discover` tells (known only from the handshake data). */
  const modern: ModernServer | undefined = options.handshake && { ...options.handshake, identity };
  /** Modern requests handed to the SDK, by id: their answers get the fields revision 2026-07-28 requires. */
  const modernIds = new Map<unknown, string>();
  const fail = (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error)));

  const onLine = (line: string) => {
    route(line);
    if (!warming && handshakeDone(line)) warm();
  };

  const route = (line: string) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      // The SDK drops such lines too (its parse fails before any answer).
      if (!sdk && !queued && options.handshake) return refuse(line);
    }
    // Discovery and revision refusals are the front's even once the SDK has taken over:
    // the SDK knows neither.
    const own = modern && answerModern(message, modern);
    if (own) return void write(own);
    if (isModernRequest(message)) modernIds.set(message.id, message.method);
    if (sdk) return sdk.deliver(line, message);
    if (queued) return void queued.push(line);
    const answer = options.handshake ? answerFromHandshake(line, message) : undefined;
    if (answer) return void modernIds.delete((message as { id?: unknown }).id);
    queued = [line];
    prepare().then(
      (loaded) => {
        sdk = loaded;
        for (const pending of queued ?? []) sdk.deliver(pending);
        queued = undefined;
        if (ended) void sdk.close();
      },
      (error: unknown) => {
        fail(error);
        stop();
      },
    );
  };

  /** Loads the SDK server once and tells it the handshake answered so far. */
  const prepare = (): Promise<Sdk> => {
    loading ??= loadSdk().then((loaded) => {
      ready = loaded;
      flushReplay();
      return loaded;
    });
    return loading;
  };
  const flushReplay = () => {
    while (ready && replayed < replay.length) ready.deliver(replay[replayed++] as string);
  };

  /** After the handshake, in idle time: load the SDK, then let the registry warm (colony opens). */
  const warm = () => {
    if (warming || options.warmUp === false) return;
    warming = true;
    setImmediate(() => {
      if (ended) return;
      prepare().then(
        () => setImmediate(() => ended || options.registry.warm?.()),
        () => undefined, // the hand-over meets the same failure and reports it
      );
    });
  };

  /** Answers a line no message schema accepts: with an error when it has an id, else says so. */
  const refuse = (line: string) => {
    const answer = refusedMessageAnswer(line);
    if (answer) write(answer);
    else fail(new Error('stdio: a line that is not a JSON-RPC request was ignored (not JSON, or no id)'));
  };

  /** Answers a plain handshake line; true when answered, undefined when the SDK must decide. */
  const answerFromHandshake = (line: string, message: unknown): true | undefined => {
    const answer = answerHandshake(message, options.handshake as McpHandshake, identity, toolset);
    if (!answer) return undefined;
    if (answer.kind === 'initialized') {
      replay.push(line);
      flushReplay();
      return true;
    }
    if ((message as { method: string }).method === 'initialize') {
      if (answeredInitialize) return undefined; // a second initialize: the SDK's business
      answeredInitialize = true;
      replay.push(JSON.stringify({ ...(message as object), id: REPLAY_ID }));
      flushReplay();
    }
    stdout.write(answerLine(answer.id, answer.resultJson));
    return true;
  };

  const loadSdk = async (): Promise<Sdk> => {
    const [{ createServerWithCall, warmCallSchemas }, { deserializeMessage }, { FastCalls }] = await Promise.all([
      import('./_server'),
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
      import('./_fast-call'),
    ]);
    const tools = options.handshake?.tools[toolset];
    const { server, callTool } = createServerWithCall({
      ...options,
      ...(tools === undefined ? {} : { tools: JSON.parse(tools) }),
    });
    // The answer to the replayed initialize was written from the handshake already.
    let swallowedReplayAnswer = false;
    const transport = {
      onmessage: undefined as ((message: JSONRPCMessage) => void) | undefined,
      onerror: undefined as ((error: Error) => void) | undefined,
      onclose: undefined as (() => void) | undefined,
      async start() {},
      async send(message: JSONRPCMessage) {
        if (!swallowedReplayAnswer && answeredInitialize && 'id' in message && message.id === REPLAY_ID) {
          swallowedReplayAnswer = true;
          return;
        }
        const method = 'id' in message && !('method' in message) ? modernIds.get(message.id) : undefined;
        if (method !== undefined) {
          modernIds.delete((message as { id: unknown }).id);
          message = modernAnswer(method, message as never) as unknown as JSONRPCMessage;
        }
        if (!write(message)) await new Promise((resolve) => stdout.once('drain', resolve));
      },
      async close() {
        stop();
        transport.onclose?.();
      },
    };
    server.onclose = () => stop();
    server.onerror = fail;
    await server.connect(transport);
    warmCallSchemas();
    const fast =
      options.fastPath === false
        ? undefined
        : new FastCalls(callTool, (answer) => transport.send(answer as never), fail);
    return {
      deliver(line, parsed) {
        if (fast) {
          const message = parsed ?? parseOrUndefined(line);
          if (fast.take(message)) return;
          fast.cancel(message); // and the SDK is told too: it may be one of its requests
        }
        let message: JSONRPCMessage;
        try {
          message = deserializeMessage(line);
        } catch {
          return refuse(line);
        }
        transport.onmessage?.(message);
      },
      close: () => server.close(),
    };
  };

  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  const lines = new LineSplitter(
    (line) => onLine(line),
    (oversize) => {
      fail(new Error(`stdio: a line of ${oversize.bytes} bytes is over ${maxLine}: refused`));
      write(oversizeAnswer(oversize, (options.now ?? Date.now)(), maxLine));
    },
    maxLine,
  );
  const onData = (chunk: Buffer) => lines.push(chunk);
  const onEnd = () => {
    ended = true;
    if (sdk) void sdk.close();
    else if (!queued) stop();
  };
  const stop = () => {
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    stdin.off('error', fail);
    if (stdin.listenerCount('data') === 0) stdin.pause();
    resolveClosed();
  };

  stdin.on('data', onData);
  stdin.once('end', onEnd);
  stdin.on('error', fail);
  return {
    closed,
    loaded: () => sdk !== undefined,
    async close() {
      if (sdk) await sdk.close();
      else stop();
      await closed;
    },
  };
}

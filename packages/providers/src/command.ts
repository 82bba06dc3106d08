/**
 * @module command
 * The `command` provider: one external agent CLI process per turn (an agent CLI runs
 * its own whole session: tools included), in the given cwd, in its own process group.
 * Its JSON lines become events (see _command-lines.ts); its tool calls come out as
 * `tool_use` events marked `external` (already run: report, do not run). The end:
 * exit 0 (and no failed `result` line) -> `stop` end_turn; a non-zero exit or a failed
 * result -> `error` kind `process` (exit code, signal, stderr tail); `timeout` seconds
 * passed -> the group is killed and the turn ends `timeout`; an abort kills the group
 * and ends `aborted`. Killing = SIGTERM to the group, SIGKILL after `kill_grace_ms`.
 * POSIX only (process groups).
 *
 * argv placeholders: `{prompt}` (the last user message's text), `{system}`, `{model}`.
 * When argv has no `{system}`, the system text is put before the prompt.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type LineFormat, parseLine } from './_command-lines.js';
import { costUsd, type ModelPrice, resolveModel } from './models.js';
import type { ChatMessage, ModelProvider, ProviderEvent, TurnOptions, TurnRequest, Usage } from './types.js';
import { ZERO_USAGE } from './types.js';

export interface CommandProviderConfig {
  /** `claude`, `codex` or `jsonl` (colony's contract); sets the default argv and line format. */
  readonly preset: LineFormat;
  /** Overrides the preset's argv (argv[0] is the program; no shell is involved). */
  readonly argv?: readonly string[];
  readonly cwd: string;
  /** Added to the inherited environment. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Write the prompt to the CLI's stdin instead of an argv slot (long prompts pass the
   * 128 KiB argument limit; `claude -p` reads its prompt from stdin). `{prompt}` in argv
   * is then dropped.
   */
  readonly prompt_on_stdin?: boolean;
  /** Seconds for the whole run (none when null). */
  readonly timeout?: number | null;
  /** Between SIGTERM and SIGKILL (default 2000). */
  readonly kill_grace_ms?: number;
  readonly models?: Readonly<Record<string, string>>;
  readonly prices?: Readonly<Record<string, ModelPrice>>;
}

export const COMMAND_PRESETS: Readonly<Record<LineFormat, readonly string[]>> = {
  claude: [
    'claude',
    '-p',
    '{prompt}',
    '--output-format',
    'stream-json',
    '--verbose',
    '--model',
    '{model}',
    '--append-system-prompt',
    '{system}',
  ],
  codex: ['codex', 'exec', '--json', '--model', '{model}', '{prompt}'],
  jsonl: [],
};

export function commandProvider(config: CommandProviderConfig): ModelProvider {
  return { kind: 'command', stream: (request, options) => runCommand(config, request, options ?? {}) };
}

/** The text of the last user message. */
export function lastUserText(messages: readonly ChatMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? b.content : '')).join('\n');
}

async function* runCommand(
  config: CommandProviderConfig,
  request: TurnRequest,
  options: TurnOptions,
): AsyncGenerator<ProviderEvent> {
  const model = resolveModel(request.model, config.models);
  const template = config.argv ?? COMMAND_PRESETS[config.preset];
  const fail = (kind: 'process' | 'aborted' | 'timeout', message: string, usage?: Usage): ProviderEvent => ({
    type: 'error',
    kind,
    message,
    retries: 0,
    ...(usage ? { usage } : {}),
  });
  if (template.length === 0) return yield fail('process', 'command provider: argv is empty');
  if (options.signal?.aborted) return yield fail('aborted', 'aborted by the caller');
  const system = request.system ?? '';
  let prompt = lastUserText(request.messages);
  if (system && !template.includes('{system}')) prompt = `${system}\n\n${prompt}`;
  const slots = config.prompt_on_stdin ? template.filter((arg) => arg !== '{prompt}') : template;
  const argv = slots.map((arg) =>
    arg.replaceAll('{prompt}', prompt).replaceAll('{system}', system).replaceAll('{model}', model),
  );
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: config.cwd,
    env: { ...process.env, ...config.env },
    detached: true,
    stdio: 'pipe',
  });
  // stdin is the prompt or nothing (EOF at once); a CLI that exits without reading it
  // must not crash us with EPIPE: its exit code tells what happened.
  child.stdin.on('error', () => {});
  child.stdin.end(config.prompt_on_stdin ? prompt : undefined);
  const queue: Array<ProviderEvent | { type: 'line'; line: string }> = [];
  let wake: (() => void) | undefined;
  const push = (item: (typeof queue)[number]) => {
    queue.push(item);
    wake?.();
  };
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => push({ type: 'line', line }));
  let ended: 'aborted' | 'timeout' | undefined;
  let spawnError: Error | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error) => {
      spawnError = error;
      resolve({ code: null, signal: null });
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  let closed = false;
  void exited.then(() => {
    closed = true;
    wake?.();
  });
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const killGroup = (why: 'aborted' | 'timeout') => {
    if (closed || ended) return;
    ended = why;
    signalGroup(child.pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), config.kill_grace_ms ?? 2000);
    wake?.();
  };
  const onAbort = () => killGroup('aborted');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = config.timeout != null ? setTimeout(() => killGroup('timeout'), config.timeout * 1000) : undefined;
  let usage: Usage = ZERO_USAGE;
  let result: { ok: boolean; message?: string; cost_usd?: number } | undefined;
  const texts: string[] = [];
  let sequence = 0;
  try {
    for (;;) {
      const item = queue.shift();
      if (!item) {
        if (closed) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      if (item.type !== 'line') {
        yield item;
        continue;
      }
      for (const outcome of parseLine(config.preset, item.line, ++sequence)) {
        if (outcome.kind === 'text') {
          texts.push(outcome.text);
          yield { type: 'text', text: outcome.text };
        } else if (outcome.kind === 'tool_use') {
          yield { type: 'tool_use', id: outcome.id, name: outcome.name, input: outcome.input, external: true };
        } else if (outcome.kind === 'usage') {
          const next = { ...ZERO_USAGE, ...outcome.usage };
          usage = outcome.add
            ? {
                input_tokens: usage.input_tokens + next.input_tokens,
                output_tokens: usage.output_tokens + next.output_tokens,
                cache_creation_input_tokens: usage.cache_creation_input_tokens + next.cache_creation_input_tokens,
                cache_read_input_tokens: usage.cache_read_input_tokens + next.cache_read_input_tokens,
              }
            : next;
        } else {
          result = outcome;
        }
      }
    }
    const { code, signal } = await exited;
    if (ended === 'aborted') return yield fail('aborted', 'aborted by the caller', usage);
    if (ended === 'timeout') return yield fail('timeout', `${argv[0]} timed out after ${config.timeout}s`, usage);
    if (spawnError) return yield fail('process', `failed to spawn ${argv[0]}: ${spawnError.message}`);
    if (code !== 0 || result?.ok === false) {
      const how = code !== 0 ? (signal ? `killed by ${signal}` : `exited with code ${code}`) : 'reported an error';
      const detail = result?.message ?? stderr.trim().split('\n').slice(-3).join(' | ');
      return yield fail('process', `${argv[0]} ${how}${detail ? `: ${detail}` : ''}`, usage);
    }
    const text = texts.join('\n');
    const message: ChatMessage = { role: 'assistant', content: text ? [{ type: 'text', text }] : [] };
    const cost_usd = result?.cost_usd ?? costUsd(model, usage, config.prices);
    yield { type: 'stop', stop_reason: 'end_turn', message, usage, cost_usd, retries: 0, model };
  } finally {
    // A consumer that stops early must not leave the CLI running.
    if (!closed) {
      killGroup('aborted');
      await exited;
    }
    clearTimeout(deadline);
    clearTimeout(killTimer);
    options.signal?.removeEventListener('abort', onAbort);
    lines.close();
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

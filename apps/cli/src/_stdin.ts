/**
 * @module stdin
 * Reading a hook's JSON from stdin without ever hanging the IDE: the read ends at EOF
 * or as soon as a complete JSON value has arrived (an IDE may keep stdin open), and
 * gives up after a time limit. A terminal on stdin is refused at once.
 */
import { CliError } from './_output';

export const STDIN_TIMEOUT_MS = 5_000;

export function readHookStdin(timeoutMs = STDIN_TIMEOUT_MS): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    return Promise.reject(new CliError('hook run reads the IDE hook JSON on stdin, and stdin is a terminal'));
  }
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (error?: Error) => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', onEnd).off('error', onError);
      // Release stdin so the process can exit even if the IDE keeps it open.
      stdin.pause();
      stdin.destroy();
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (isCompleteJson(text)) finish();
    };
    const onEnd = () => finish();
    const onError = (error: Error) => finish(new CliError(`cannot read stdin: ${error.message}`));
    const timer = setTimeout(
      () => finish(new CliError(`no complete hook JSON on stdin after ${timeoutMs / 1000}s`)),
      timeoutMs,
    );
    stdin.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

function isCompleteJson(text: string): boolean {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith('}')) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/**
 * @module color
 * Colour only for a person at a terminal: never when NO_COLOR is set to anything
 * (no-color.org), never with TERM=dumb, never when the stream is not a TTY (a pipe,
 * a file, an IDE reading a hook's output).
 */

export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences
const ANSI = /\u001b\[[0-9;]*m/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Text as it should reach `stream`: its colour codes kept only when colour is on. */
export function forStream(text: string, stream: { isTTY?: boolean } = process.stdout): string {
  return colorEnabled(stream) ? text : stripAnsi(text);
}

const CODES = { green: [32, 39], yellow: [33, 39], red: [31, 39], bold: [1, 22], dim: [2, 22] } as const;

/** `text` in a colour when `stream` takes colour; plain otherwise. */
export function paint(color: keyof typeof CODES, text: string, stream: { isTTY?: boolean } = process.stdout): string {
  const [on, off] = CODES[color];
  return colorEnabled(stream) ? `\u001b[${on}m${text}\u001b[${off}m` : text;
}

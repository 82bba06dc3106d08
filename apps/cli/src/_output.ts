/**
 * @module output
 * How commands print: `--json` gives the raw payload on one line; otherwise a short
 * human rendering. Failures are CliErrors, printed by cli.ts as one line.
 */

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export function printLines(lines: readonly string[]): void {
  if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
}

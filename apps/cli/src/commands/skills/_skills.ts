/** Shared pieces of `colony skills`: the project folder flag and refusals shown with their code. */
import { resolve } from 'node:path';
import { CliError } from '../../_output';

export const projectArg = {
  repo: { type: 'string', description: 'Project folder (default: the current directory)', valueHint: 'path' },
} as const;

export function projectOf(args: { repo?: string | undefined }): string {
  return resolve(args.repo ?? '.');
}

/** A skill refusal (`invalid_name`, `not_found`) or a missing folder is one CLI error line. */
export async function refusals<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(typeof code === 'string' ? `${code}: ${message}` : message);
  }
}

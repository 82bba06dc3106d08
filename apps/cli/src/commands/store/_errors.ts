/**
 * @module store/errors
 * A refused export or import (StoreTransferError, a store refusal as a ColonyError, or
 * a PostgreSQL refusal such as PG_CONNECT_FAILED) as the CLI's one-line `<CODE>:
 * <message>`, exit code 1; anything else unchanged. With a PostgreSQL URL, any message
 * is scrubbed of its password.
 */
import { ColonyError, StoreTransferError, scrubSecret } from '@swarm/core';
import { CliError } from '../../_output';

function scrub(text: string, url: string | undefined): string {
  return url ? scrubSecret(text, url) : text;
}

export function asCliError(error: unknown, url?: string): unknown {
  if (error instanceof StoreTransferError || error instanceof ColonyError) {
    return new CliError(scrub(`${error.code}: ${error.message}`, url));
  }
  const code = (error as { code?: unknown; name?: unknown } | null)?.code;
  if (error instanceof Error && error.name === 'PgStoreError' && typeof code === 'string') {
    return new CliError(scrub(`${code}: ${error.message}`, url));
  }
  if (url && error instanceof Error) return new CliError(scrub(error.message, url));
  return error;
}

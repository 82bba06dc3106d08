/**
 * @module store/errors
 * A refused export or import (StoreTransferError, or a store refusal as a ColonyError)
 * as the CLI's one-line `<CODE>: <message>`, exit code 1; anything else unchanged.
 */
import { ColonyError, StoreTransferError } from '@swarm/core';
import { CliError } from '../../_output';

export function asCliError(error: unknown): unknown {
  if (error instanceof StoreTransferError || error instanceof ColonyError) {
    return new CliError(`${error.code}: ${error.message}`);
  }
  return error;
}

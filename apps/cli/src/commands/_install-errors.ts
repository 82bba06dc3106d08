/**
 * Install's refusals as the CLI reports them: a config colony will not touch is a
 * failure (exit 1); a scope the IDE has not is a usage error (exit 2).
 */
import { usageError } from '../_args';
import { CliError } from '../_output';
import { InstallError } from '../install/_config-file';
import { ScopeError } from '../install/install';

export function refusingInstallErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof InstallError) throw new CliError(error.message);
    if (error instanceof ScopeError) throw usageError(error.message);
    throw error;
  }
}

/**
 * @module mcp/expand-env
 * `${VAR}` and `${VAR:-default}` in the `env` and `headers` values of an MCP server,
 * from the given environment (as in a shell, the default also replaces an empty value).
 * A variable that is unset and has no default is named in `missing`: the server is
 * then not started, and the warning says which.
 */

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expanded {
  readonly values: Record<string, string>;
  readonly missing: readonly string[];
}

export function expandValues(
  values: Readonly<Record<string, string>> | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Expanded {
  const missing = new Set<string>();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    out[key] = value.replace(REFERENCE, (_m, name: string, fallback?: string) => {
      const set = env[name];
      if (fallback !== undefined) return set ? set : fallback;
      if (set !== undefined) return set;
      missing.add(name);
      return '';
    });
  }
  return { values: out, missing: [...missing] };
}

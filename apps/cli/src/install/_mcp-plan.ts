/**
 * @module install/mcp-plan
 * colony's MCP server entry (named `colony`) in an IDE's config, JSON or TOML: set
 * with the fields colony owns merged over what the entry holds (the user's `env`
 * stays), removed with its container when nothing else is left in it, and read back
 * for the store it points at.
 */
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, parseJsonObject, readConfigText } from './_config-file';
import { type FilePlan, jsonPlan, objectAt, setOrPrune } from './_file-plan';
import type { ChangeStatus } from './_hook-entries';
import type { McpLocation } from './_ide-spec';
import { removeTomlTable } from './_toml-removal';
import { parseToml, upsertTomlTable } from './_toml-table';

const NAME = 'colony';

export function planMcpInstall(location: McpLocation, command: string, args: readonly string[]): FilePlan {
  const file = readConfigText(location.path);
  if (location.kind === 'toml') {
    const table = upsertTomlTable(file, 'mcp_servers', NAME, { command, args: [...args] });
    return { file, items: [{ name: `mcp_servers.${NAME}`, status: table.status }], text: table.text };
  }
  const config = parseJsonObject(file);
  const servers = objectAt(file, config, location.key);
  const existing = servers[NAME];
  const wanted = { ...(isPlainObject(existing) ? existing : {}), ...location.fields(command, args) };
  const status: ChangeStatus =
    existing === undefined ? 'added' : isDeepStrictEqual(existing, wanted) ? 'unchanged' : 'updated';
  servers[NAME] = wanted;
  config[location.key] = servers;
  return jsonPlan(file, config, [{ name: `${location.key}.${NAME}`, status }]);
}

export function planMcpUninstall(location: McpLocation): FilePlan {
  const file = readConfigText(location.path);
  if (location.kind === 'toml') {
    if (!file.exists) return { file, items: [{ name: `mcp_servers.${NAME}`, status: 'absent' }], text: file.text };
    const removal = removeTomlTable(file, 'mcp_servers', NAME);
    const text = removal.status === 'removed' && removal.text.trim() === '' ? null : removal.text;
    return { file, items: [{ name: `mcp_servers.${NAME}`, status: removal.status }], text };
  }
  const config = parseJsonObject(file);
  const servers = objectAt(file, config, location.key);
  const status: ChangeStatus = servers[NAME] === undefined ? 'absent' : 'removed';
  delete servers[NAME];
  if (status === 'removed') setOrPrune(config, location.key, servers);
  return jsonPlan(file, config, [{ name: `${location.key}.${NAME}`, status }]);
}

/** colony's entry as registered: the command line it runs and its environment; undefined when absent. */
export function readMcpEntry(location: McpLocation): { argv: string[]; env: Record<string, string> } | undefined {
  const file = readConfigText(location.path);
  if (!file.exists) return undefined;
  const config = location.kind === 'toml' ? parseToml(file) : parseJsonObject(file);
  const key = location.kind === 'toml' ? 'mcp_servers' : location.key;
  const servers = config[key];
  const entry = isPlainObject(servers) ? servers[NAME] : undefined;
  if (!isPlainObject(entry)) return undefined;
  const argv =
    location.kind === 'toml'
      ? [String(entry.command ?? ''), ...(Array.isArray(entry.args) ? entry.args.map(String) : [])]
      : location.argv(entry);
  const rawEnv = entry[location.kind === 'toml' ? 'env' : location.envKey];
  const env = isPlainObject(rawEnv) ? Object.fromEntries(Object.entries(rawEnv).map(([k, v]) => [k, String(v)])) : {};
  return { argv, env };
}

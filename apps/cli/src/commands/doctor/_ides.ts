/**
 * @module doctor/ides
 * Every IDE colony is registered in (user scope, and project scope of the current
 * repository): the store its MCP server opens and the store its hooks open, which
 * must be the same one, and whether the registered executable still exists.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { shellWords, storeChoice, storeFlagsOf } from '../../_store-path';
import { isPlainObject, parseJsonObject, readConfigText } from '../../install/_config-file';
import { isColonyHookCommand } from '../../install/_hook-entries';
import type { IdeLocations, InstallScope } from '../../install/_ide-spec';
import { readMcpEntry } from '../../install/_mcp-plan';
import { INSTALL_IDES, type InstallIde, locateIde } from '../../install/install';
import type { DoctorCheck, DoctorContext } from './_check';

export function ideChecks(ctx: DoctorContext, projectRoot: string): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const ide of INSTALL_IDES) {
    for (const scope of ['user', 'project'] as const) {
      let where: IdeLocations;
      try {
        where = locateIde({ ide, scope, home: ctx.userHome, env: ctx.env, projectRoot });
      } catch {
        continue;
      }
      const check = ideCheck(ctx, ide, scope, where);
      if (check) checks.push(check);
    }
  }
  if (checks.length === 0) {
    return [
      { id: 'ide', status: 'warn', message: 'colony is registered in no IDE', fix: 'colony install --ide <ide>' },
    ];
  }
  return checks;
}

function ideCheck(
  ctx: DoctorContext,
  ide: InstallIde,
  scope: InstallScope,
  where: IdeLocations,
): DoctorCheck | undefined {
  const id = `ide:${ide}:${scope}`;
  const reinstall = `colony install --ide ${ide}${scope === 'project' ? ' --scope project' : ''}`;
  let entry: ReturnType<typeof readMcpEntry>;
  try {
    entry = readMcpEntry(where.mcp);
  } catch (error) {
    return { id, status: 'fail', message: (error as Error).message, fix: `fix ${where.mcp.path}` };
  }
  if (!entry) return undefined;
  const server = storeChoice(storeFlagsOf(entry.argv), { ...ctx.env, ...entry.env }, ctx.userHome).dbPath;
  const exe = entry.argv[0] ?? '';
  const details: Record<string, unknown> = { config: where.mcp.path, server_db: server };
  if (isAbsolute(exe) && !existsSync(exe)) {
    return { id, status: 'fail', message: `${ide} runs ${exe}, which does not exist`, fix: reinstall, details };
  }
  if (!where.hooks) return { id, status: 'ok', message: `${ide} (${scope}): server uses ${server}`, details };
  const hookDbs = hookStores(where.hooks.path, ctx);
  details.hook_dbs = hookDbs;
  if (hookDbs.length === 0) {
    return {
      id,
      status: 'warn',
      message: `${ide} (${scope}): server registered, hooks missing`,
      fix: reinstall,
      details,
    };
  }
  const other = hookDbs.filter((db) => db !== server);
  if (other.length > 0) {
    return {
      id,
      status: 'fail',
      message: `${ide} (${scope}): hooks use ${other.join(', ')} but the server uses ${server}`,
      fix: `${reinstall} (hooks then follow the server's store)`,
      details,
    };
  }
  return { id, status: 'ok', message: `${ide} (${scope}): server and hooks use ${server}`, details };
}

/** The distinct stores colony's hook commands in `path` open (the IDE's environment taken as ours). */
function hookStores(path: string, ctx: DoctorContext): string[] {
  const config = parseJsonObject(readConfigText(path));
  const hooks = isPlainObject(config.hooks) ? config.hooks : {};
  const commands = Object.values(hooks)
    .flatMap((groups) => (Array.isArray(groups) ? groups : []))
    .flatMap((g) => (isPlainObject(g) && Array.isArray(g.hooks) ? g.hooks : []))
    .map((h) => (isPlainObject(h) ? h.command : undefined))
    .filter((c): c is string => isColonyHookCommand(c));
  const dbs = commands.map((c) => storeChoice(storeFlagsOf(shellWords(c)), ctx.env, ctx.userHome).dbPath);
  return [...new Set(dbs)];
}

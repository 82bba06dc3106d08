/**
 * @module permissions/policy
 * The permission policy of one agent from the resolved settings: the project's block,
 * and the agent's own (a permission-mode name left in the agent's or the defaults'
 * `mode`, the deprecated alias of inventory 1.28 #5, becomes its `default_mode` when
 * it sets none). null when neither level configures anything: every call is allowed.
 */
import type { ResolvedProjectConfig } from '../settings/resolved.js';
import { PERMISSION_MODES, type PermissionMode, type PermissionsConfig } from '../settings/schema.js';
import type { PermissionPolicy } from './evaluate.js';

export function permissionPolicyOf(config: ResolvedProjectConfig, agent: string): PermissionPolicy | null {
  const own = config.agents.find((a) => a.name === agent)?.permissions ?? null;
  const rawAgent = config.raw.agents.find((a) => a.name === agent);
  const alias = aliasOf(rawAgent?.mode) ?? aliasOf(config.raw.defaults?.mode);
  const agentSet: PermissionsConfig | null =
    alias && !own?.default_mode ? { ...(own ?? {}), default_mode: alias } : own;
  if (!agentSet && !config.permissions) return null;
  return { project: config.permissions, agent: agentSet };
}

function aliasOf(mode: string | null | undefined): PermissionMode | null {
  return mode && (PERMISSION_MODES as readonly string[]).includes(mode) ? (mode as PermissionMode) : null;
}

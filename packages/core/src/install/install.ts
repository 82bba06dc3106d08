/**
 * @module install/install
 * `colony install --ide claude-code|codex`: registers colony's MCP server and hooks in
 * the IDE's own config files, idempotently. Every file is planned first (read, parsed,
 * merged in memory); only when all of them parse is anything written, each file
 * atomically. A second run finds everything in place and writes nothing.
 *
 * - Claude Code: the MCP server at user scope in `~/.claude.json` (`mcpServers.colony`),
 *   the hooks in `~/.claude/settings.json` (`hooks`).
 * - Codex: the MCP server in `$CODEX_HOME/config.toml` (`[mcp_servers.colony]`,
 *   default `~/.codex`), the hooks in `$CODEX_HOME/hooks.json`.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  type ConfigText,
  InstallError,
  isPlainObject,
  parseJsonObject,
  readConfigText,
  renderJson,
  writeConfigAtomically,
} from './_config-file';
import { type ChangeStatus, type HookEntrySpec, mergeHookEntries } from './_hook-entries';
import { upsertTomlTable } from './_toml-table';

export const INSTALL_IDES = ['claude-code', 'codex'] as const;
export type InstallIde = (typeof INSTALL_IDES)[number];

/** How to start colony: an executable and the arguments before the sub-command. */
export interface Launcher {
  readonly command: string;
  readonly args: readonly string[];
}

export interface InstallOptions {
  readonly ide: InstallIde;
  readonly launcher: Launcher;
  /** Flags every registered command gets (e.g. `--home DIR`), so all use one store. */
  readonly extraArgs?: readonly string[];
  /** Register the MCP server with `--allow-exec` (the runtime tools; the hooks never get it). */
  readonly allowExec?: boolean;
  readonly dryRun?: boolean;
  /** The user's home (default: os.homedir(), which follows $HOME). */
  readonly home?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface InstallItem {
  readonly name: string;
  readonly status: ChangeStatus;
}

export interface InstalledFile {
  readonly path: string;
  readonly items: readonly InstallItem[];
  /** True when the file was (or, in a dry run, would be) written. */
  readonly changed: boolean;
}

export interface InstallReport {
  readonly ide: InstallIde;
  readonly dryRun: boolean;
  readonly files: readonly InstalledFile[];
  readonly notes: readonly string[];
}

/** Seconds an IDE waits for a colony hook before giving up on it (and carrying on). */
export const HOOK_TIMEOUT_SECONDS = 20;

/** Claude Code's file-editing tools; Codex edits files only through apply_patch. */
const CLAUDE_EDIT_MATCHER = 'Edit|MultiEdit|Write|NotebookEdit';
const CODEX_EDIT_MATCHER = 'apply_patch';

const EVENTS: ReadonlyArray<{ event: string; colonyEvent: string; edits?: true }> = [
  { event: 'SessionStart', colonyEvent: 'session-start' },
  { event: 'UserPromptSubmit', colonyEvent: 'user-prompt-submit' },
  { event: 'PreToolUse', colonyEvent: 'pre-tool-use', edits: true },
  { event: 'PostToolUse', colonyEvent: 'post-tool-use', edits: true },
  { event: 'Stop', colonyEvent: 'stop' },
];

interface FilePlan {
  readonly file: ConfigText;
  readonly items: InstallItem[];
  readonly text: string;
}

export function installIde(options: InstallOptions): InstallReport {
  const home = options.home ?? homedir();
  const env = options.env ?? process.env;
  const plans = options.ide === 'claude-code' ? planClaudeCode(options, home) : planCodex(options, home, env);
  const dryRun = options.dryRun ?? false;
  const files = plans.map((plan) => {
    const changed = plan.text !== plan.file.text;
    if (changed && !dryRun) writeConfigAtomically(plan.file.path, plan.text);
    return { path: plan.file.path, items: plan.items, changed };
  });
  const notes =
    options.ide === 'codex' && files.some((f) => f.changed)
      ? [
          'Codex runs new or changed hooks only after you review and trust them: open /hooks in Codex once.',
          'Codex before 0.124 also needs `[features] codex_hooks = true` in config.toml.',
        ]
      : [];
  return { ide: options.ide, dryRun, files, notes };
}

function planClaudeCode(options: InstallOptions, home: string): FilePlan[] {
  const mcp = readConfigText(join(home, '.claude.json'));
  const mcpConfig = parseJsonObject(mcp);
  const servers = objectAt(mcp, mcpConfig, 'mcpServers');
  const existing = servers.colony;
  const wanted = {
    ...(isPlainObject(existing) ? existing : {}),
    type: 'stdio',
    command: options.launcher.command,
    args: mcpArgs(options),
  };
  const status: ChangeStatus =
    existing === undefined ? 'added' : isDeepStrictEqual(existing, wanted) ? 'unchanged' : 'updated';
  servers.colony = wanted;
  mcpConfig.mcpServers = servers;

  return [
    jsonPlan(mcp, mcpConfig, [{ name: 'mcpServers.colony', status }]),
    hooksPlan(readConfigText(join(home, '.claude', 'settings.json')), hookSpecs(options, CLAUDE_EDIT_MATCHER)),
  ];
}

function planCodex(options: InstallOptions, home: string, env: NodeJS.ProcessEnv): FilePlan[] {
  const codexHome = env.CODEX_HOME?.trim() ? env.CODEX_HOME : join(home, '.codex');
  const config = readConfigText(join(codexHome, 'config.toml'));
  const table = upsertTomlTable(config, 'mcp_servers', 'colony', {
    command: options.launcher.command,
    args: mcpArgs(options),
  });
  return [
    { file: config, items: [{ name: 'mcp_servers.colony', status: table.status }], text: table.text },
    hooksPlan(readConfigText(join(codexHome, 'hooks.json')), hookSpecs(options, CODEX_EDIT_MATCHER)),
  ];
}

function hooksPlan(file: ConfigText, specs: readonly HookEntrySpec[]): FilePlan {
  const config = parseJsonObject(file);
  const hooks = objectAt(file, config, 'hooks');
  let statuses: Map<string, ChangeStatus>;
  try {
    statuses = mergeHookEntries(hooks, specs);
  } catch (error) {
    throw new InstallError(`${file.path}: ${(error as Error).message}; fix it by hand, the file was left untouched`);
  }
  config.hooks = hooks;
  return jsonPlan(
    file,
    config,
    [...statuses].map(([event, status]) => ({ name: `hooks.${event}`, status })),
  );
}

function jsonPlan(file: ConfigText, value: Record<string, unknown>, items: InstallItem[]): FilePlan {
  const unchanged = file.exists && items.every((item) => item.status === 'unchanged');
  return { file, items, text: unchanged ? file.text : renderJson(value, file.text) };
}

/** The object under `key` (created when absent); refuses any other value there. */
function objectAt(file: ConfigText, config: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = config[key];
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new InstallError(`${file.path}: "${key}" is not an object; fix it by hand, the file was left untouched`);
  }
  return value;
}

function mcpArgs(options: InstallOptions): string[] {
  return [
    ...options.launcher.args,
    'mcp',
    ...(options.extraArgs ?? []),
    ...(options.allowExec ? ['--allow-exec'] : []),
  ];
}

function hookSpecs(options: InstallOptions, editMatcher: string): HookEntrySpec[] {
  return EVENTS.map(({ event, colonyEvent, edits }) => ({
    event,
    colonyEvent,
    ...(edits ? { matcher: editMatcher } : {}),
    command: shellCommand([
      options.launcher.command,
      ...options.launcher.args,
      'hook',
      'run',
      colonyEvent,
      '--ide',
      options.ide,
      ...(options.extraArgs ?? []),
    ]),
    timeout: HOOK_TIMEOUT_SECONDS,
  }));
}

/** A POSIX shell command line: words with anything but safe characters are single-quoted. */
export function shellCommand(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}

/**
 * @module root
 * The root command, set by cli.ts, for commands that read the whole command tree
 * (`colony completion`) without importing cli.ts (which runs the CLI on import).
 */
import type { CommandDef } from 'citty';

let root: CommandDef | undefined;

export function setRootCommand(cmd: CommandDef): void {
  root = cmd;
}

export function rootCommand(): CommandDef {
  if (!root) throw new Error('the root command is not set');
  return root;
}

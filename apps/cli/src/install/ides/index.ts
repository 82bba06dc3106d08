/**
 * @module install/ides
 * The IDEs `colony install` knows, by id, in the order help lists them.
 */
import type { IdeSpec } from '../_ide-spec';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { cursor } from './cursor';
import { gemini } from './gemini';
import { opencode } from './opencode';

export const INSTALL_IDES = ['claude-code', 'codex', 'cursor', 'gemini', 'opencode'] as const;
export type InstallIde = (typeof INSTALL_IDES)[number];

export const IDE_SPECS: Readonly<Record<InstallIde, IdeSpec>> = {
  'claude-code': claudeCode,
  codex,
  cursor,
  gemini,
  opencode,
};

/** The IDEs that have `scope`, in order. */
export function idesWithScope(scope: string): InstallIde[] {
  return INSTALL_IDES.filter((ide) => (IDE_SPECS[ide].scopes as readonly string[]).includes(scope));
}

export function isInstallIde(value: string): value is InstallIde {
  return (INSTALL_IDES as readonly string[]).includes(value);
}

/**
 * @module permissions/rule
 * One permission rule, `Tool(specifier)` (seed 003 "Permission Rules"): the tool name is
 * compared case-insensitively, and for built-in names without underscores too
 * (`WebFetch` = `web_fetch`, `NotebookEdit` = `notebook_edit`); MCP tools keep their
 * prefixed name (`mcp__server__tool`). No specifier (or `*`) matches every call of the
 * tool. A specifier is matched against the call's primary input (primary-input.ts):
 * `domain:<glob>` against a URL's host; a trailing `:*` is a prefix
 * (`Bash(npm run:*)`); otherwise a glob (picomatch; for commands `*` also crosses `/`),
 * and a command specifier with no glob character also matches as a word prefix
 * (`Bash(npm test)` matches `npm test --watch`).
 */
import picomatch from 'picomatch';
import { primaryInput } from './primary-input.js';

export interface PermissionRule {
  /** As written in the settings. */
  readonly raw: string;
  /** Canonical tool name (see `canonicalTool`). */
  readonly tool: string;
  readonly specifier: string | null;
}

const RULE = /^\s*([A-Za-z0-9_.-]+)\s*(?:\((.*)\))?\s*$/s;

/** The rule, or null when the string is not `Tool` or `Tool(specifier)`. */
export function parseRule(raw: string): PermissionRule | null {
  const m = RULE.exec(raw);
  if (!m) return null;
  const specifier = m[2]?.trim();
  return { raw, tool: canonicalTool(m[1]!), specifier: specifier ? specifier : null };
}

/** Lower case; built-in names also lose underscores so `WebFetch` and `web_fetch` meet. */
export function canonicalTool(name: string): string {
  const lower = name.toLowerCase();
  return lower.startsWith('mcp__') ? lower : lower.replace(/_/g, '');
}

const GLOB_CHARS = /[*?[\]{}!]/;

/** Whether `rule` covers a call of `tool` with `input`. */
export function ruleMatches(rule: PermissionRule, tool: string, input: Record<string, unknown>): boolean {
  if (rule.tool !== canonicalTool(tool)) return false;
  const spec = rule.specifier;
  if (spec === null || spec === '*') return true;
  const primary = primaryInput(input);
  if (primary === null) return false;
  if (spec.startsWith('domain:')) {
    const host = hostOf(primary.value);
    return host !== null && picomatch.isMatch(host, spec.slice('domain:'.length).toLowerCase(), { nocase: true });
  }
  if (spec.endsWith(':*')) return primary.value.startsWith(spec.slice(0, -2));
  if (primary.kind === 'path') {
    const path = normalisePath(primary.value);
    const pattern = normalisePath(spec);
    if (pattern.endsWith('/')) return path.startsWith(pattern);
    return picomatch.isMatch(path, pattern, { dot: true });
  }
  const value = primary.value.trim();
  if (!GLOB_CHARS.test(spec)) return value === spec || value.startsWith(`${spec} `);
  return picomatch.isMatch(value, spec, { dot: true, bash: true });
}

function normalisePath(path: string): string {
  return path.replace(/^(\.\/)+/, '');
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

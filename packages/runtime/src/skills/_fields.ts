/**
 * @module skills/_fields
 * The frontmatter fields seed 003 lists, by their kebab-case key: the snake_case field
 * each fills and the zod schema its value must pass. A value that fails is dropped with
 * a warning (the field keeps its default); the other fields still load.
 */
import { z } from 'zod';
import { SKILL_NAME } from './skill-error.js';

/** `allowed-tools` as a YAML list, or Claude Code's one-line form (`Bash(git *), Read`). */
const AllowedTools = z.union([z.array(z.string().min(1)), z.string().transform((line) => splitToolList(line))]);

export const FIELDS = {
  name: ['name', z.string().regex(SKILL_NAME, 'only letters, digits, "_", ":" and "-"')],
  description: ['description', z.string()],
  'user-invocable': ['user_invocable', z.boolean()],
  'disable-model-invocation': ['disable_model_invocation', z.boolean()],
  'allowed-tools': ['allowed_tools', AllowedTools],
  model: ['model', z.string().min(1)],
  context: ['context', z.string().min(1)],
  agent: ['agent', z.string().min(1)],
  /** A HooksConfig (the guide) or a list of event names (the concept page): kept as written. */
  hooks: ['hooks', z.union([z.record(z.string(), z.unknown()), z.array(z.string())])],
  'argument-hint': ['argument_hint', z.string()],
  /** Reserved by the seed for a future sandbox flag: parsed, never acted on. */
  unsafe: ['unsafe', z.boolean()],
} as const;

export type FrontmatterKey = keyof typeof FIELDS;

/** Splits `Bash(git add *), Read Grep` at commas and spaces outside parentheses. */
export function splitToolList(line: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of line) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (current) out.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (current) out.push(current);
  return out;
}

/**
 * @module skills/frontmatter
 * A skill file: optional YAML frontmatter between `---` lines, then the body (the
 * instructions). Parsing never fails (seed 003: "non-fatal"): YAML that does not parse,
 * or is not a mapping, gives a warning and the defaults; a field with a wrong value
 * gives a warning and keeps its default while the other fields load; an unknown key
 * gives a warning and is ignored. Keys are kebab-case as written, fields snake_case.
 */
import { parseDocument } from 'yaml';
import { FIELDS, type FrontmatterKey } from './_fields.js';
import { splitFrontmatter } from './_split.js';

export interface SkillFrontmatter {
  readonly name: string | null;
  readonly description: string;
  readonly user_invocable: boolean;
  readonly disable_model_invocation: boolean;
  /** null = no restriction; a list (even empty) restricts the tools while the skill runs. */
  readonly allowed_tools: readonly string[] | null;
  readonly model: string | null;
  /** `fork` runs the skill as a sub-agent; anything else (or null) runs it inline. */
  readonly context: string | null;
  readonly agent: string | null;
  readonly hooks: Readonly<Record<string, unknown>> | readonly string[] | null;
  readonly argument_hint: string | null;
  readonly unsafe: boolean;
}

export const DEFAULT_FRONTMATTER: SkillFrontmatter = {
  name: null,
  description: '',
  user_invocable: false,
  disable_model_invocation: false,
  allowed_tools: null,
  model: null,
  context: null,
  agent: null,
  hooks: null,
  argument_hint: null,
  unsafe: false,
};

export interface ParsedSkillFile {
  readonly frontmatter: SkillFrontmatter;
  /** The text after the closing `---` (leading blank lines dropped), or the whole file. */
  readonly body: string;
  readonly warnings: readonly string[];
}

export function parseSkillFile(text: string): ParsedSkillFile {
  const split = splitFrontmatter(text.replace(/^\uFEFF/, ''));
  if (split.yaml === null) return { frontmatter: DEFAULT_FRONTMATTER, body: split.body, warnings: split.warnings };
  const parsed = parseFrontmatter(split.yaml);
  return { frontmatter: parsed.frontmatter, body: split.body, warnings: [...split.warnings, ...parsed.warnings] };
}

function parseFrontmatter(yaml: string): { frontmatter: SkillFrontmatter; warnings: string[] } {
  const doc = parseDocument(yaml);
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!.message.split('\n')[0];
    return { frontmatter: DEFAULT_FRONTMATTER, warnings: [`frontmatter is not valid YAML (${first}): defaults used`] };
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return { frontmatter: DEFAULT_FRONTMATTER, warnings: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { frontmatter: DEFAULT_FRONTMATTER, warnings: ['frontmatter is not a YAML mapping: defaults used'] };
  }
  const warnings: string[] = [];
  const fields: Record<string, unknown> = { ...DEFAULT_FRONTMATTER };
  for (const [key, raw] of Object.entries(value)) {
    if (!(key in FIELDS)) {
      warnings.push(`unknown frontmatter key "${key}" ignored`);
      continue;
    }
    if (raw === null) continue;
    const [field, schema] = FIELDS[key as FrontmatterKey];
    const checked = schema.safeParse(raw);
    if (checked.success) fields[field] = checked.data;
    else warnings.push(`frontmatter "${key}" ignored: ${checked.error.issues[0]?.message ?? 'invalid value'}`);
  }
  return { frontmatter: fields as unknown as SkillFrontmatter, warnings };
}

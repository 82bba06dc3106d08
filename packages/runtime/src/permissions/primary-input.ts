/**
 * @module permissions/primary-input
 * The input a rule's specifier is matched against (seed 003: "the tool's primary
 * input"): the command for bash, the path for read/write/edit (and notebook_edit), the
 * URL for web_fetch, the pattern for glob and grep; any other tool (colony's, MCP's)
 * is matched on its first string argument among `command`, `path`, `file_path`, `url`,
 * `pattern`, else on none (only a rule without specifier, or `(*)`, covers it).
 */

export interface PrimaryInput {
  readonly kind: 'command' | 'path' | 'url' | 'pattern' | 'text';
  readonly value: string;
}

const FIELDS: readonly [string, PrimaryInput['kind']][] = [
  ['command', 'command'],
  ['path', 'path'],
  ['file_path', 'path'],
  ['notebook_path', 'path'],
  ['url', 'url'],
  ['pattern', 'pattern'],
];

export function primaryInput(input: Record<string, unknown>): PrimaryInput | null {
  for (const [field, kind] of FIELDS) {
    const value = input[field];
    if (typeof value === 'string') return { kind, value };
  }
  return null;
}

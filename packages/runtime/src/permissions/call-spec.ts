/**
 * @module permissions/call-spec
 * A tool call written as a rule is (`Bash(rm -rf *)`, `Read(./.env)`,
 * `WebFetch(https://api.example.com/x)`, `mcp__fs__read_file({"path":"a"})`), turned
 * into the tool name and input the evaluator takes: a JSON object inside the
 * parentheses is the input itself; other text is the tool's primary input (the command
 * for bash, the URL for web_fetch, the pattern for glob/grep, else the path).
 */
import { canonicalTool } from './rule.js';

export interface CallSpec {
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

const CALL = /^\s*([A-Za-z0-9_.-]+)\s*(?:\((.*)\))?\s*$/s;
const FIELD: Readonly<Record<string, string>> = { bash: 'command', webfetch: 'url', glob: 'pattern', grep: 'pattern' };

/** null when the text is not `Tool` or `Tool(input)`. */
export function parseCallSpec(text: string): CallSpec | null {
  const m = CALL.exec(text);
  if (!m) return null;
  const tool = m[1]!;
  const inner = m[2]?.trim() ?? '';
  if (inner === '') return { tool, input: {} };
  if (inner.startsWith('{')) {
    try {
      const json: unknown = JSON.parse(inner);
      if (json && typeof json === 'object' && !Array.isArray(json))
        return { tool, input: json as Record<string, unknown> };
    } catch {
      // Not JSON: the primary input.
    }
  }
  return { tool, input: { [FIELD[canonicalTool(tool)] ?? 'path']: inner } };
}

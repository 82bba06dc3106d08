/**
 * @module skills/tool-filter
 * A skill's `allowed-tools` as a filter on tool names. An entry names a tool as agents
 * know it, any case (`Bash` = `bash`), optionally with a specifier (`Bash(git *)`), which
 * this filter does not read: the filter allows the tool by name, and the specifier is
 * left to the permission rules (`parseAllowedTools` exposes it). `mcp__<server>` allows
 * every tool of that server; a trailing `*` is a prefix match. The filter only ever
 * removes tools: what permissions deny stays denied (the two combine as an intersection).
 */

export interface AllowedToolRule {
  /** Lower-cased tool name or pattern (`bash`, `mcp__colony`, `mcp__colony__task_*`). */
  readonly tool: string;
  /** The text inside the parentheses (`git *`), or null. */
  readonly specifier: string | null;
}

export type ToolFilter = (toolName: string) => boolean;

export function parseAllowedTools(entries: readonly string[]): AllowedToolRule[] {
  return entries.map((entry) => {
    const m = /^([^()]+?)\s*(?:\((.*)\))?\s*$/.exec(entry.trim());
    return { tool: (m?.[1] ?? entry).trim().toLowerCase(), specifier: m?.[2] ?? null };
  });
}

/** The filter of an `allowed-tools` list; null (no list) allows everything. */
export function toolFilter(allowed: readonly string[] | null): ToolFilter {
  if (allowed === null) return () => true;
  const rules = parseAllowedTools(allowed);
  return (toolName) => {
    const name = toolName.toLowerCase();
    return rules.some(({ tool }) => {
      if (tool.endsWith('*')) return name.startsWith(tool.slice(0, -1));
      if (tool.startsWith('mcp__') && tool.split('__').length === 2) return name.startsWith(`${tool}__`);
      return name === tool;
    });
  };
}

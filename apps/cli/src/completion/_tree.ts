/**
 * @module completion/tree
 * The command tree flattened for completion scripts: one node per command path, with
 * its sub-command names and its option spellings (`--name`, aliases `-x`). Loading
 * the whole tree costs every lazy import once; only `colony completion` does it.
 */
import type { ArgsDef, CommandDef, Resolvable } from 'citty';

export interface CompletionNode {
  /** Command words after `colony` ('' for the root). */
  readonly path: string;
  readonly commands: readonly string[];
  readonly options: readonly string[];
}

async function resolved<T>(value: Resolvable<T> | undefined): Promise<T | undefined> {
  return typeof value === 'function' ? await (value as () => T | Promise<T>)() : await value;
}

export async function completionTree(root: CommandDef): Promise<CompletionNode[]> {
  const nodes: CompletionNode[] = [];
  const visit = async (cmd: CommandDef, path: string[]) => {
    const subs = (await resolved(cmd.subCommands)) ?? {};
    const args = ((await resolved(cmd.args)) ?? {}) as ArgsDef;
    const options = Object.entries(args).flatMap(([name, def]) => {
      if (def.type === 'positional') return [];
      const alias = 'alias' in def ? def.alias : undefined;
      const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
      return [`--${name}`, ...aliases.map((a) => (a.length === 1 ? `-${a}` : `--${a}`))];
    });
    if (path.length === 0) options.push('--help', '--version');
    else options.push('--help');
    nodes.push({ path: path.join(' '), commands: Object.keys(subs), options });
    for (const [name, sub] of Object.entries(subs)) {
      await visit((await resolved(sub)) as CommandDef, [...path, name]);
    }
  };
  await visit(root, []);
  return nodes;
}

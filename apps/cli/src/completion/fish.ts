/**
 * @module completion/fish
 * The fish completion script: `__colony_path` prints the command path typed so far;
 * each command's sub-commands and options complete when the path matches it.
 */
import type { CompletionNode } from './_tree';

export function fishScript(nodes: readonly CompletionNode[]): string {
  const paths = nodes.filter((n) => n.path).map((n) => `'${n.path}'`);
  const lines = nodes.flatMap((n) => {
    const when = `-n '__colony_path_is "${n.path}"'`;
    return [
      ...(n.commands.length ? [`complete -c colony -f ${when} -a '${n.commands.join(' ')}'`] : []),
      ...n.options.map((o) =>
        o.startsWith('--')
          ? `complete -c colony ${when} -l ${o.slice(2)}`
          : `complete -c colony ${when} -s ${o.slice(1)}`,
      ),
    ];
  });
  return `# colony fish completion: colony completion fish > ~/.config/fish/completions/colony.fish
function __colony_path_is
  set -l path ''
  for word in (commandline -opc)[2..-1]
    string match -q -- '-*' $word; and continue
    set -l next (string trim -- "$path $word")
    contains -- $next ${paths.join(' ')}; and set path $next
  end
  test "$path" = "$argv[1]"
end
${lines.join('\n')}
`;
}

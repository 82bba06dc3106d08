/**
 * @module completion/bash
 * The bash completion script: `_colony` walks COMP_WORDS to the deepest command path it
 * knows (skipping options and their values), then offers that command's sub-commands,
 * or its options when the word being completed starts with `-`.
 */
import type { CompletionNode } from './_tree';

export function bashScript(nodes: readonly CompletionNode[]): string {
  const paths = nodes.filter((n) => n.path).map((n) => `"${n.path}"`);
  const cases = nodes.map(
    (n) => `    "${n.path}") commands="${n.commands.join(' ')}"; options="${n.options.join(' ')}" ;;`,
  );
  return `# colony bash completion: eval "$(colony completion bash)" (or save it under bash-completion's completions folder)
_colony() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ $word == -* ]] && continue
    case "\${path:+$path }$word" in
      ${paths.join('|')}) path="\${path:+$path }$word" ;;
    esac
  done
  local commands="" options=""
  case "$path" in
${cases.join('\n')}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
  fi
}
complete -o default -F _colony colony
`;
}

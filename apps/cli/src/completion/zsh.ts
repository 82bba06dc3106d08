/**
 * @module completion/zsh
 * The zsh completion script: the bash one, run through zsh's bashcompinit.
 */

import type { CompletionNode } from './_tree';
import { bashScript } from './bash';

export function zshScript(nodes: readonly CompletionNode[]): string {
  return `# colony zsh completion: eval "$(colony completion zsh)" in ~/.zshrc
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(nodes)}`;
}

/**
 * `colony completion bash|zsh|fish`: prints a completion script for the shell,
 * generated from the command tree (so it always knows every command and option).
 */
import { defineCommand } from 'citty';
import { usageError } from '../_args';
import { rootCommand } from '../_root';
import { completionTree } from '../completion/_tree';
import { bashScript } from '../completion/bash';
import { fishScript } from '../completion/fish';
import { zshScript } from '../completion/zsh';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export default defineCommand({
  meta: { name: 'completion', description: 'Print a shell completion script (bash, zsh or fish).' },
  args: { shell: { type: 'positional', description: 'bash, zsh or fish', required: true } },
  async run({ args }) {
    const shell = String(args.shell);
    if (!(shell in SHELLS)) throw usageError(`unknown shell "${shell}"; shells: ${Object.keys(SHELLS).join(', ')}`);
    const nodes = await completionTree(rootCommand());
    process.stdout.write(SHELLS[shell as keyof typeof SHELLS](nodes));
  },
});

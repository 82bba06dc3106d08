/**
 * `colony skills show <name> [args...]`: the file a skill resolves to, where it was
 * found, its frontmatter, and its body with the arguments substituted (what the
 * `skill` tool returns an agent). Arguments that look like flags go after `--`.
 */
import { defineCommand } from 'citty';
import { restPositionals } from '../../_args';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { projectArg, projectOf, refusals } from './_skills';

export default defineCommand({
  meta: { name: 'show', description: 'Show a skill: its file, its source and its body with the arguments put in.' },
  args: {
    name: { type: 'positional', description: 'Skill name', required: true },
    json: { type: 'boolean', description: 'Print the skill as JSON' },
    ...projectArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { showSkill } = await import('@swarm/core/runtime');
    const skill = await refusals(() =>
      showSkill({ cwd: projectOf(args), name: String(args.name), args: restPositionals(args, 1) }),
    );
    if (args.json) return printJson(skill);
    for (const w of skill.warnings) process.stderr.write(`colony: warning: ${skill.path}: ${w}\n`);
    const f = skill.frontmatter;
    const about = [
      f.description ? `description: ${f.description}` : null,
      f.argument_hint ? `argument-hint: ${f.argument_hint}` : null,
      f.allowed_tools ? `allowed-tools: ${f.allowed_tools.join(', ') || '(none)'}` : null,
      f.context ? `context: ${f.context}${f.agent ? ` (agent ${f.agent})` : ''}` : null,
      f.model ? `model: ${f.model}` : null,
      f.disable_model_invocation ? 'disable-model-invocation: true' : null,
    ].filter((line): line is string => line !== null);
    printLines([
      `skill ${skill.name} (${skill.source}: ${skill.path})`,
      ...about,
      '',
      skill.expanded.replace(/\n$/, ''),
    ]);
  },
});

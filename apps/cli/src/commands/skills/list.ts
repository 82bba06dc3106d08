/** `colony skills list [--json]`: every skill found, by name, with where it comes from. */
import type { SkillListing } from '@swarm/core/runtime';
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { printJson, printLines } from '../../_output';
import { projectArg, projectOf, refusals } from './_skills';

export default defineCommand({
  meta: { name: 'list', description: 'List the skills of the project and of ~/.claude/skills.' },
  args: {
    json: { type: 'boolean', description: 'Print the skills as JSON' },
    ...projectArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { listSkills } = await import('@swarm/core/runtime');
    const result = await refusals(() => listSkills({ cwd: projectOf(args) }));
    if (args.json) return printJson(result);
    for (const warning of result.warnings) process.stderr.write(`colony: warning: ${warning}\n`);
    for (const s of result.skills) {
      for (const w of s.warnings) process.stderr.write(`colony: warning: ${s.path}: ${w}\n`);
    }
    if (result.skills.length === 0) return printLines([`no skills for ${result.project_root}`]);
    printLines(result.skills.map(skillLine));
  },
});

function skillLine(s: SkillListing): string {
  const flags = [
    s.user_invocable ? 'user-invocable' : null,
    s.model_invocable ? null : 'user only',
    s.context === 'fork' ? 'fork' : null,
  ].filter(Boolean);
  const hint = s.argument_hint ? ` ${s.argument_hint}` : '';
  const about = s.description ? `  ${s.description}` : '';
  return `${s.name}${hint}${about}${flags.length ? `  [${flags.join(', ')}]` : ''}  (${s.source}: ${s.path})`;
}

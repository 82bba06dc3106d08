/**
 * @module iterations/iteration-config
 * The schema of an iteration config (`.colony/iterations/<name>.yaml`, or a file given
 * with `--config-file`; seed 003 names the loop, the progress rule is ours). Each
 * iteration runs one step on the task (an agent given `task` as its prompt, or a
 * command), then the probe; the probe's output gives a score. The run stops when the
 * score reaches `target`, when it has not improved for `patience` iterations
 * (`no_progress`), after `max_iterations`, or on an error (the probe gave no score, the
 * agent failed). Timeouts are seconds.
 */
import { z } from 'zod';
import { yaml } from '../_lazy-deps';

const Runnable = {
  command: z.string().min(1).optional(),
  argv: z.array(z.string()).min(1).optional(),
  timeout: z.number().int().min(1).max(86_400).optional(),
};

export const ProbeSchema = z.strictObject({
  ...Runnable,
  /** last_line: a number on the last non-empty line; json: `field` of a JSON object on stdout; test_count: "N passed". */
  parse: z.enum(['last_line', 'json', 'test_count']).default('last_line'),
  /** With `parse: json`: a dotted path (`summary.score`). */
  field: z.string().min(1).optional(),
});

export const IterationConfigSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_-]*$/, 'must match [a-z][a-z0-9_-]*'),
  task: z.string().min(1),
  /** Each iteration runs this runtime agent with `task` as its prompt... */
  agent: z.string().min(1).optional(),
  max_turns: z.number().int().min(1).max(500).optional(),
  /** ...or this command (the task is in $COLONY_ITERATION_TASK). */
  step: z.strictObject(Runnable).optional(),
  max_iterations: z.number().int().min(1).max(10_000).default(10),
  probe: ProbeSchema,
  progress: z
    .strictObject({
      /** Iterations without a better score before stopping with no_progress. */
      patience: z.number().int().min(1).max(1000).default(3),
      /** Stop with `target` once the score reaches this. */
      target: z.number().optional(),
      /** Whether a higher or a lower score is better. */
      direction: z.enum(['higher', 'lower']).default('higher'),
    })
    .default({ patience: 3, direction: 'higher' }),
});

export type IterationConfig = z.infer<typeof IterationConfigSchema>;

export type ParsedIterationConfig =
  | { readonly ok: true; readonly config: IterationConfig }
  | { readonly ok: false; readonly problems: readonly string[] };

/** YAML (or JSON) text to a config; problems name their field, in the seed's config error texts. */
export function parseIterationConfig(text: string): ParsedIterationConfig {
  let raw: unknown;
  try {
    raw = yaml().parse(text);
  } catch (error) {
    return { ok: false, problems: [`failed to parse config: ${(error as Error).message.split('\n')[0]}`] };
  }
  const shaped = IterationConfigSchema.safeParse(raw);
  if (!shaped.success) {
    return {
      ok: false,
      problems: shaped.error.issues.map(
        (i) => `config validation failed: ${i.path.join('.') || '(root)'}: ${i.message}`,
      ),
    };
  }
  const c = shaped.data;
  const problems: string[] = [];
  const one = (what: string, o: { command?: string | undefined; argv?: string[] | undefined }) => {
    if (Number(o.command !== undefined) + Number(o.argv !== undefined) !== 1) {
      problems.push(`config validation failed: ${what}: give exactly one of command and argv`);
    }
  };
  one('probe', c.probe);
  if (c.step) one('step', c.step);
  if (c.step && c.agent) problems.push('config validation failed: give agent or step, not both');
  if (!c.step && !c.agent) problems.push('config validation failed: give agent (a runtime agent) or step (a command)');
  if (c.probe.parse === 'json' && !c.probe.field)
    problems.push('config validation failed: probe.field: required with parse: json');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config: c };
}

/**
 * @module task/_baton
 * `task accept` and `task decline` take a handoff or a relay id alike: the handoff
 * tool is called first, and when it answers that the id is a relay, the relay tool.
 */
import type { Colony } from '@swarm/core';
import type { AcceptBatonResult, DeclineBatonResult } from '@swarm/tools';
import { type ArgsDef, type CommandDef, defineCommand } from 'citty';
import { idempotencyArg, jsonArg, parseId, sessionArg } from '../../_args';
import { callTool, defined, storeArgs, withColony } from '../../_colony';
import { CliError, printJson, printLines } from '../../_output';

export type BatonAction = 'accept' | 'decline';
type Kind = 'handoff' | 'relay';

/** Calls task_<action>_handoff, or task_<action>_relay for a relay id. Returns the value and the kind. */
export async function settleBaton<T>(
  colony: Colony,
  action: BatonAction,
  id: number,
  rest: Record<string, unknown>,
): Promise<{ kind: Kind; value: T }> {
  const outcome = await colony.handleToolCall(`task_${action}_handoff`, { handoff_observation_id: id, ...rest });
  if (outcome.ok) return { kind: 'handoff', value: outcome.value as T };
  if (outcome.error.code === 'OBSERVATION_NOT_FOUND' && outcome.error.kind === 'relay') {
    const value = await callTool<T>(colony, `task_${action}_relay`, { relay_observation_id: id, ...rest });
    return { kind: 'relay', value };
  }
  throw new CliError(`${outcome.error.code}: ${outcome.error.error}`);
}

const ACTIONS = {
  accept: {
    description: 'Accept a handoff or relay addressed to you; its file claims become yours.',
    extra: {},
    render: (kind: Kind, id: number, value: unknown) => [`${(value as AcceptBatonResult).status} ${kind} #${id}`],
  },
  decline: {
    description: 'Decline a handoff or relay (or withdraw your own handoff), with a reason.',
    extra: { reason: { type: 'string', description: 'Why, for the sender', valueHint: 'text' } },
    render: (kind: Kind, id: number, value: unknown) => [
      `declined ${kind} #${id} (${(value as DeclineBatonResult).status})`,
    ],
  },
} as const;

/** The `colony task accept|decline <id>` command. */
export function batonCommand(action: BatonAction): CommandDef<ArgsDef> {
  const spec = ACTIONS[action];
  return defineCommand({
    meta: { name: action, description: spec.description },
    args: {
      id: { type: 'positional', description: 'Handoff or relay observation id', required: true },
      ...sessionArg,
      ...spec.extra,
      ...idempotencyArg,
      ...jsonArg,
      ...storeArgs,
    },
    async run({ args }) {
      const id = parseId(String(args.id), 'handoff id');
      const rest = defined({ session_id: args.session, reason: args.reason, idempotency_key: args['idempotency-key'] });
      const { kind, value } = await withColony(args, (colony) => settleBaton<unknown>(colony, action, id, rest));
      if (args.json) return printJson(value);
      printLines(spec.render(kind, id, value));
    },
  }) as CommandDef<ArgsDef>;
}

/**
 * @module trace-calls
 * With debug on (`--verbose`, COLONY_DEBUG), a line on stderr per tool call the MCP
 * server answers: the tool, its outcome (ok or the error code) and how long it took.
 */
import type { Colony } from '@swarm/core';
import { debug, debugEnabled } from './_debug';

export function traceCalls(colony: Colony): Colony {
  if (!debugEnabled()) return colony;
  const registry = colony.registry as { call: Colony['registry']['call'] };
  const call = registry.call.bind(colony.registry);
  registry.call = async (...params) => {
    const started = performance.now();
    const outcome = await call(...params);
    const result = outcome.ok ? 'ok' : outcome.error.code;
    debug(`call ${params[0]}: ${String(result)} in ${Math.round(performance.now() - started)} ms`);
    return outcome;
  };
  return colony;
}

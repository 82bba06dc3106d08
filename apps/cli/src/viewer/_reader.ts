/**
 * @module viewer/reader
 * The viewer's only way to the data: read-only tool calls through colony's registry.
 * A tool that mutates is refused before it runs, so the page can never change the
 * store, whatever a panel asks for. A tool's refusal becomes a PanelError the page
 * shows in words.
 */

import type { Colony } from '@swarm/core';
import { errorCodeOf } from '@swarm/tools';

export class PanelError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = 'PanelError';
  }
}

export type ReadTool = <T>(name: string, args: Record<string, unknown>) => Promise<T>;

export function readOnlyTools(colony: Colony): ReadTool {
  return async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const tool = colony.registry.get(name);
    if (!tool) throw new PanelError('UNKNOWN_TOOL', `this colony serves no ${name} tool`);
    if (tool.mutates) throw new PanelError('READ_ONLY', `the viewer never calls ${name}: it changes the store`);
    const outcome = await colony.handleToolCall(name, args);
    if (!outcome.ok) throw new PanelError(errorCodeOf(outcome.error), outcome.error.error);
    return outcome.value as T;
  };
}

/** Drops undefined entries, so an unset scope reaches a tool as an absent argument. */
export function given(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

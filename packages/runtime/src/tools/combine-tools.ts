/**
 * @module tools/combine-tools
 * Several tool sets as one (the agent's built-in and colony tools, MCP servers' tools,
 * the `skill` tool): the schemas together, and one executor routing each call to the
 * set that offered its name. A name offered twice keeps its first set, so a later set
 * (an MCP server) can never shadow a built-in or colony tool.
 */
import type { ToolSchema } from '@swarm/providers';
import { routeTools, type ToolExecutor } from '../loop/tool-caller.js';
import type { AgentTools } from './agent-tools.js';

export function combineTools(...sets: readonly AgentTools[]): AgentTools {
  const schemas: ToolSchema[] = [];
  const routes: Record<string, ToolExecutor> = Object.create(null);
  for (const set of sets) {
    for (const schema of set.schemas) {
      if (Object.hasOwn(routes, schema.name)) continue;
      routes[schema.name] = set.executor;
      schemas.push(schema);
    }
  }
  return { schemas, executor: routeTools(routes) };
}

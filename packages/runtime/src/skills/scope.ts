/**
 * @module skills/scope
 * The inline skill that restricts an agent's tools. Invoking an inline skill with
 * `allowed-tools` enters it; from then on, until the agent's session ends (the caller
 * clears the scope), `withSkillScope` refuses every call its filter does not allow, the
 * `skill` tool included, and a skill invoked inside it narrows the set further. A fork does not use the
 * scope: its sub-agent only ever sees the allowed tools.
 */
import type { ToolExecutor } from '../loop/tool-caller.js';
import { type ToolFilter, toolFilter } from './tool-filter.js';

export interface ActiveSkill {
  readonly skill: string;
  readonly allowed: readonly string[];
  readonly allows: ToolFilter;
}

export class SkillScope {
  #active: ActiveSkill | null = null;

  get active(): ActiveSkill | null {
    return this.#active;
  }

  /**
   * Restricts the tools to `allowed`, within what an already active skill allows (a
   * nested skill narrows, never widens); a skill without a list changes nothing.
   */
  enter(skill: string, allowed: readonly string[] | null): void {
    if (allowed === null) return;
    const outer = this.#active;
    const own = toolFilter(allowed);
    this.#active = outer
      ? { skill: `${outer.skill} > ${skill}`, allowed, allows: (name) => outer.allows(name) && own(name) }
      : { skill, allowed, allows: own };
  }

  clear(): void {
    this.#active = null;
  }
}

/** Wraps an executor: calls the active skill does not allow come back as errors, unrun. */
export function withSkillScope(executor: ToolExecutor, scope: SkillScope): ToolExecutor {
  return {
    async execute(call, options) {
      const active = scope.active;
      if (active && !active.allows(call.name)) {
        const list = active.allowed.length ? active.allowed.join(', ') : 'none';
        return {
          content: `tool ${call.name} is not allowed while skill "${active.skill}" runs (allowed-tools: ${list})`,
          is_error: true,
        };
      }
      return executor.execute(call, options);
    },
  };
}

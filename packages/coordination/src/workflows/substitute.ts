/**
 * @module workflows/substitute
 * `{{inputs.KEY}}` (and `{{feedback}}`) in prompts and commands. Inputs are checked
 * first: every declared input without a default must be given, and an undeclared one
 * is refused (a typo must not run a pipeline with an empty value). In shell strings a
 * value is single-quoted, so an input never becomes shell syntax.
 */
import type { WorkflowDefinition } from './workflow-definition';

export type InputCheck =
  | { readonly ok: true; readonly inputs: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly reason: string };

/** Parses `K=V` pairs (the value may hold `=`). */
export function parseInputPairs(pairs: readonly string[]): InputCheck {
  const inputs: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `--input ${pair}: expected KEY=VALUE` };
    inputs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { ok: true, inputs };
}

export function resolveInputs(def: WorkflowDefinition, given: Readonly<Record<string, string>>): InputCheck {
  const declared = new Set(def.inputs.map((i) => i.name));
  const unknown = Object.keys(given).filter((k) => !declared.has(k));
  if (unknown.length > 0) {
    return {
      ok: false,
      reason: `unknown input ${unknown.join(', ')} (declared: ${[...declared].join(', ') || 'none'})`,
    };
  }
  const inputs: Record<string, string> = {};
  const missing: string[] = [];
  for (const input of def.inputs) {
    const value = given[input.name] ?? input.default;
    if (value === undefined) missing.push(input.name);
    else inputs[input.name] = value;
  }
  if (missing.length > 0)
    return { ok: false, reason: `missing input ${missing.map((m) => `--input ${m}=...`).join(', ')}` };
  return { ok: true, inputs };
}

export interface Substitutions {
  readonly inputs: Readonly<Record<string, string>>;
  readonly feedback?: string | null;
}

const PLACEHOLDER = /\{\{\s*(inputs\.([A-Za-z0-9_.-]+)|feedback)\s*\}\}/g;

/** Fills placeholders in text as is (prompts). An unknown input stays visible. */
export function substituteText(text: string, subs: Substitutions): string {
  return text.replace(PLACEHOLDER, (whole, _all: string, key?: string) =>
    key === undefined ? (subs.feedback ?? '') : (subs.inputs[key] ?? whole),
  );
}

/** Fills placeholders in a shell string, each value single-quoted. */
export function substituteShell(command: string, subs: Substitutions): string {
  return command.replace(PLACEHOLDER, (whole, _all: string, key?: string) => {
    const value = key === undefined ? (subs.feedback ?? '') : subs.inputs[key];
    return value === undefined ? whole : shellQuote(value);
  });
}

export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

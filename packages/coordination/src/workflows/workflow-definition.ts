/**
 * @module workflows/workflow-definition
 * The schema of a workflow definition (`.colony/workflows/<name>.yaml`; seed 003 names
 * the feature and its errors, the schema is ours). Stages form a DAG through
 * `depends_on`. Four stage types: `agent` (the default: a runtime agent given a prompt),
 * `command` (argv or a shell string, with a timeout), `check` (a command gate: it must
 * exit 0) and `approval` (a human gate: the run pauses until approve or reject).
 * Timeouts are seconds. Names are checked by the rules (workflow-rules.ts), so their
 * refusals carry the seed's messages.
 */
import { z } from 'zod';

const Common = {
  name: z.string().min(1),
  description: z.string().optional(),
  depends_on: z.array(z.string().min(1)).default([]),
};
const Runnable = {
  /** A shell string (`sh -c`). */
  command: z.string().min(1).optional(),
  /** An argument vector (each element quoted for the shell). */
  argv: z.array(z.string()).min(1).optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** Seconds; default 600. */
  timeout: z.number().int().min(1).max(86_400).optional(),
};

export const AgentStageSchema = z.strictObject({
  ...Common,
  type: z.literal('agent'),
  /** An agent of the project's runtime settings (default: the only one, else the default provider). */
  agent: z.string().min(1).optional(),
  prompt: z.string().min(1),
  /** Model requests; default 20. */
  max_turns: z.number().int().min(1).max(500).optional(),
  timeout: z.number().int().min(1).max(86_400).optional(),
});
export const CommandStageSchema = z.strictObject({ ...Common, ...Runnable, type: z.literal('command') });
export const CheckStageSchema = z.strictObject({ ...Common, ...Runnable, type: z.literal('check') });
export const ApprovalStageSchema = z.strictObject({
  ...Common,
  type: z.literal('approval'),
  /** What the approver is asked. */
  message: z.string().optional(),
});

/** `type` defaults to `agent`. */
export const StageSchema = z.preprocess(
  (raw) => (raw && typeof raw === 'object' && !('type' in raw) ? { ...raw, type: 'agent' } : raw),
  z.discriminatedUnion('type', [AgentStageSchema, CommandStageSchema, CheckStageSchema, ApprovalStageSchema]),
);

export const InputSchema = z.union([
  z.string().min(1),
  z.strictObject({ name: z.string().min(1), default: z.string().optional(), description: z.string().optional() }),
]);

export const WorkflowDefinitionSchema = z.strictObject({
  /** Default: the file's name. */
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  /** Keys `--input K=V` must give (an input with a default is optional). */
  inputs: z.array(InputSchema).default([]),
  stages: z.array(StageSchema).min(1),
});

export type AgentStage = z.infer<typeof AgentStageSchema>;
export type CommandStage = z.infer<typeof CommandStageSchema>;
export type CheckStage = z.infer<typeof CheckStageSchema>;
export type ApprovalStage = z.infer<typeof ApprovalStageSchema>;
export type WorkflowStage = AgentStage | CommandStage | CheckStage | ApprovalStage;
export type StageType = WorkflowStage['type'];

/** A validated definition: named, inputs normalized. */
export interface WorkflowDefinition {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputs: readonly { readonly name: string; readonly default?: string | undefined }[];
  readonly stages: readonly WorkflowStage[];
}

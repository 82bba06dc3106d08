/**
 * @module tool-types
 * The catalog's tools as types: `ToolName` (the union of every tool's name) and, by
 * name, the arguments a caller passes, the answer a successful call gives and the
 * refusal payload it can give instead. All read from the tool definitions
 * (`DefinedTool`), so a new tool needs nothing here.
 */
import type { COLONY_TOOLS } from './catalog';
import type { ColonyErrorPayload, ErrorCode, SynthaErrorPayload } from './errors';

type CatalogTool = (typeof COLONY_TOOLS)[number];
type Types<N extends ToolName> = NonNullable<Extract<CatalogTool, { readonly name: N }>['~types']>;

/** Every tool colony serves, by name. */
export type ToolName = CatalogTool['name'];

/** What a caller passes to tool `N` (before defaults are applied). */
export type ToolArgs<N extends ToolName> = Types<N>['args'];

/** What a successful call of tool `N` answers (`value` of a successful outcome). */
export type ToolResult<N extends ToolName> = Types<N>['result'];

/** The refusal payload of tool `N`: colony's `{ code, error }` or seed 001's `{ success: false, error_code }`. */
export type ToolError<N extends ToolName> = Types<N>['errorFormat'] extends 'syntha'
  ? SynthaErrorPayload
  : ColonyErrorPayload;

/** The outcome of a call of tool `N`: its typed answer, or a refusal with its closed code. */
export type ToolOutcome<N extends ToolName> =
  | {
      readonly ok: true;
      readonly value: ToolResult<N>;
      readonly text: string;
      readonly ignoredArguments?: readonly string[];
    }
  | { readonly ok: false; readonly code: ErrorCode; readonly error: ToolError<N>; readonly text: string };

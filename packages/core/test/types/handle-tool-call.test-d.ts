/**
 * Type tests of `handleToolCall` (checked by `pnpm typecheck`, never run): a literal
 * tool name types the arguments and the answer from the tool's definition, refusals
 * carry the closed `ErrorCode` union, and a plain string still takes untrusted input.
 * Each `@ts-expect-error` fails the check if the line it marks ever compiles.
 */
import type { CompactSearchHit } from '@swarm/tools';
import { expectTypeOf } from 'vitest';
import {
  type Colony,
  type ErrorCode,
  openColony,
  type ToolArgs,
  type ToolCallOutcome,
  type ToolName,
  type ToolResult,
} from '../../src/index';

declare const colony: Colony;

export async function typedCalls(): Promise<void> {
  const found = await colony.handleToolCall('search', { query: 'rate limiter', limit: 5 });
  if (found.ok) expectTypeOf(found.value).toEqualTypeOf<CompactSearchHit[]>();
  else {
    expectTypeOf(found.code).toEqualTypeOf<ErrorCode>();
    expectTypeOf(found.error.code).toEqualTypeOf<ErrorCode | 429>();
  }

  // A mutating tool takes idempotency_key; a read-only one does not.
  await colony.handleToolCall('task_post', {
    task_id: 1,
    session_id: 's',
    kind: 'decision',
    content: 'x',
    idempotency_key: 'k',
  });
  // @ts-expect-error search is read-only: no idempotency_key
  await colony.handleToolCall('search', { query: 'q', idempotency_key: 'k' });
  // @ts-expect-error query is a string
  await colony.handleToolCall('search', { query: 42 });
  // @ts-expect-error query is required
  await colony.handleToolCall('search', { limit: 5 });
  // @ts-expect-error kind is one of the post kinds
  await colony.handleToolCall('task_post', { task_id: 1, session_id: 's', kind: 'rant', content: 'x' });

  // A name known only at run time: untrusted arguments, the untyped outcome.
  const fromModel: string = 'search';
  const untyped = await colony.handleToolCall(fromModel, { anything: true });
  expectTypeOf(untyped).toEqualTypeOf<ToolCallOutcome>();
  if (!untyped.ok) expectTypeOf(untyped.code).toEqualTypeOf<ErrorCode>();
}

export function catalogTypes(): void {
  expectTypeOf<'search'>().toExtend<ToolName>();
  expectTypeOf<'task_post'>().toExtend<ToolName>();
  expectTypeOf<'no_such_tool'>().not.toExtend<ToolName>();
  expectTypeOf<ToolArgs<'search'>['query']>().toEqualTypeOf<string>();
  expectTypeOf<ToolResult<'search'>>().toEqualTypeOf<CompactSearchHit[]>();
  expectTypeOf(openColony).returns.toEqualTypeOf<Colony>();
}

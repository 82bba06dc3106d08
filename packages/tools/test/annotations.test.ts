/**
 * Tool annotations: declared once in the definition (readOnlyHint from `mutates`, the
 * other hints stated), and sent in tools/list without the hints the MCP spec assumes.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COLONY_TOOLS, defineTool } from '../src';
import { wireAnnotations } from '../src/mcp';

const base = {
  title: 'Thing',
  description: 'A thing.',
  input: z.strictObject({}),
  docs: { returns: '{}', example: {} },
  handler: () => ({}),
};

describe('defineTool annotations', () => {
  it('makes a tool read-only exactly when it does not mutate', () => {
    for (const tool of COLONY_TOOLS) {
      expect(tool.annotations.readOnlyHint, tool.name).toBe(!tool.mutates);
      expect(tool.title, tool.name).not.toBe('');
    }
  });

  it('refuses a mutating tool that does not state destructive and idempotent', () => {
    expect(() => defineTool({ ...base, name: 'write_it', mutates: true })).toThrow(/hints.destructive/);
    expect(() => defineTool({ ...base, name: 'write_it', mutates: true, hints: { destructive: true } })).toThrow();
  });

  it('refuses write hints on a read-only tool', () => {
    expect(() => defineTool({ ...base, name: 'read_it', mutates: false, hints: { destructive: false } })).toThrow(
      /read-only/,
    );
  });
});

describe('wireAnnotations', () => {
  it('leaves out the hints the spec assumes and those meaningless on a read-only tool', () => {
    const read = defineTool({ ...base, name: 'read_it', mutates: false });
    expect(wireAnnotations(read.annotations)).toEqual({ readOnlyHint: true, openWorldHint: false });
    const write = defineTool({
      ...base,
      name: 'write_it',
      mutates: true,
      hints: { destructive: false, idempotent: true },
    });
    expect(wireAnnotations(write.annotations)).toEqual({
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    const run = defineTool({
      ...base,
      name: 'run_it',
      mutates: true,
      hints: { destructive: true, idempotent: false, openWorld: true },
    });
    expect(wireAnnotations(run.annotations)).toEqual({});
  });
});

/**
 * Hook input: the payloads Claude Code and Codex write on stdin are accepted with
 * their extra fields, anything colony cannot act on is refused in one line, and the
 * files an edit tool touches are read from each IDE's tool input.
 */
import { describe, expect, it } from 'vitest';
import { editTargets, patchFiles } from '../src/hooks/edit-targets';
import { HookInputError, parseHookPayload } from '../src/index';

const claudePre = {
  session_id: 'abc123',
  transcript_path: '/home/u/.claude/projects/p/abc123.jsonl',
  cwd: '/abs/repo',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: '/abs/repo/src/a.ts', old_string: 'a', new_string: 'b', replace_all: false },
  tool_use_id: 'toolu_01',
};

describe('parseHookPayload', () => {
  it("accepts an IDE's payload with fields colony does not use", () => {
    expect(parseHookPayload('pre-tool-use', JSON.stringify(claudePre))).toMatchObject({
      session_id: 'abc123',
      tool_name: 'Edit',
      permission_mode: 'default',
    });
    const codexStart = {
      session_id: 't-1',
      transcript_path: null,
      cwd: '/abs/repo',
      hook_event_name: 'SessionStart',
      model: 'gpt-5',
      permission_mode: 'default',
      source: 'startup',
    };
    expect(parseHookPayload('session-start', JSON.stringify(codexStart)).source).toBe('startup');
  });

  it.each([
    ['', 'no hook JSON on stdin for pre-tool-use'],
    ['{"session_id":', 'hook input for pre-tool-use is not JSON:'],
    ['[1,2]', 'invalid pre-tool-use hook input: input: Invalid input: expected object'],
    [JSON.stringify({ ...claudePre, tool_name: undefined }), 'invalid pre-tool-use hook input: tool_name:'],
    [
      JSON.stringify({ ...claudePre, cwd: 'relative/dir' }),
      'invalid pre-tool-use hook input: cwd: must be an absolute path',
    ],
    [JSON.stringify({ ...claudePre, session_id: '  ' }), 'invalid pre-tool-use hook input: session_id:'],
    [
      JSON.stringify({ ...claudePre, hook_event_name: 'PostToolUse' }),
      'hook input is a PostToolUse event but the hook was registered for pre-tool-use',
    ],
  ])('refuses %j in one line', (raw, message) => {
    let error: unknown;
    try {
      parseHookPayload('pre-tool-use', raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HookInputError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('editTargets', () => {
  it('reads file_path (Edit, Write, MultiEdit) and notebook_path (NotebookEdit)', () => {
    expect(editTargets('Write', { file_path: 'src/a.ts', content: 'x' }, '/abs/repo')).toEqual(['/abs/repo/src/a.ts']);
    expect(editTargets('NotebookEdit', { notebook_path: '/abs/repo/n.ipynb', new_source: '' }, '/x')).toEqual([
      '/abs/repo/n.ipynb',
    ]);
  });

  it('reads every file of an apply_patch, relative to the cwd', () => {
    const patch =
      '*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** Delete File: c.ts\n*** End Patch\n';
    expect(editTargets('apply_patch', { command: patch }, '/r')).toEqual(['/r/a.ts', '/r/b.ts', '/r/c.ts']);
    expect(patchFiles('*** Add File: x.md\r\n+hi\r\n*** Add File: x.md\r\n')).toEqual(['x.md']);
  });

  it('names nothing for tools that do not edit, or inputs without a path', () => {
    expect(editTargets('Read', { file_path: '/abs/a.ts' }, '/abs')).toEqual([]);
    expect(editTargets('Bash', { command: '*** Update File: a.ts' }, '/abs')).toEqual([]);
    expect(editTargets('Edit', { file_path: 42 }, '/abs')).toEqual([]);
  });
});

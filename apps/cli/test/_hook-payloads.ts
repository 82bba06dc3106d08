/**
 * Hook payloads shaped exactly as the IDEs write them on stdin (field for field, from
 * the Claude Code hooks reference and Codex's generated hook input schemas), for
 * driving `colony hook run` as the IDEs do.
 */

const CLAUDE_MODEL = 'claude-sonnet-4-5-20250929';
const CODEX_MODEL = 'gpt-5.1-codex';

function claudeBase(sessionId: string, cwd: string, event: string) {
  return {
    session_id: sessionId,
    transcript_path: `/home/dev/.claude/projects/${cwd.replaceAll('/', '-')}/${sessionId}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: event,
  };
}

export const claude = {
  sessionStart: (sessionId: string, cwd: string) => ({
    ...claudeBase(sessionId, cwd, 'SessionStart'),
    source: 'startup',
    model: CLAUDE_MODEL,
  }),
  userPromptSubmit: (sessionId: string, cwd: string, prompt: string) => ({
    ...claudeBase(sessionId, cwd, 'UserPromptSubmit'),
    prompt,
  }),
  preEdit: (sessionId: string, cwd: string, filePath: string) => ({
    ...claudeBase(sessionId, cwd, 'PreToolUse'),
    tool_name: 'Edit',
    tool_input: { file_path: filePath, old_string: 'const a = 1;', new_string: 'const a = 2;', replace_all: false },
    tool_use_id: 'toolu_01ABCxyz',
  }),
  postWrite: (sessionId: string, cwd: string, filePath: string) => ({
    ...claudeBase(sessionId, cwd, 'PostToolUse'),
    tool_name: 'Write',
    tool_input: { file_path: filePath, content: 'export const b = 1;\n' },
    tool_response: { type: 'create', filePath, content: 'export const b = 1;\n', structuredPatch: [] },
    tool_use_id: 'toolu_01DEFxyz',
  }),
  stop: (sessionId: string, cwd: string) => ({
    ...claudeBase(sessionId, cwd, 'Stop'),
    stop_hook_active: false,
  }),
};

function codexBase(sessionId: string, cwd: string, event: string) {
  return {
    session_id: sessionId,
    transcript_path: null,
    cwd,
    hook_event_name: event,
    model: CODEX_MODEL,
    permission_mode: 'default',
  };
}

export const codex = {
  sessionStart: (sessionId: string, cwd: string) => ({
    ...codexBase(sessionId, cwd, 'SessionStart'),
    source: 'startup',
  }),
  userPromptSubmit: (sessionId: string, cwd: string, prompt: string) => ({
    ...codexBase(sessionId, cwd, 'UserPromptSubmit'),
    turn_id: 'turn-1',
    prompt,
  }),
  applyPatch: (event: 'PreToolUse' | 'PostToolUse', sessionId: string, cwd: string, patch: string) => ({
    ...codexBase(sessionId, cwd, event),
    turn_id: 'turn-2',
    tool_name: 'apply_patch',
    tool_input: { command: patch },
    tool_use_id: 'call_8f2kQ',
    ...(event === 'PostToolUse' ? { tool_response: 'Success. Updated the following files:\nM src/a.ts' } : {}),
  }),
  stop: (sessionId: string, cwd: string) => ({
    ...codexBase(sessionId, cwd, 'Stop'),
    turn_id: 'turn-3',
    stop_hook_active: false,
    last_assistant_message: 'Done.',
  }),
};

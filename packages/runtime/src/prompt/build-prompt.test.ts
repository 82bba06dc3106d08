import { describe, expect, it } from 'vitest';
import { buildPrompt, formatAge, promptSections } from './build-prompt.js';
import type { PromptContext } from './prompt-context.js';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const base: PromptContext = {
  agent_name: 'backend',
  agent_prompt: 'You own the API and the data layer.\n',
  mode: null,
  session_id: '20261125-a3f2',
  session_seq: 1,
  db_path: '/home/u/.colony/colony.db',
  worktree_path: '/repo/.colony/worktrees/backend',
  agent_names: ['backend', 'frontend', 'reviewer'],
  colony_session_id: 'swarm-20261125-a3f2-backend',
  environment: {
    platform: 'linux',
    os_version: '6.1.0',
    shell: '/bin/bash',
    cwd: '/repo/.colony/worktrees/backend',
    git_status: ' M src/api.ts\n?? notes.md\n',
    recent_commits: 'abc1234 api: users endpoint\ndef5678 initial\n',
  },
  messages: [],
  now: NOW,
};
const ids = (ctx: PromptContext) => promptSections(ctx).map((s) => s.id);
const section = (ctx: PromptContext, id: string) => promptSections(ctx).find((s) => s.id === id)?.text;

describe('buildPrompt (seed 003 prompt pipeline)', () => {
  it('always has sections 1, 2, 6-11 and 14, in order, and nothing conditional without data', () => {
    expect(promptSections(base).map((s) => s.number)).toEqual([1, 2, 6, 7, 8, 9, 10, 11, 14]);
    expect(buildPrompt(base)).toBe(
      promptSections(base)
        .map((s) => s.text)
        .join('\n\n'),
    );
  });

  it('1 identity: the agent name and its teammates', () => {
    expect(section(base, 'identity')).toMatch(/You are backend, one of 3 agents \(backend, frontend, reviewer\)/);
  });

  it('2 role: the configured prompt text', () => {
    expect(section(base, 'role')).toBe('# Your Role\n\nYou own the API and the data layer.');
  });

  it('3 mode instructions only when a mode is set, per mode', () => {
    expect(section({ ...base, mode: 'code' }, 'mode')).toMatch(/^# Mode: code\n\nYou are in code mode/);
    expect(section({ ...base, mode: 'delegate' }, 'mode')).toMatch(/you do not edit files yourself/);
    expect(ids(base)).not.toContain('mode');
  });

  it('4 workflow context only inside a workflow', () => {
    expect(section({ ...base, workflow_context: 'Stage: review' }, 'workflow')).toBe(
      '# Workflow Context\n\nStage: review',
    );
    expect(ids({ ...base, workflow_context: '  ' })).not.toContain('workflow');
  });

  it('5 project instructions when AGENTS.md exists', () => {
    expect(section({ ...base, project_instructions: '# Rules\nUse pnpm.' }, 'project')).toBe(
      '# Project Instructions (AGENTS.md)\n\n# Rules\nUse pnpm.',
    );
    expect(ids({ ...base, project_instructions: null })).not.toContain('project');
  });

  it('6-8 and 10: the fixed texts', () => {
    expect(section(base, 'mandates')).toMatch(/Commit discipline/);
    expect(section(base, 'mandates')).toMatch(/Branch hygiene/);
    expect(section(base, 'mandates')).toMatch(/Communication protocol/);
    expect(section(base, 'doing-tasks')).toMatch(/^# Doing Tasks/);
    expect(section(base, 'tool-policy')).toMatch(/denied tool call/);
    expect(section(base, 'tone')).toMatch(/^# Tone & Style/);
  });

  it("9 swarm workflow: colony's loop with the plan tools and the agent's colony session", () => {
    const text = section(base, 'swarm-workflow')!;
    expect(text).toMatch(/Your teammates: frontend, reviewer\./);
    expect(text).toContain('swarm-20261125-a3f2-backend');
    for (const tool of [
      'task_ready_for_agent',
      'task_plan_claim_subtask',
      'task_plan_complete_subtask',
      'task_message',
    ]) {
      expect(text).toContain(tool);
    }
  });

  it('11 environment: platform, OS, shell, cwd, date, git status and recent commits as given', () => {
    const text = section(base, 'environment')!;
    expect(text).toContain('- Platform: linux');
    expect(text).toContain('- OS version: 6.1.0');
    expect(text).toContain('- Shell: /bin/bash');
    expect(text).toContain('- Working directory: /repo/.colony/worktrees/backend');
    expect(text).toContain('- Date: 2026-11-25');
    expect(text).toContain('git status --short:\n M src/api.ts\n?? notes.md');
    expect(text).toContain('Recent commits (git log --oneline -5):\nabc1234 api: users endpoint\ndef5678 initial');
    expect(section({ ...base, environment: { ...base.environment, git_status: '' } }, 'environment')).toContain(
      'git status --short:\n(none)',
    );
  });

  it("12 messages: the seed's format, [URGENT] first marker, ages from the clock", () => {
    const ctx = {
      ...base,
      messages: [
        {
          from: 'backend',
          body: 'The API endpoint /users is returning 500 errors.',
          urgent: true,
          sent_at: NOW - 120_000,
        },
        { from: 'frontend', body: 'Login page ready.', urgent: false, sent_at: NOW - 300_000 },
      ],
    };
    expect(section(ctx, 'messages')).toBe(
      [
        '## Messages from teammates',
        '',
        '[URGENT] From backend (2m ago):',
        'The API endpoint /users is returning 500 errors.',
        '',
        'From frontend (5m ago):',
        'Login page ready.',
      ].join('\n'),
    );
    expect(ids(base)).not.toContain('messages');
    expect([
      formatAge(NOW - 5_000, NOW),
      formatAge(NOW - 7_200_000, NOW),
      formatAge(NOW - 3 * 86_400_000, NOW),
    ]).toEqual(['5s ago', '2h ago', '3d ago']);
  });

  it('13 available plan sub-tasks with the claim call; left out when colony was not asked', () => {
    const ctx = {
      ...base,
      ready_subtasks: [
        {
          plan_slug: 'auth',
          subtask_index: 0,
          title: 'Implement login endpoint',
          status: 'available',
          file_scope: ['src/auth.ts'],
        },
        { plan_slug: 'auth', subtask_index: 2, title: 'Write tests', status: 'claimed' },
      ],
    };
    const text = section(ctx, 'subtasks')!;
    expect(text).toContain('- auth/0: [available] Implement login endpoint (files: src/auth.ts)');
    expect(text).toContain('- auth/2: [claimed] Write tests');
    expect(text).toContain(
      'task_plan_claim_subtask { plan_slug, subtask_index, session_id: "swarm-20261125-a3f2-backend", agent: "backend" }',
    );
    expect(section({ ...base, ready_subtasks: [] }, 'subtasks')).toBe(
      '## Available Tasks (colony plans)\n\n(none ready)',
    );
    expect(ids({ ...base, ready_subtasks: null })).not.toContain('subtasks');
  });

  it('14 session context: id and sequence; the interrupt context verbatim only after an interrupt', () => {
    expect(section(base, 'session')).toContain('- Session id: 20261125-a3f2');
    expect(section(base, 'session')).toContain('- Session sequence: 1');
    expect(section(base, 'session')).not.toContain('Interrupt');
    const text = section({ ...base, interrupt_context: 'urgent message from operator' }, 'session')!;
    expect(text).toContain(
      '## Interrupt Context\n\nYou were interrupted by an urgent message. Your previous session was cancelled\nso you could process this message. Review the messages section above and respond\nto the urgent request.',
    );
  });

  it('is fresh each time: the same context gives the same prompt, a changed one a changed prompt', () => {
    expect(buildPrompt(base)).toBe(buildPrompt({ ...base }));
    expect(buildPrompt({ ...base, session_seq: 2 })).not.toBe(buildPrompt(base));
  });
});

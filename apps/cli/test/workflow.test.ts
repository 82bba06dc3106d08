/**
 * `colony swarm workflow` as real CLI processes on a temp repository: a run with a
 * command gate and an approval gate pauses and its process exits, a second process
 * approves and the run completes; a failing check gate fails the run; reject with
 * feedback re-runs the stages before the gate (an agent on the scripted provider, an
 * agent CLI on the command provider whose prompt carries the feedback, and a command
 * that sees it); validate gives the seed's messages; a driver killed
 * mid-stage leaves the run interrupted, and retry kills its orphaned processes and
 * finishes it; cancel from another process kills a running stage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIP, workflowRepo } from './_workflow';

describe('colony swarm workflow', () => {
  it('pauses at the approval gate, the process exits, approve from a second process completes the run', () => {
    const w = workflowRepo();
    w.write('.colony/workflows/ship.yaml', SHIP);
    expect(w.colony(['swarm', 'workflow', 'list']).stdout).toContain('ship  4 stages');
    const run = w.colony(['swarm', 'workflow', 'run', 'ship', '--input', 'issue=12', '--json']);
    expect(run.code).toBe(0);
    const paused = run.json();
    expect(paused.state).toBe('awaiting_approval');
    const id = paused.run_id as string;
    const status = w.colony(['swarm', 'workflow', 'status', id, '--json']).json();
    expect(status.stages.map((s: { state: string }) => s.state)).toEqual([
      'completed',
      'completed',
      'awaiting_approval',
      'pending',
    ]);
    expect(status.driver).toBeNull();
    const approved = w.colony(['swarm', 'workflow', 'approve', id]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('stage release: completed');
    const done = w.colony(['swarm', 'workflow', 'status', id, '--json']).json();
    expect(done.state).toBe('completed');
    expect(done.stages.find((s: { name: string }) => s.name === 'release').output).toBe('building 12');
    expect(w.colony(['swarm', 'workflow', 'show', id]).stdout).toContain('    building 12');
    const again = w.colony(['swarm', 'workflow', 'approve', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`run ${id} is completed, not awaiting approval`);
  }, 30_000);

  it('a failing check gate fails the run with a clear status, and refuses a missing input', () => {
    const w = workflowRepo();
    w.write('.colony/workflows/ship.yaml', SHIP.replace('> built.txt', '> other.txt'));
    expect(w.colony(['swarm', 'workflow', 'run', 'ship']).stderr).toContain('missing input --input issue=...');
    const run = w.colony(['swarm', 'workflow', 'run', 'ship', '--input', 'issue=1']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('ship  failed  1/4 stages: check gate check failed: exit 1');
    const [listed] = w.colony(['swarm', 'workflow', 'status', '--json']).json();
    expect(listed.state).toBe('failed');
    expect(listed.stages.map((s: { state: string }) => s.state)).toEqual(['completed', 'failed', 'pending', 'pending']);
  }, 30_000);

  it('reject --feedback re-runs the agent and command stages before the gate with the feedback, then pauses again', () => {
    const script = [
      { tool_calls: [{ name: 'workflow_output', input: { key: 'summary', value: 'implemented' } }] },
      { text: 'done' },
    ];
    const w = workflowRepo({
      agents: [
        { name: 'backend', prompt: 'You own the API.', provider: 'fake' },
        { name: 'scribe', prompt: 'You write notes.', provider: 'cli' },
      ],
      providers: {
        fake: { type: 'scripted', script },
        // An external agent CLI: here a shell that appends the prompt it is given to a file.
        cli: {
          type: 'command',
          preset: 'jsonl',
          argv: ['sh', '-c', 'printf "%s\n--\n" "$1" >> prompts.txt', 'sh', '{prompt}'],
        },
      },
      defaults: { provider: 'fake' },
    });
    w.write(
      '.colony/workflows/feature.yaml',
      `
inputs: [issue]
stages:
  - name: implement
    agent: backend
    prompt: "Implement issue {{inputs.issue}}"
  - name: draft
    agent: scribe
    prompt: "Draft notes for {{inputs.issue}}"
    depends_on: [implement]
  - name: notes
    type: command
    command: 'echo "feedback=$COLONY_WORKFLOW_FEEDBACK" >> notes.txt'
    depends_on: [draft]
  - name: review
    type: approval
    depends_on: [notes]
`,
    );
    const id = w.colony(['swarm', 'workflow', 'run', 'feature', '--input', 'issue=7', '--json']).json().run_id;
    const shown = w.colony(['swarm', 'workflow', 'show', id]).stdout;
    expect(shown).toContain('    summary: implemented');
    const rejected = w.colony(['swarm', 'workflow', 'reject', id, '--feedback', 'add tests', '--json']);
    expect(rejected.code).toBe(0);
    const run = rejected.json();
    expect(run.state).toBe('awaiting_approval');
    expect(run.feedback).toBe('add tests');
    expect(run.stages.map((s: { attempts: number }) => s.attempts)).toEqual([2, 2, 2, 0]);
    const prompts = readFileSync(join(w.repo, 'prompts.txt'), 'utf8');
    expect(prompts).toContain('Draft notes for 7\n--\n');
    expect(prompts).toContain('Draft notes for 7\n\nFeedback from the last review: add tests');
    expect(readFileSync(join(w.repo, 'notes.txt'), 'utf8')).toBe('feedback=\nfeedback=add tests\n');
  }, 30_000);

  it('validate reports a cycle, an unknown dependency and a bad stage name with the seed messages', () => {
    const w = workflowRepo();
    w.write(
      '.colony/workflows/loop.yaml',
      `
stages:
  - { name: a, type: command, command: "true", depends_on: [b] }
  - { name: b, type: command, command: "true", depends_on: [a] }
`,
    );
    w.write(
      '.colony/workflows/bad.yaml',
      `
stages:
  - { name: Build, type: command, command: "true" }
  - { name: test, type: command, command: "true", depends_on: [lint] }
  - { name: deploy, type: command }
`,
    );
    const loop = w.colony(['swarm', 'workflow', 'validate', 'loop']);
    expect(loop.code).toBe(1);
    expect(loop.stderr).toBe('colony: circular dependency detected in workflow stages: a -> b -> a\n');
    const bad = w.colony(['swarm', 'workflow', 'validate', 'bad']);
    expect(bad.stderr).toContain("invalid stage name 'Build': must match [a-z][a-z0-9_-]*");
    expect(bad.stderr).toContain("unknown dependency 'lint' in stage 'test'");
    expect(bad.stderr).toContain("stage 'deploy': give exactly one of command and argv");
    expect(w.colony(['swarm', 'workflow', 'validate', 'nope']).stderr).toBe('colony: workflow not found: nope\n');
    w.write('.colony/workflows/typo.yaml', 'stages:\n  - { name: a, type: command, comand: "x" }\n');
    expect(w.colony(['swarm', 'workflow', 'validate', 'typo']).stderr).toContain(
      'workflow validation failed: stages.0',
    );
  }, 30_000);
});

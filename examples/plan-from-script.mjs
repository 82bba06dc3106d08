#!/usr/bin/env node
// Publishing a plan from a script (a CI job, a setup script), then two agents working it.
//
// The script builds a three-wave plan, dry-runs it (CI would stop here on a
// refusal), publishes it through `colony.plans.publish`, and two scripted agents claim
// and complete sub-tasks wave by wave with the same tool calls an agent makes over MCP.
// Everything runs in a temporary repository and data home, offline.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openColony } from '@swarm/core';

const home = mkdtempSync(join(tmpdir(), 'colony-plan-example-'));
const repo = join(home, 'repo');
mkdirSync(repo);
// task_plan_publish arguments; session_id and agent default to the script's.
// (`colony plan publish plan.yaml` reads the same object from a JSON or YAML file.)
const plan = {
  repo_root: repo,
  slug: 'add-widget-page',
  title: 'Add widget page',
  problem: 'Users have no entry point to widgets.',
  acceptance_criteria: ['Widget page renders', 'Widget API returns rows'],
  subtasks: [
    {
      title: 'Prepare storage',
      description: 'Add the widgets table.',
      file_scope: ['packages/storage/src/widgets.ts'],
    },
    {
      title: 'Build widget API',
      description: 'GET /api/widgets returns rows.',
      file_scope: ['apps/api/src/widgets.ts'],
      depends_on: [0],
      capability_hint: 'api_work',
    },
    {
      title: 'Build widget page',
      description: 'One card per row.',
      file_scope: ['apps/web/src/widgets.tsx'],
      depends_on: [0],
      capability_hint: 'ui_work',
    },
    {
      title: 'Verify release',
      description: 'End-to-end check of page and API.',
      file_scope: ['apps/web/test/widgets.e2e.ts'],
      depends_on: [1, 2],
      capability_hint: 'test_work',
    },
  ],
};

const colony = openColony({ home, roots: [repo] });

const dry = await colony.plans.publish(plan, { dryRun: true });
console.log(`dry run: ${dry.refusal ?? 'would publish'}; waves ${dry.subtasks.map((s) => s.wave_index).join(' ')}`);
if (dry.refusal) process.exit(1);

const published = await colony.plans.publish(plan, { sessionId: 'ci-build-1', agent: 'ci' });
console.log(
  `published ${published.plan_slug}: ${published.subtasks.length} sub-tasks on spec/${published.plan_slug}/sub-N`,
);

async function call(tool, args) {
  const outcome = await colony.handleToolCall(tool, args);
  if (!outcome.ok) throw new Error(`${tool} -> ${outcome.error.code}: ${outcome.error.error}`);
  return outcome.value;
}
const agents = { claude: 'claude-session', codex: 'codex-session' };
const next = async () => (await colony.plans.list({ repo_root: repo }))[0].next_available.map((s) => s.subtask_index);

// Wave by wave: every agent takes a claimable sub-task, does the work, completes it.
for (let wave = 0; (await next()).length > 0; wave++) {
  const claimable = await next();
  const taken = [];
  for (const [i, index] of claimable.entries()) {
    const agent = Object.keys(agents)[i % 2];
    const claim = await call('task_plan_claim_subtask', {
      plan_slug: published.plan_slug,
      subtask_index: index,
      session_id: agents[agent],
      agent,
    });
    taken.push({ agent, index, files: claim.file_scope });
  }
  for (const { agent, index, files } of taken) {
    const done = await call('task_plan_complete_subtask', {
      plan_slug: published.plan_slug,
      subtask_index: index,
      session_id: agents[agent],
      summary: `sub-${index} done`,
    });
    const unblocked = done.unblocked.length ? `, unblocked ${done.unblocked.join(', ')}` : '';
    console.log(`wave ${wave}: ${agent} completed sub-${index} (${files.join(', ')})${unblocked}`);
  }
}

const [final] = await colony.plans.list({ repo_root: repo });
console.log(`plan ${final.plan_slug}: ${final.subtask_counts.completed}/${final.subtasks.length} completed`);
await colony.close();

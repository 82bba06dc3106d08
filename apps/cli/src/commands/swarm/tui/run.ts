/**
 * @module swarm/tui/run
 * Opens the dashboard on this terminal for the session of `root` (`colony swarm start`
 * on a TTY, `colony swarm attach`) and resolves when it closes: `detach` (q: the session
 * keeps running) or `stop` (Ctrl+C or `stop` in the input bar: stopped and finished).
 * The only module that loads ink and React; the CLI imports it lazily, so no other
 * command pays for them.
 */
import { render } from 'ink';
import { createElement as h } from 'react';
import { callTool, openFromArgs, type StoreFlags } from '../../../_colony';
import { controlOptions } from '../_session';
import type { TaskLine } from './_model';
import { pollSession } from './_poll';
import { snapshotStore } from './_store';
import { workflowLine } from './_workflow-line';
import { Dashboard, type DashboardActions, type ExitReason } from './dashboard';

export interface DashboardResult {
  readonly reason: ExitReason;
  readonly notice: string;
}

export async function runDashboard(root: string, flags: StoreFlags): Promise<DashboardResult> {
  const runtime = await import('@swarm/core/runtime');
  const options = controlOptions({ ...flags, repo: root });
  const colony = await openFromArgs(flags);
  const store = snapshotStore();
  const poller = pollSession(store, {
    root,
    readStatus: runtime.readSessionStatus,
    readTasks: () => tasksOf(root),
    readWorkflows: async () => (await runtime.workflowStatus(options)).map(workflowLine),
  });
  const actions: DashboardActions = {
    async send(to, body, urgent) {
      const r = await runtime.sendToAgents({ ...options, to, body, urgent });
      return `sent to ${r.sent_to.join(', ')}${urgent ? ' (urgent)' : ''}`;
    },
    async stop(mode) {
      const r = await runtime.stopSwarm({ ...options, mode });
      return `session ${r.session_id} stopped (${mode})`;
    },
  };
  let result: DashboardResult = { reason: 'detach', notice: '' };
  const app = render(
    h(Dashboard, {
      store,
      actions,
      rows: process.stdout.rows ?? 24,
      onExit: (reason, notice) => {
        result = { reason, notice };
      },
    }),
    { exitOnCtrlC: false, maxFps: 10 },
  );
  try {
    await app.waitUntilExit();
  } finally {
    poller.stop();
    store.close();
    await colony.close();
  }
  return result;

  async function tasksOf(repo_root: string): Promise<TaskLine[]> {
    const plans = await callTool<PlanRow[]>(colony, 'task_plan_list', { repo_root, limit: 100 });
    return plans
      .filter((p) => p.status === 'active')
      .flatMap((p) =>
        p.subtasks.map((s) => ({
          plan_slug: p.plan_slug,
          subtask_index: s.subtask_index,
          status: s.status,
          title: s.title,
        })),
      );
  }
}

interface PlanRow {
  plan_slug: string;
  status: string;
  subtasks: { subtask_index: number; status: string; title: string }[];
}

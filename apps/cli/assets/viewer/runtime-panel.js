// The swarm runtime panel: for each repository in scope, the `colony swarm` session and
// one row per agent (state, seq, errors, last activity, current sub-task, stop reason).
import { ago, badge, empty, h, int, table, text } from './dom.js';

// Seed 003's agent states, coloured with the lanes' palette: running green, starting blue,
// waiting out an error or an interrupt amber, between sessions grey, stopped red.
const STATE_TONE = {
  Running: 'working',
  Initializing: 'thinking',
  BuildingPrompt: 'thinking',
  Spawning: 'thinking',
  Interrupting: 'stalled',
  CoolingDown: 'stalled',
  SessionComplete: 'idle',
  Stopped: 'dead',
};
const toneOf = (state) => STATE_TONE[state] ?? 'unknown';

export function renderRuntime(d) {
  const repos = d.repos ?? [];
  if (repos.length === 0) return [empty('No repository in scope.')];
  return repos.map((repo) => {
    const out = h('article', { class: 'runtime-repo', 'data-repo': repo.repo_root });
    const s = repo.session;
    if (!s) {
      out.append(
        h('h3', {}, h('span', { class: 'mono' }, text(repo.repo_root, 120))),
        empty('No swarm session in this repository: colony swarm start runs one.'),
      );
      return out;
    }
    const plans = repo.plans ?? {};
    out.append(
      h(
        'h3',
        { 'data-session-id': s.id },
        `Session ${text(s.id, 40)} `,
        s.active ? badge('active', 'working') : badge('not running', 'dead'),
        ' ',
        h('span', { class: 'muted mono' }, text(repo.repo_root, 120)),
      ),
      h(
        'p',
        { class: 'summary' },
        h('span', {}, 'started ', h('b', {}, ago(s.started_at)), ` (${text(s.started_at, 30)})`),
        h('span', { class: 'mono' }, `base ${text(s.base_commit, 40).slice(0, 7)}`),
        h('span', {}, s.active ? `pid ${s.pid}` : `pid ${s.pid} gone: colony swarm stop or clean finishes it`),
        ['available', 'claimed', 'completed'].map((k) => h('span', {}, badge(`${k} ${plans[k] ?? 0}`, k))),
      ),
    );
    const agents = repo.agents ?? [];
    if (agents.length === 0) {
      out.append(empty('The session runner has not reported its agents yet.'));
      return out;
    }
    const rows = agents.map((a) =>
      h(
        'tr',
        { 'data-agent': a.name, 'data-agent-state': a.state },
        h(
          'td',
          {},
          h('b', {}, text(a.name, 40)),
          h('div', { class: 'muted mono nowrap' }, text(a.colony_session_id, 60)),
        ),
        h('td', {}, badge(text(a.state, 20), toneOf(a.state))),
        h('td', { class: 'num' }, int(a.session_seq)),
        h(
          'td',
          { class: `num${a.consecutive_errors > 0 ? ' warn' : ''}`, 'data-errors': '' },
          `${int(a.consecutive_errors)} / ${int(a.total_errors)}`,
        ),
        h('td', { class: 'muted nowrap' }, a.last_activity ? ago(a.last_activity) : ''),
        h(
          'td',
          { 'data-current-subtask': '' },
          a.current_subtasks?.length
            ? a.current_subtasks.map((t) =>
                h(
                  'div',
                  {},
                  `#${t.subtask_index} `,
                  text(t.title, 80),
                  h('span', { class: 'muted mono' }, ` · ${text(t.plan_slug, 40)}`),
                ),
              )
            : h('span', { class: 'muted' }, 'none'),
        ),
        h('td', { class: a.stop_reason ? '' : 'muted' }, a.stop_reason ? text(a.stop_reason, 120) : '—'),
      ),
    );
    // A dead session runner wrote its last states and stopped: say the table is history.
    if (!s.active) out.append(h('p', { class: 'caption' }, 'Agents as the session runner last recorded them.'));
    out.append(
      table(
        [
          ['Agent'],
          ['State'],
          ['Seq', 'num nowrap'],
          ['Errors (in a row / total)', 'num'],
          ['Last activity'],
          ['Current sub-task'],
          ['Stop reason'],
        ],
        rows,
      ),
    );
    return out;
  });
}

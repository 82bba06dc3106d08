// colony viewer: renders each panel from the server's JSON and keeps it live over
// Server-Sent Events. Every string comes from agents, so text is only ever set with
// textContent (createElement + text nodes); nothing is parsed as HTML.

const PANELS = ['lanes', 'runtime', 'plans', 'claims', 'inbox', 'savings'];
const ACTIVITIES = ['working', 'thinking', 'idle', 'stalled', 'dead', 'unknown'];
const state = { now: Date.now(), scope: null, charts: new Map() };

/** An element with attributes (class, data-*, title) and children (strings become text nodes). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const text = (value, max = 120) => {
  const s = value === undefined || value === null ? '' : String(value);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};
const int = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '0');
const empty = (message) => h('p', { class: 'empty' }, message);
const badge = (label, kind = label) =>
  h('span', { class: `badge ${String(kind).replace(/[^a-z_]/gi, '')}` }, String(label).replaceAll('_', ' '));

function toMs(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** "3 min ago" relative to the server's clock. */
function ago(value) {
  const ms = toMs(value);
  if (ms === null) return '';
  const s = Math.max(0, Math.round((state.now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 360) / 10} h ago`;
  return `${Math.round(s / 8640) / 10} d ago`;
}

function table(headers, rows) {
  return h(
    'table',
    { class: 'rows' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map(([label, cls]) => h('th', { class: cls }, label)),
      ),
    ),
    h('tbody', {}, rows),
  );
}

// ---- Lanes ---------------------------------------------------------------------------

function renderLanes(d) {
  const lanes = d.lanes ?? [];
  const counts = d.counts ?? {};
  const summary = h(
    'p',
    { class: 'summary' },
    h('span', {}, h('b', {}, int(d.session_count ?? lanes.length)), ' lanes'),
    ACTIVITIES.filter((a) => counts[a]).map((a) => h('span', {}, badge(`${a} ${counts[a]}`, a))),
    d.repo_roots?.length ? h('span', { class: 'mono' }, text(d.repo_roots.join(', '), 120)) : null,
  );
  if (lanes.length === 0) return [summary, empty('No lanes: no agent session is on a task thread in this scope.')];
  const rows = lanes.map((lane) =>
    h(
      'tr',
      { 'data-session': lane.session_id, 'data-activity': lane.activity },
      h('td', {}, badge(text(lane.activity, 20), lane.activity)),
      h('td', {}, text(lane.owner ?? lane.agent, 40), h('div', { class: 'muted mono' }, text(lane.session_id, 40))),
      h('td', { class: 'mono' }, text(lane.branch, 80)),
      h('td', {}, text(lane.task, 100)),
      h(
        'td',
        {},
        lane.locked_file_count
          ? [
              `${lane.locked_file_count} `,
              h('span', { class: 'muted mono' }, text((lane.locked_file_preview ?? []).join(', '), 90)),
            ]
          : h('span', { class: 'muted' }, 'none'),
      ),
      h(
        'td',
        { class: 'muted' },
        text(lane.activity_summary, 100),
        lane.needs_attention ? h('div', {}, badge('needs attention', 'dead')) : null,
      ),
    ),
  );
  return [summary, table([['Activity'], ['Owner'], ['Branch'], ['Task'], ['Claims'], ['Status']], rows)];
}

// ---- Swarm runtime --------------------------------------------------------------------

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

function renderRuntime(d) {
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
      out.append(empty('The orchestrator has not reported its agents yet.'));
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
    // A dead orchestrator wrote its last states and stopped: say the table is history.
    if (!s.active) out.append(h('p', { class: 'caption' }, 'Agents as the orchestrator last recorded them.'));
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

// ---- Plans ---------------------------------------------------------------------------

function renderPlans(d) {
  const plans = d.plans ?? [];
  if (plans.length === 0) return [empty('No published plans.')];
  return plans.map((plan) => {
    const c = plan.subtask_counts ?? {};
    return h(
      'article',
      { class: 'plan', 'data-plan': plan.plan_slug },
      h('h3', {}, text(plan.title, 120), ' ', h('span', { class: 'muted mono' }, text(plan.plan_slug, 60))),
      h(
        'p',
        { class: 'summary' },
        ['available', 'claimed', 'completed', 'blocked'].map((s) => h('span', {}, badge(`${s} ${c[s] ?? 0}`, s))),
        plan.status === 'archived' ? h('span', {}, 'archived') : null,
      ),
      h(
        'div',
        { class: 'waves' },
        plan.waves.map((wave) =>
          h(
            'section',
            { class: 'wave', 'data-wave': wave.wave_index },
            h('h4', {}, `Wave ${wave.wave_index + 1}`),
            wave.subtasks.map(renderSubtask),
          ),
        ),
      ),
    );
  });
}

function renderSubtask(s) {
  const who = s.claimed_by_agent
    ? `${s.claimed_by_agent}${s.claimed_by_session_id ? ` · ${s.claimed_by_session_id}` : ''}`
    : '';
  return h(
    'div',
    { class: `subtask ${s.status}`, 'data-subtask': s.subtask_index },
    h('div', {}, badge(s.status, s.status), s.claimable_now ? h('span', { class: 'muted' }, ' claimable now') : null),
    h('p', { class: 'title' }, `#${s.subtask_index} `, text(s.title, 100)),
    who ? h('p', { class: 'meta' }, 'by ', text(who, 80)) : null,
    s.depends_on?.length ? h('p', { class: 'meta' }, `after #${s.depends_on.join(', #')}`) : null,
    s.file_scope?.length ? h('p', { class: 'meta mono' }, text(s.file_scope.slice(0, 3).join(', '), 90)) : null,
  );
}

// ---- Claims and file heat, Inbox -------------------------------------------------------

function renderClaims(d) {
  const claims = d.claims ?? [];
  const heat = d.file_heat ?? [];
  const stale = d.stale ?? {};
  const out = [
    h(
      'p',
      { class: 'summary' },
      h('span', {}, h('b', {}, int(d.claim_count ?? claims.length)), ' fresh claims'),
      h('span', {}, h('b', {}, int(stale.stale_claim_count)), ' stale'),
      stale.sweep_suggestion ? h('span', {}, text(stale.sweep_suggestion, 120)) : null,
    ),
  ];
  if (claims.length === 0) out.push(empty('No fresh file claims.'));
  else
    out.push(
      table(
        [['File'], ['Agent'], ['Task', 'num'], ['Claimed']],
        claims.map((c) =>
          h(
            'tr',
            { 'data-file': c.file_path },
            h('td', { class: 'mono' }, text(c.file_path, 90)),
            h('td', {}, text(c.agent, 30), h('div', { class: 'muted mono' }, text(c.session_id, 40))),
            h('td', { class: 'num' }, `#${c.task_id}`),
            h('td', { class: 'muted nowrap' }, ago(c.claimed_at)),
          ),
        ),
      ),
    );
  out.push(h('h3', { class: 'sub' }, 'File heat'));
  if (heat.length === 0) out.push(empty('No hot files: nothing was edited or claimed recently.'));
  else {
    const max = Math.max(...heat.map((f) => Number(f.heat) || 0), 1e-9);
    out.push(
      table(
        [['File'], ['Heat', 'num'], ['']],
        heat.map((f) => {
          const bar = h('span', { class: 'heat' });
          bar.style.width = `${Math.round((100 * (Number(f.heat) || 0)) / max)}%`;
          return h(
            'tr',
            { 'data-heat-file': f.file_path },
            h('td', { class: 'mono' }, text(f.file_path, 90)),
            h('td', { class: 'num' }, (Number(f.heat) || 0).toFixed(2)),
            h('td', { class: 'heat-cell' }, bar),
          );
        }),
      ),
    );
  }
  return out;
}

const INBOX_LABELS = {
  message: 'message',
  handoff: 'handoff',
  wake: 'wake',
  blocker: 'blocker',
  stalled_lane: 'stalled lane',
};

function renderInbox(d) {
  const items = d.items ?? [];
  const out = [h('p', { class: 'summary' }, text(d.title ?? '', 200))];
  if (items.length === 0)
    return [
      ...out,
      empty('Nothing waits: no unread blocking or needs-reply message, no pending handoff, no stalled lane.'),
    ];
  out.push(
    table(
      [['What'], ['From → to'], ['Preview'], ['When']],
      items.map((item) => {
        const label =
          item.kind === 'message' ? text(item.urgency ?? 'message', 20) : (INBOX_LABELS[item.kind] ?? 'item');
        const kind = item.kind === 'message' || item.kind === 'stalled_lane' ? item.urgency : item.kind;
        return h(
          'tr',
          { 'data-inbox-kind': item.kind, 'data-id': item.id ?? '' },
          h('td', {}, badge(label, kind ?? 'unknown')),
          h('td', {}, text(item.from, 40), item.to ? h('span', { class: 'muted' }, ' → ', text(item.to, 50)) : null),
          h(
            'td',
            {},
            text(item.preview, 110),
            item.task_id ? h('span', { class: 'muted' }, ` · task #${item.task_id}`) : null,
          ),
          h('td', { class: 'muted nowrap' }, item.ts ? ago(item.ts) : ''),
        );
      }),
    ),
  );
  return out;
}

// ---- Savings -------------------------------------------------------------------------

function renderSavings(d) {
  const t = d.totals ?? {};
  const ref = d.reference ?? {};
  const out = [
    h(
      'p',
      { class: 'summary' },
      h('span', {}, h('b', {}, int(t.calls)), ` tool calls in ${d.window?.hours ?? '?'} h`),
      h('span', {}, h('b', {}, int(t.input_tokens)), ' tokens in'),
      h('span', {}, h('b', {}, int(t.output_tokens)), ' tokens out'),
      h('span', {}, h('b', {}, int(t.error_count)), ' errors'),
      t.cost_configured ? h('span', {}, h('b', {}, `$${Number(t.total_cost_usd).toFixed(4)}`), ' cost') : null,
      h(
        'span',
        {},
        'reference model: ',
        h('b', {}, `${ref.savings_pct ?? 0}%`),
        ` fewer tokens per session (${int(ref.colony_tokens)} vs ${int(ref.baseline_tokens)}, static estimate)`,
      ),
    ),
  ];
  if (!t.calls) {
    out.push(empty(`No tool calls in the last ${d.window?.hours ?? 24} hours, so there is nothing to chart yet.`));
    return out;
  }
  const chart = h('div', { class: 'chart', id: 'savings-chart' });
  out.push(
    h(
      'p',
      { class: 'caption' },
      "Tokens of colony's tool calls per hour (their receipts, UTC). The reference model above estimates what the same coordination loops cost an agent without colony.",
    ),
    chart,
  );
  const ops = d.operations ?? [];
  out.push(
    h(
      'div',
      { class: 'cols' },
      h(
        'div',
        {},
        h('h3', { class: 'sub' }, 'Busiest tools'),
        table(
          [['Tool'], ['Calls', 'num'], ['Errors', 'num'], ['Tokens', 'num']],
          ops.map((o) =>
            h(
              'tr',
              { 'data-operation': o.operation },
              h('td', { class: 'mono' }, text(o.operation, 60)),
              h('td', { class: 'num' }, int(o.calls)),
              h('td', { class: 'num' }, int(o.error_count)),
              h('td', { class: 'num' }, int(o.total_tokens)),
            ),
          ),
        ),
      ),
      h(
        'div',
        {},
        h('h3', { class: 'sub' }, 'Reference model (per session, static)'),
        table(
          [['Loop'], ['Saved', 'num']],
          (ref.rows ?? []).map((r) =>
            h('tr', {}, h('td', {}, text(r.operation, 90)), h('td', { class: 'num' }, `${r.savings_pct}%`)),
          ),
        ),
      ),
    ),
  );
  // Drawn once the container is in the page and has a width.
  queueMicrotask(() => drawChart(chart, d.hours ?? []));
  return out;
}

function drawChart(target, hours) {
  state.charts.get('savings')?.destroy();
  if (typeof globalThis.uPlot !== 'function') {
    target.append(empty('The chart library did not load.'));
    return;
  }
  const xs = hours.map((x) => x.hour / 1000);
  const opts = {
    width: Math.max(320, target.clientWidth),
    height: 260,
    tzDate: (ts) => globalThis.uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    legend: { live: false },
    scales: { x: { time: true }, calls: {} },
    axes: [{}, { label: 'tokens', size: 70 }, { scale: 'calls', side: 1, label: 'calls', grid: { show: false } }],
    series: [
      {},
      { label: 'tokens in', stroke: '#2f6fde', fill: 'rgba(47,111,222,0.12)', width: 2 },
      { label: 'tokens out', stroke: '#d9480f', fill: 'rgba(217,72,15,0.10)', width: 2 },
      { label: 'calls', scale: 'calls', stroke: '#1a7f37', width: 2, dash: [6, 4] },
    ],
  };
  const data = [xs, hours.map((x) => x.input_tokens), hours.map((x) => x.output_tokens), hours.map((x) => x.calls)];
  state.charts.set('savings', new globalThis.uPlot(opts, data, target));
}

window.addEventListener('resize', () => {
  const chart = state.charts.get('savings');
  const target = document.getElementById('savings-chart');
  if (chart && target) chart.setSize({ width: Math.max(320, target.clientWidth), height: 260 });
});

// ---- Wiring --------------------------------------------------------------------------

const RENDER = {
  lanes: renderLanes,
  runtime: renderRuntime,
  plans: renderPlans,
  claims: renderClaims,
  inbox: renderInbox,
  savings: renderSavings,
};

function render(envelope) {
  if (!envelope || !PANELS.includes(envelope.panel)) return;
  state.now = envelope.generated_at ?? state.now;
  const body = document.querySelector(`#panel-${envelope.panel} .body`);
  if (!body) return;
  let children;
  if (envelope.error) {
    children = [
      h(
        'p',
        { class: 'error' },
        `Could not read this panel: ${text(envelope.error.code, 40)}: `,
        text(envelope.error.message, 200),
      ),
    ];
    body.dataset.state = 'error';
  } else {
    children = RENDER[envelope.panel](envelope.data ?? {});
    body.dataset.state = 'ready';
  }
  body.replaceChildren(...children);
  body.dataset.generatedAt = String(envelope.generated_at ?? '');
}

function setLive(on, label) {
  const dot = document.getElementById('live-dot');
  dot.className = `dot ${on ? 'on' : 'off'}`;
  document.getElementById('live-text').textContent = label;
}

const clock = () => `live · store time ${new Date(state.now).toLocaleTimeString('en-GB', { timeZone: 'UTC' })} UTC`;

async function fetchJson(path) {
  const res = await fetch(path, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

async function loadAll() {
  await Promise.all(PANELS.map(async (name) => render(await fetchJson(`/api/${name}`))));
}

async function start() {
  const meta = await fetchJson('/api/meta');
  state.now = meta.generated_at;
  const scope = meta.scope;
  document.getElementById('scope').textContent =
    `${scope.repo_root ? `repo ${scope.repo_root}` : 'all repositories'} · inbox: ${
      scope.inbox === 'session' ? `${scope.agent} (${scope.session_id})` : 'fleet view'
    }`;
  await loadAll();
  if (typeof EventSource !== 'function') {
    setInterval(() => loadAll().catch(() => setLive(false, 'offline')), meta.refresh_ms);
    return;
  }
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => setLive(true, clock()));
  events.addEventListener('error', () => setLive(false, 'reconnecting…'));
  events.addEventListener('panel', (e) => render(JSON.parse(e.data)));
  events.addEventListener('clock', (e) => {
    state.now = JSON.parse(e.data).generated_at;
    setLive(true, clock());
  });
}

start().catch((error) => setLive(false, `failed to load: ${text(error?.message ?? error, 80)}`));

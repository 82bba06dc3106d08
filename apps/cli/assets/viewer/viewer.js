// colony viewer: renders each panel from the server's JSON and keeps it live over
// Server-Sent Events. Every string comes from agents, so text is only ever set with
// textContent (createElement + text nodes); nothing is parsed as HTML.

import { ago, badge, empty, h, int, state, table, text } from './dom.js';
import { startNavigation } from './navigate.js';
import { renderRuntime } from './runtime-panel.js';

const PANELS = ['lanes', 'runtime', 'plans', 'claims', 'inbox', 'savings'];
const ACTIVITIES = ['working', 'thinking', 'idle', 'stalled', 'dead', 'unknown'];

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
      { 'data-session': lane.session_id, 'data-activity': lane.activity, 'data-task-id': lane.task_id, class: 'link' },
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
            { 'data-file': c.file_path, 'data-task-id': c.task_id, class: 'link' },
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
          {
            'data-inbox-kind': item.kind,
            'data-id': item.id ?? '',
            'data-task-id': item.task_id,
            class: item.task_id ? 'link' : null,
          },
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

/** The answers the server sent with the page (first paint), else null. */
function bootData() {
  const el = document.getElementById('boot');
  if (!el) return null;
  try {
    return JSON.parse(el.textContent ?? '');
  } catch {
    return null;
  }
}

async function start() {
  startNavigation();
  const boot = bootData();
  const meta = boot?.meta ?? (await fetchJson('/api/meta'));
  state.now = meta.generated_at;
  const scope = meta.scope;
  document.getElementById('scope').textContent =
    `${scope.repo_root ? `repo ${scope.repo_root}` : 'all repositories'} · inbox: ${
      scope.inbox === 'session' ? `${scope.agent} (${scope.session_id})` : 'fleet view'
    }`;
  if (boot?.panels) for (const envelope of boot.panels) render(envelope);
  else await loadAll();
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

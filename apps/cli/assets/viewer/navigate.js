// colony viewer: going from a row to its thread, and searching. Any element with
// data-task-id (a lane, a claim, an inbox item, a search hit) opens that task's thread
// in the side view; the address (#task/<id>) says which, so back and forward work and
// a thread can be linked. Text is set with textContent only, as everywhere on the page.

import { ago, badge, empty, h, text } from './dom.js';

const TASK_HASH = /^#task\/([1-9][0-9]{0,15})$/;

async function getJson(path) {
  const res = await fetch(path, { cache: 'no-store' });
  const body = await res.json().catch(() => null);
  if (body?.error) throw new Error(`${body.error.code}: ${body.error.message}`);
  if (!res.ok || !body) throw new Error(`${path}: HTTP ${res.status}`);
  return body;
}

function renderThread(view, taskId) {
  const task = view.task;
  const head = task
    ? h(
        'div',
        { class: 'thread-head' },
        h('h3', {}, text(task.title ?? task.branch, 120), ' ', h('span', { class: 'muted mono' }, `#${task.id}`)),
        h('p', { class: 'mono muted' }, text(task.branch, 100), ' · ', text(task.repo_root, 100)),
        h('p', {}, badge(text(task.status, 20), task.status === 'open' ? 'available' : 'completed')),
        h(
          'p',
          { class: 'muted' },
          'participants: ',
          text((task.participants ?? []).map((p) => p.agent).join(', ') || 'none', 200),
        ),
      )
    : h('h3', {}, `Task #${taskId}`);
  const posts = view.posts ?? [];
  if (posts.length === 0) return [head, empty('No posts on this thread yet.')];
  return [
    head,
    h(
      'ol',
      { class: 'posts' },
      posts.map((p) =>
        h(
          'li',
          { 'data-observation': p.id, class: 'post' },
          h('p', { class: 'meta' }, badge(text(p.kind, 20), 'unknown'), ' ', text(p.session_id, 40), ' · ', ago(p.ts)),
          h('p', { class: 'post-body' }, text(p.body, 700)),
        ),
      ),
    ),
  ];
}

/** Only the newest thread asked for may fill the side view. */
let threadSeq = 0;

async function showThread(taskId) {
  const seq = ++threadSeq;
  const drawer = document.getElementById('thread');
  const body = drawer.querySelector('.body');
  drawer.hidden = false;
  drawer.dataset.thread = String(taskId);
  body.dataset.state = 'loading';
  body.replaceChildren(h('p', { class: 'muted' }, `Reading task #${taskId}…`));
  try {
    const envelope = await getJson(`/api/thread?task_id=${taskId}`);
    if (seq !== threadSeq) return;
    body.replaceChildren(...renderThread(envelope.data, taskId));
    body.dataset.state = 'ready';
  } catch (error) {
    if (seq !== threadSeq) return;
    body.replaceChildren(h('p', { class: 'error' }, `Could not read task #${taskId}: `, text(error.message, 200)));
    body.dataset.state = 'error';
  }
}

function route() {
  const match = TASK_HASH.exec(location.hash);
  const drawer = document.getElementById('thread');
  if (match) showThread(Number(match[1]));
  else drawer.hidden = true;
}

function renderHits(view) {
  const hits = view.hits ?? [];
  if (hits.length === 0) return [empty(`Nothing in memory matches “${text(view.query, 80)}”.`)];
  return [
    h('p', { class: 'summary' }, `${hits.length} hits for “${text(view.query, 80)}”`),
    h(
      'ol',
      { class: 'hits' },
      hits.map((hit) =>
        h(
          'li',
          { 'data-hit': hit.id, 'data-task-id': hit.task_id, class: hit.task_id ? 'link' : null },
          badge(text(hit.kind, 20), 'unknown'),
          ' ',
          text(hit.snippet, 200),
          hit.task_id ? h('span', { class: 'muted' }, ` · task #${hit.task_id}`) : null,
        ),
      ),
    ),
  ];
}

/** Only the newest search may fill the results (an older answer arriving late is dropped). */
let searchSeq = 0;

async function search(query) {
  const section = document.getElementById('search-results');
  const body = section.querySelector('.body');
  const seq = ++searchSeq;
  section.hidden = false;
  body.dataset.state = 'loading';
  try {
    const envelope = await getJson(`/api/search?q=${encodeURIComponent(query)}`);
    if (seq !== searchSeq) return;
    body.replaceChildren(...renderHits(envelope.data));
    body.dataset.state = 'ready';
  } catch (error) {
    if (seq !== searchSeq) return;
    body.replaceChildren(h('p', { class: 'error' }, 'Search failed: ', text(error.message, 200)));
    body.dataset.state = 'error';
  }
}

export function startNavigation() {
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-task-id]') : null;
    const id = target?.getAttribute('data-task-id');
    if (id && /^[1-9][0-9]*$/.test(id)) {
      event.preventDefault();
      location.hash = `task/${id}`;
    }
  });
  document.getElementById('thread-close').addEventListener('click', (event) => {
    event.preventDefault();
    history.pushState(null, '', location.pathname);
    route();
  });
  document.getElementById('search').addEventListener('submit', (event) => {
    event.preventDefault();
    const query = document.getElementById('search-q').value.trim();
    if (query) search(query);
  });
  window.addEventListener('hashchange', route);
  route();
}

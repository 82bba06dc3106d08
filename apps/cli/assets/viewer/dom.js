// The page's small DOM kit, shared by the panel renderers: elements built with
// textContent only (every string comes from agents; nothing is parsed as HTML), short
// text, numbers, badges, ages relative to the server's clock, and tables.

export const state = { now: Date.now(), scope: null, charts: new Map() };

/** An element with attributes (class, data-*, title) and children (strings become text nodes). */
export function h(tag, attrs, ...children) {
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

export const text = (value, max = 120) => {
  const s = value === undefined || value === null ? '' : String(value);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};
export const int = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '0');
export const empty = (message) => h('p', { class: 'empty' }, message);
export const badge = (label, kind = label) =>
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
export function ago(value) {
  const ms = toMs(value);
  if (ms === null) return '';
  const s = Math.max(0, Math.round((state.now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 360) / 10} h ago`;
  return `${Math.round(s / 8640) / 10} d ago`;
}

/** A table; each cell also carries its column's name (data-label), which narrow screens show beside the value. */
export function table(headers, rows) {
  for (const row of rows) {
    [...row.children].forEach((cell, i) => {
      const label = headers[i]?.[0];
      if (label && !cell.hasAttribute('data-label')) cell.setAttribute('data-label', label);
    });
  }
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

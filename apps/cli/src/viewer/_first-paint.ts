/**
 * @module viewer/first-paint
 * The page as first served: every panel's answer is read before the HTML is sent, so
 * the first paint says what is there (one line per panel, escaped) instead of
 * "Loading…", and the answers ride along as inert JSON (`<script type=
 * "application/json">`, which the CSP need not allow: it never runs) that the page
 * renders from without a request of its own.
 */
import type { ClaimsPanel } from './_claims-panel';
import type { PanelEnvelope, PanelName } from './_data';
import type { InboxPanel } from './_inbox-panel';
import type { LanesPanel } from './_lanes-panel';
import type { PlansPanel } from './_plans-panel';
import type { RuntimePanel } from './_runtime-panel';
import type { SavingsPanel } from './_savings-panel';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One plain line per panel, from the same data the page renders in full. */
export function panelSummary(envelope: PanelEnvelope): string {
  if (envelope.error) return `Could not read this panel: ${envelope.error.code}`;
  switch (envelope.panel) {
    case 'lanes': {
      const d = envelope.data as LanesPanel;
      const counts = Object.entries(d.counts).filter(([, n]) => n > 0);
      return `${plural(d.session_count, 'lane')}${counts.length ? `: ${counts.map(([a, n]) => `${n} ${a}`).join(', ')}` : ''}`;
    }
    case 'runtime': {
      const sessions = (envelope.data as RuntimePanel).repos.filter((r) => r.session?.active);
      return `${plural(sessions.length, 'active swarm session')}`;
    }
    case 'plans':
      return plural((envelope.data as PlansPanel).plans.length, 'published plan');
    case 'claims': {
      const d = envelope.data as ClaimsPanel;
      return `${plural(d.claim_count, 'fresh claim')}, ${plural(d.file_heat.length, 'hot file')}`;
    }
    case 'inbox':
      return `${plural((envelope.data as InboxPanel).items.length, 'item')} waiting`;
    case 'savings': {
      const d = envelope.data as SavingsPanel;
      return `${plural(d.totals.calls, 'tool call')} in ${d.window.hours} h`;
    }
  }
}

export interface FirstPaintMeta {
  readonly scope: {
    readonly repo_root: string | null;
    readonly session_id: string | null;
    readonly agent: string | null;
    readonly inbox: string;
  };
}

/** The header's scope line, worded as the page words it. */
export function scopeLine({ scope }: FirstPaintMeta): string {
  const repo = scope.repo_root ? `repo ${scope.repo_root}` : 'all repositories';
  const inbox = scope.inbox === 'session' ? `${scope.agent} (${scope.session_id})` : 'fleet view';
  return `${repo} · inbox: ${inbox}`;
}

/**
 * Fills the page template: each `<div class="body" data-panel-body="NAME">` gets its
 * summary, and the JSON goes before `</body>` (`<` escaped so no string can end the
 * script element).
 */
export function firstPaint(template: string, envelopes: readonly PanelEnvelope[], meta: FirstPaintMeta): string {
  const byPanel = new Map<PanelName, PanelEnvelope>(envelopes.map((e) => [e.panel, e]));
  const html = template
    .replace(
      '<p id="scope" class="muted">loading…</p>',
      `<p id="scope" class="muted">${escapeHtml(scopeLine(meta))}</p>`,
    )
    .replace(/<div class="body" data-panel-body="([a-z]+)"[^>]*>[^<]*<\/div>/g, (whole, name: PanelName) => {
      const envelope = byPanel.get(name);
      if (!envelope) return whole;
      return `<div class="body" data-panel-body="${name}" data-state="boot">${escapeHtml(panelSummary(envelope))}</div>`;
    });
  const boot = JSON.stringify({ meta, panels: envelopes }).replace(/</g, '\\u003c');
  return html.replace('</body>', `<script type="application/json" id="boot">${boot}</script>\n</body>`);
}

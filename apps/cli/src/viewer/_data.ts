/**
 * @module viewer/data
 * Each panel's JSON, read fresh on every request through read-only tool calls. A panel
 * whose tool refuses answers `{ error: { code, message } }`, which the page says in
 * words; the other panels are unaffected.
 */
import type { Colony } from '@swarm/core';
import { claimsPanel } from './_claims-panel';
import { inboxPanel } from './_inbox-panel';
import { lanesPanel } from './_lanes-panel';
import { plansPanel } from './_plans-panel';
import { PanelError, readOnlyTools } from './_reader';
import { runtimePanel } from './_runtime-panel';
import { savingsPanel } from './_savings-panel';
import type { ViewerScope } from './_scope';
import { type SearchView, searchView } from './_search-view';
import { type ThreadView, threadView } from './_thread-view';

export const PANELS = ['lanes', 'runtime', 'plans', 'claims', 'inbox', 'savings'] as const;
export type PanelName = (typeof PANELS)[number];

export function isPanel(name: string): name is PanelName {
  return (PANELS as readonly string[]).includes(name);
}

/** What every answer carries: the server's clock (ages on the page are relative to it), data or an error. */
export interface Envelope<T = unknown> {
  readonly generated_at: number;
  readonly data?: T;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface PanelEnvelope extends Envelope {
  readonly panel: PanelName;
}

export class ViewerData {
  readonly #colony: Colony;
  readonly #scope: ViewerScope;
  readonly #read;

  constructor(colony: Colony, scope: ViewerScope) {
    this.#colony = colony;
    this.#scope = scope;
    this.#read = readOnlyTools(colony);
  }

  get scope(): ViewerScope {
    return this.#scope;
  }

  now(): number {
    return this.#colony.clock.now();
  }

  async panel(name: PanelName): Promise<PanelEnvelope> {
    return { panel: name, ...(await this.#envelope(() => this.#build(name))) };
  }

  /** Every panel, in page order (the first paint). */
  panels(): Promise<PanelEnvelope[]> {
    return Promise.all(PANELS.map((name) => this.panel(name)));
  }

  /** One task thread; `parse` refuses a bad id inside the envelope, like a tool's refusal. */
  thread(parse: () => number): Promise<Envelope<ThreadView>> {
    return this.#envelope(() => threadView(this.#read, parse()));
  }

  search(parse: () => string): Promise<Envelope<SearchView>> {
    return this.#envelope(() => searchView(this.#read, parse()));
  }

  async #envelope<T>(build: () => Promise<T>): Promise<Envelope<T>> {
    const generated_at = this.now();
    try {
      return { generated_at, data: await build() };
    } catch (error) {
      const code = error instanceof PanelError ? error.code : 'INTERNAL_ERROR';
      const message = error instanceof Error ? error.message : String(error);
      return { generated_at, error: { code, message } };
    }
  }

  #build(name: PanelName): Promise<unknown> {
    const read = this.#read;
    const scope = this.#scope;
    switch (name) {
      case 'lanes':
        return lanesPanel(read, scope);
      case 'runtime':
        return runtimePanel(read, scope);
      case 'plans':
        return plansPanel(read, scope);
      case 'claims':
        return claimsPanel(read, scope);
      case 'inbox':
        return inboxPanel(read, scope);
      case 'savings':
        return savingsPanel(read, (hours) => this.#colony.savings.timeline(hours), scope);
    }
  }
}

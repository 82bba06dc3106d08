/**
 * @module viewer/stream
 * The live part of the page: a Server-Sent Events stream. A client that connects gets
 * every panel at once; afterwards, while any client listens, the panels are re-read
 * every refresh interval (one read serves all clients) and a panel is sent again only
 * when its answer changed. Every tick also sends the server's clock, so "as of" and
 * ages on the page move with the store's time even when nothing changed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PANELS, type PanelEnvelope, type ViewerData } from './_data';

export class PanelStream {
  readonly #data: ViewerData;
  readonly #refreshMs: number;
  readonly #clients = new Set<ServerResponse>();
  /** Last sent answer per panel, without its timestamp. */
  readonly #last = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;

  constructor(data: ViewerData, refreshMs: number) {
    this.#data = data;
    this.#refreshMs = refreshMs;
  }

  async attach(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`retry: ${this.#refreshMs}\n\n`);
    this.#clients.add(res);
    req.on('close', () => this.#detach(res));
    res.on('error', () => this.#detach(res));
    // The newcomer's snapshot leaves #last alone: a change the others have not seen yet still reaches them.
    for (const envelope of await this.#readAll()) write(res, 'panel', envelope);
    this.#timer ??= setInterval(() => void this.#tick(), this.#refreshMs);
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }

  #detach(res: ServerResponse): void {
    this.#clients.delete(res);
    if (this.#clients.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#clients.size === 0) return;
    this.#ticking = true;
    try {
      for (const envelope of await this.#readAll()) {
        const print = fingerprint(envelope);
        if (this.#last.get(envelope.panel) === print) continue;
        this.#last.set(envelope.panel, print);
        for (const res of this.#clients) write(res, 'panel', envelope);
      }
      const clock = { generated_at: this.#data.now() };
      for (const res of this.#clients) write(res, 'clock', clock);
    } finally {
      this.#ticking = false;
    }
  }

  #readAll(): Promise<PanelEnvelope[]> {
    return Promise.all(PANELS.map((name) => this.#data.panel(name)));
  }
}

function fingerprint(envelope: PanelEnvelope): string {
  return JSON.stringify([envelope.data ?? null, envelope.error ?? null]);
}

/** Writes one event; a client gone meanwhile (its close is on the way) is skipped. */
function write(res: ServerResponse, event: string, value: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  res.write(`event: ${event}\ndata: ${JSON.stringify(value)}\n\n`);
}

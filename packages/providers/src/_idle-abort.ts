/**
 * @module idle-abort
 * One abort signal for a provider turn: it follows the caller's signal, and an idle timer
 * (re-armed on every attempt and every streamed event) cuts a stream that goes silent.
 * SDK and fetch timeouts only cover the wait for response headers; this covers the rest.
 */
export interface IdleAbort {
  readonly signal: AbortSignal;
  /** (Re)starts the idle timer; a no-op without a timeout. */
  arm(): void;
  /** Whether the idle timer (not the caller) aborted the turn. */
  timedOut(): boolean;
  /** Clears the timer and stops following the caller's signal. */
  dispose(): void;
}

export function idleAbort(caller: AbortSignal | undefined, timeoutSecs: number | null | undefined): IdleAbort {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  caller?.addEventListener('abort', onAbort, { once: true });
  if (caller?.aborted) controller.abort();
  let timedOut = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  return {
    signal: controller.signal,
    arm() {
      if (timeoutSecs == null) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutSecs * 1000);
    },
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(idle);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

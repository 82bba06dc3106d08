/**
 * `colony swarm`: seed 003's agent sessions (init, config, start...) and seed 004's
 * swarm_run from a file, with the status or result of a run.
 * Each sub-command loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: {
    name: 'swarm',
    description:
      'Agent sessions (init, config, start, attach, stop, status, send, broadcast, logs, clean, permissions check, hooks run) and swarm runs (run, status <id>, collect); wasm run <tool>.',
  },
  subCommands: {
    init: () => import('./init').then((m) => m.default),
    config: () => import('./config').then((m) => m.default),
    run: () => import('./run').then((m) => m.default),
    status: () => import('./status').then((m) => m.default),
    collect: () => import('./collect').then((m) => m.default),
    start: () => import('./start').then((m) => m.default),
    attach: () => import('./attach').then((m) => m.default),
    stop: () => import('./stop').then((m) => m.default),
    send: () => import('./send').then((m) => m.default),
    broadcast: () => import('./broadcast').then((m) => m.default),
    logs: () => import('./logs').then((m) => m.default),
    clean: () => import('./clean').then((m) => m.default),
    wasm: () => import('./wasm/index').then((m) => m.default),
    permissions: () => import('./permissions').then((m) => m.default),
    hooks: () => import('./hooks').then((m) => m.default),
  },
});

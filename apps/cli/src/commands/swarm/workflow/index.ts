/**
 * `colony swarm workflow`: multi-stage workflows (seed 003) defined in
 * `.colony/workflows/<name>.yaml`, their runs kept in colony's store. Each sub-command
 * loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: {
    name: 'workflow',
    description:
      'Workflow definitions and runs: list, validate, run, status, show, approve, reject, retry, cancel, resume.',
  },
  subCommands: {
    list: () => import('./list').then((m) => m.default),
    validate: () => import('./validate').then((m) => m.default),
    run: () => import('./run').then((m) => m.default),
    status: () => import('./status').then((m) => m.default),
    show: () => import('./show').then((m) => m.default),
    approve: () => import('./approve').then((m) => m.default),
    reject: () => import('./reject').then((m) => m.default),
    retry: () => import('./retry').then((m) => m.default),
    cancel: () => import('./cancel').then((m) => m.default),
    resume: () => import('./resume').then((m) => m.default),
  },
});

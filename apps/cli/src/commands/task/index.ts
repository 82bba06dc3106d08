/**
 * `colony task`: task threads, one per (repo_root, branch), and the file claims,
 * handoffs, relays and messages on them. Each sub-command calls one tool and loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: {
    name: 'task',
    description: 'Task threads: open or join, post, list, read a timeline; claim files, hand off, relay; messages.',
  },
  subCommands: {
    list: () => import('./list').then((m) => m.default),
    thread: () => import('./thread').then((m) => m.default),
    post: () => import('./post').then((m) => m.default),
    timeline: () => import('./timeline').then((m) => m.default),
    messages: () => import('./messages').then((m) => m.default),
    send: () => import('./send').then((m) => m.default),
    read: () => import('./read').then((m) => m.default),
    claim: () => import('./claim').then((m) => m.default),
    drift: () => import('./drift').then((m) => m.default),
    handoff: () => import('./handoff').then((m) => m.default),
    accept: () => import('./accept').then((m) => m.default),
    decline: () => import('./decline').then((m) => m.default),
    relay: () => import('./relay').then((m) => m.default),
    ready: () => import('./ready').then((m) => m.default),
  },
});

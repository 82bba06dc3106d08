/**
 * `colony task`: task threads, one per (repo_root, branch). Each sub-command calls
 * one task tool and loads lazily.
 */
import { defineCommand } from 'citty';

export default defineCommand({
  meta: {
    name: 'task',
    description: 'Task threads: open or join, post, list, read a timeline; send and read messages.',
  },
  subCommands: {
    list: () => import('./list').then((m) => m.default),
    thread: () => import('./thread').then((m) => m.default),
    post: () => import('./post').then((m) => m.default),
    timeline: () => import('./timeline').then((m) => m.default),
    messages: () => import('./messages').then((m) => m.default),
    send: () => import('./send').then((m) => m.default),
    read: () => import('./read').then((m) => m.default),
  },
});

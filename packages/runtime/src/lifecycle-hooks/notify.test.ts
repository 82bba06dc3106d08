/** Notification fires for an agent's message to the operator, and only for those. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryMailbox } from '../mailbox/mailbox.js';
import { LifecycleHooks } from './dispatch.js';
import { notifyingMailbox } from './notify.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'notify-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('notifyingMailbox', () => {
  it('fires Notification with the message and its type after a send to the operator', async () => {
    const hooks = new LifecycleHooks(
      { notification: [{ hooks: [{ type: 'command', command: 'cat >> n.jsonl' }] }] },
      { session_id: 's', cwd: dir, agent_name: 'backend' },
    );
    const inner = memoryMailbox(() => 0);
    const mailbox = notifyingMailbox(inner, hooks);
    await mailbox.send({ from: 'backend', to: 'frontend', body: 'hi' });
    await mailbox.send({ from: 'backend', to: 'operator', body: 'may I push?', needs_reply: true });
    await hooks.drain();
    const file = join(dir, 'n.jsonl');
    const written = () => existsSync(file) && readFileSync(file, 'utf8').endsWith('}\n');
    for (let i = 0; i < 300 && !written(); i++) await new Promise((r) => setTimeout(r, 10));
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({
        hook_event_name: 'Notification',
        message: 'may I push?',
        notification_type: 'needs_reply',
      }),
    ]);
    expect(inner.messages).toHaveLength(2);
  });
});

/**
 * @module lifecycle-hooks/notify
 * The Notification event: the runtime "generates a notification" whenever an agent's
 * message goes to the operator (ask_user, a permission request, a fatal stop). This
 * wraps an agent's mailbox so each such message, once sent, fires Notification with
 * `message` and `notification_type` (`needs_reply` or `message`); hooks never delay or
 * fail the send (fired in the background, errors dropped).
 */
import { type Mailbox, OPERATOR } from '../mailbox/mailbox.js';
import type { LifecycleHooks } from './dispatch.js';

export function notifyingMailbox(mailbox: Mailbox, hooks: LifecycleHooks | null): Mailbox {
  if (!hooks?.has('Notification')) return mailbox;
  return {
    async send(message) {
      await mailbox.send(message);
      if (message.to !== OPERATOR) return;
      const notification_type = message.needs_reply ? 'needs_reply' : 'message';
      void hooks.fire('Notification', { message: message.body, notification_type }).catch(() => undefined);
    },
    consume: (agent) => mailbox.consume(agent),
    onMessage: (listener) => mailbox.onMessage(listener),
    pendingUrgent: () => mailbox.pendingUrgent(),
    pending: () => mailbox.pending(),
  };
}

/**
 * `colony task accept <id>`: the `task_accept_handoff` tool, or `task_accept_relay`
 * when the id is a relay. The baton's file claims become the accepting session's.
 */
import { batonCommand } from './_baton';

export default batonCommand('accept');

/**
 * `colony task decline <id>`: the `task_decline_handoff` tool, or `task_decline_relay`
 * when the id is a relay. The sender of a handoff may use it to withdraw it. `--reason`
 * says why.
 */
import { batonCommand } from './_baton';

export default batonCommand('decline');

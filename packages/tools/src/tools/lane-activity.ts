/**
 * @module tools/lane-activity
 * What a lane's activity words mean, as the contract states them (hivemind counts,
 * attention_inbox stalled lanes, bridge_status). A lane is one session on one task
 * thread; its activity is read from the session's last heartbeat (every tool call and
 * hook moves it) and its last file work (an edit or a claim), against the injected clock.
 */

/** The activity classes, in the order the contract's `counts` object lists them. */
export const LANE_ACTIVITIES = ['working', 'thinking', 'idle', 'stalled', 'dead', 'unknown'] as const;
export type LaneActivity = (typeof LANE_ACTIVITIES)[number];

/** A heartbeat younger than this is a live session: working (with recent file work) or thinking. */
export const LANE_LIVE_MINUTES = 5;
/** File work (edit or claim) younger than this makes a live session `working`. */
export const LANE_WORKING_MINUTES = 5;
/** A heartbeat older than LANE_LIVE_MINUTES and younger than this is `idle`; from here on, `stalled` (rescue's default). */
export const LANE_STALLED_MINUTES = 10;
/** A heartbeat this old, or an ended session, is `dead`. */
export const LANE_DEAD_MINUTES = 60;

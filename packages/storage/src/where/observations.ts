/**
 * @module where/observations
 * The compact-row selection of the timelines (`ObservationRef`), shared by
 * `src/observations.ts` (SQLite) and `src/pg/queries/observations-timeline.ts`.
 */

import type { observations } from '../schema';
import { type ColsOf, pickColumns } from './_columns';

/** The `observations` columns of a compact row. */
export type RefCols = ColsOf<typeof observations, 'id' | 'sessionId' | 'taskId' | 'kind' | 'ts' | 'replyTo'>;

const REF_KEYS = ['id', 'sessionId', 'taskId', 'kind', 'ts', 'replyTo'] as const;

/** The selection of a compact row, from either dialect's table. */
export const refColumnsOf = <T extends RefCols>(o: T) => pickColumns(o, REF_KEYS);

/**
 * @module tasks/pointer-fields
 * What a working note's notepad pointer says: fields given explicitly (`pointer`) win,
 * then `key=value` pairs written in the note, then what the task thread knows.
 */
import type { Task } from '@swarm/storage';
import type { TaskNoteWorkingInput } from '@swarm/tools';
import type { NotepadPointer } from './omx-notepad';

/** Pointer fields: explicit ones first, then `key=value` pairs in the note, then the task. */
export function pointerFor(
  args: TaskNoteWorkingInput,
  task: Task | null,
  observationId: number | null,
): NotepadPointer {
  const fields = parseWorkingFields(args.content);
  const pick = (key: 'branch' | 'task' | 'blocker' | 'next' | 'evidence') => args.pointer?.[key] ?? fields[key];
  return {
    branch: pick('branch') ?? task?.branch ?? args.branch ?? 'unknown',
    task: pick('task') ?? task?.title ?? task?.branch ?? 'unknown',
    blocker: pick('blocker') ?? 'none',
    next: pick('next') ?? 'none',
    evidence: pick('evidence') ?? 'none',
    colony_observation_id: observationId,
  };
}

/** `branch=x; task=y | next=z` style fields, as working notes are written. */
export function parseWorkingFields(content: string): Partial<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const part of content.split(/[;|\n]/)) {
    const m = /^\s*(branch|task|blocker|next|evidence)\s*=\s*(.+?)\s*$/i.exec(part);
    if (m?.[1] && m[2]) fields[m[1].toLowerCase()] = m[2];
  }
  return fields;
}

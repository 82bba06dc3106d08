/**
 * @swarm/coordination: colony's domain rules. This file is the whole public API.
 * Services implement the backend interface of @swarm/tools on top of @swarm/storage;
 * side effects (clock, token counter, settings) are passed in.
 */

// Side effects passed in
export { type Clock, fileClock, type ManualClock, manualClock, systemClock } from './clock';
export {
  appendObservation,
  type CoordinationSettings,
  DEFAULT_COORDINATION_SETTINGS,
  type DomainContext,
} from './context';
export { EDIT_KIND, type EditRecord, FILE_EDIT_TOOLS, isFileEditTool, recordEdit } from './edits';
export { inferIdeFromSessionId } from './ide';
export { compressContent } from './memory/compress';

// Memory
export {
  MemoryService,
  type MemoryServiceOptions,
  type SearchCandidate,
  type SearchRanker,
} from './memory/memory-service';
export { makeSnippet } from './memory/snippet';
export { normalizeRepoPath } from './repo-paths';
export { type NotepadPointer, pointerLine } from './tasks/omx-notepad';
export { compactLine, directedAgent, looksLikeFutureWork } from './tasks/post-routing';
// Task threads
export {
  normalizeRepoRoot,
  parseWorkingFields,
  TASK_LIST_HINT,
  TASK_LIST_STRONG_WARNING,
  TASK_LIST_WARNING,
  TaskService,
} from './tasks/task-service';
export { type CountJob, type TokenWorker, tokenWorker } from './token-worker';
export {
  createTokenCounter,
  DEFAULT_TOKENIZER_MODULE,
  estimateTokens,
  type TokenCounter,
  type TokenCounterOptions,
} from './tokens';

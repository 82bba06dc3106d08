/**
 * @module backend-swarm
 * What a backend provides for the seed-000 tools: workspace files and write proposals,
 * the shared context and the work queue. Same rules as backend.ts: contract shapes in,
 * contract shapes out, ColonyError for refusals, synchronous.
 */
import type { CtxGetInput, CtxKeysInput, CtxPutInput } from './tools/swarm-context';
import type {
  ArbiterDecideInput,
  FsListInput,
  FsProposalsInput,
  FsReadInput,
  FsWriteInput,
  SearchTextInput,
} from './tools/swarm-files';
import type {
  CoordClaimInput,
  CoordCompleteInput,
  CoordEnqueueInput,
  CoordExtendInput,
  CoordNextInput,
  CoordStatusInput,
} from './tools/swarm-queue';

export interface FsListResult {
  files: string[];
  count: number;
  truncated?: true;
}

export interface FsReadResult {
  path: string;
  bytes: number;
  content: string;
  truncated?: true;
  size?: number;
  binary?: true;
}

export interface TextMatch {
  file: string;
  line: number;
  text: string;
}

export interface SearchTextResult {
  matches: TextMatch[];
  count: number;
  truncated?: true;
}

export interface FsWriteResult {
  proposal_id: number;
  path: string;
  status: 'pending';
  superseded_id?: number;
  next_tool: 'arbiter_decide';
}

export interface ProposalSummary {
  proposal_id: number;
  path: string;
  agent: string;
  bytes: number;
  created_at: number;
  preview?: string;
  content?: string;
}

export interface FsProposalsResult {
  proposals: ProposalSummary[];
  count: number;
  writes_allowed: boolean;
}

export interface DecisionResult {
  path: string;
  /** null when the decision found no pending proposal (its path left the workspace, say). */
  proposal_id: number | null;
  status: 'applied' | 'approved' | 'rejected' | 'failed';
  code?: string;
  /** Why a write failed, in words. */
  error?: string;
}

export interface ArbiterDecideResult {
  results: DecisionResult[];
  writes_allowed: boolean;
}

export interface SwarmFilesBackend {
  list(args: FsListInput): FsListResult;
  read(args: FsReadInput): FsReadResult;
  search(args: SearchTextInput): SearchTextResult;
  propose(args: FsWriteInput): FsWriteResult;
  proposals(args: FsProposalsInput): FsProposalsResult;
  decide(args: ArbiterDecideInput): ArbiterDecideResult;
}

export type CtxPutResult =
  | { ok: true; key: string; version: number }
  | { ok: false; error: 'version_mismatch'; key: string; version: number };

export interface CtxGetResult {
  key: string;
  value: unknown;
  version: number;
}

export interface CtxKeysResult {
  keys: string[];
  truncated?: true;
}

export interface SwarmContextBackend {
  put(args: CtxPutInput): CtxPutResult;
  get(args: CtxGetInput): CtxGetResult;
  keys(args: CtxKeysInput): CtxKeysResult;
}

export interface QueueItemView {
  id: string;
  kind: string;
  payload: unknown;
  lease_until: number;
  claimed_by: string;
}

export interface QueueStatusResult {
  length: number;
  front: { id: string; kind: string; payload: unknown; status: 'queued' } | null;
  counts: { queued: number; claimed: number; done: number };
  phase: number;
}

export interface SwarmQueueBackend {
  enqueue(args: CoordEnqueueInput): { enqueued: true; id: string; kind: string };
  next(args: CoordNextInput): { item: QueueItemView | null };
  status(args: CoordStatusInput): QueueStatusResult;
  claim(args: CoordClaimInput): { id: string; kind: string; lease_until: number; claimed_by: string };
  complete(args: CoordCompleteInput): { id: string; status: 'done' };
  extend(args: CoordExtendInput): { id: string; lease_until: number };
}

export interface SwarmBackend {
  readonly files: SwarmFilesBackend;
  readonly context: SwarmContextBackend;
  readonly queue: SwarmQueueBackend;
}

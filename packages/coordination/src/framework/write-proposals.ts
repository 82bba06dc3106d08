/**
 * @module framework/write-proposals
 * fs_write as a proposal, and the arbiter's decisions on proposals. A proposal is a
 * row plus a `write-proposal` observation; a decision is a guarded UPDATE on
 * `status = 'pending'` plus a `write-decision` observation, in one transaction. A
 * write reaches the disk only when the arbiter approved it AND writes are allowed;
 * it is then re-checked against the workspace (a symlink may have appeared since)
 * and written atomically (temporary file, then rename, which replaces a symlink at
 * the target instead of following it).
 */
import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import {
  decideWriteProposal,
  insertWriteProposal,
  listPendingProposals,
  pendingProposalFor,
  upsertSession,
  type WriteProposal,
} from '@swarm/storage';
import {
  type ArbiterDecideInput,
  type ArbiterDecideResult,
  ColonyError,
  type DecisionResult,
  type FsProposalsInput,
  type FsProposalsResult,
  type FsWriteInput,
  type FsWriteResult,
  isColonyError,
} from '@swarm/tools';
import { mapInOrder } from '../_in-order';
import { appendObservation, type DomainContext } from '../context';
import { Workspace } from './workspace';

const PREVIEW_CHARS = 200;

/** The session under which a seed-000 agent's audit observations are recorded. */
export async function swarmSession(ctx: DomainContext, agent: string): Promise<string> {
  const id = `swarm:${agent}`;
  await upsertSession(ctx.store, { id, ide: 'swarm', agent }, ctx.clock.now());
  return id;
}

export function proposeWrite(ctx: DomainContext, args: FsWriteInput): Promise<FsWriteResult> {
  const ws = Workspace.open(args.repo_root);
  const target = ws.resolve(args.path);
  if (target.rel === '') throw notAFile(args.path);
  ws.requireNotIgnored(target, false, args.path);
  if (isDirectory(target.abs)) throw notAFile(args.path);
  const bytes = Buffer.byteLength(args.content);
  return ctx.store.write(async () => {
    const sessionId = await swarmSession(ctx, args.agent);
    const earlier = await pendingProposalFor(ctx.store, ws.root, target.rel);
    if (earlier) {
      await decideWriteProposal(
        ctx.store,
        earlier.id,
        { status: 'superseded', decidedBy: args.agent },
        ctx.clock.now(),
      );
    }
    const observationId = await appendObservation(ctx, {
      sessionId,
      kind: 'write-proposal',
      content: `${args.agent} proposes writing ${target.rel} (${bytes} bytes) in ${ws.root}`,
      metadata: {
        tool: 'fs_write',
        repo_root: ws.root,
        file_path: target.rel,
        bytes,
        ...(earlier ? { supersedes: earlier.id } : {}),
      },
    });
    const proposal = await insertWriteProposal(
      ctx.store,
      {
        repoRoot: ws.root,
        path: target.rel,
        content: args.content,
        createDirs: args.create_dirs,
        agent: args.agent,
        observationId,
      },
      ctx.clock.now(),
    );
    return {
      proposal_id: proposal.id,
      path: target.rel,
      status: 'pending' as const,
      ...(earlier ? { superseded_id: earlier.id } : {}),
      next_tool: 'arbiter_decide' as const,
    };
  });
}

export async function pendingProposals(
  ctx: DomainContext,
  args: FsProposalsInput,
  allowWrite: boolean,
): Promise<FsProposalsResult> {
  const ws = Workspace.open(args.repo_root);
  const rows = await listPendingProposals(ctx.store, ws.root, args.limit);
  return {
    proposals: rows.map((p) => ({
      proposal_id: p.id,
      path: p.path,
      agent: p.agent,
      bytes: Buffer.byteLength(p.content),
      created_at: p.createdAt,
      ...(args.include_content ? { content: p.content } : { preview: p.content.slice(0, PREVIEW_CHARS) }),
    })),
    count: rows.length,
    writes_allowed: allowWrite,
  };
}

/**
 * Settles the arbiter's decisions. Each decision stands on its own: one whose path
 * leaves the workspace or has no pending proposal is answered `failed` with its code,
 * and the others are still recorded and applied. Only a batch in which no decision can
 * be acted on is refused (with the first one's code); a path decided twice is
 * INVALID_PARAMETERS for the whole batch.
 */
export function decideProposals(
  ctx: DomainContext,
  args: ArbiterDecideInput,
  allowWrite: boolean,
): Promise<ArbiterDecideResult> {
  const ws = Workspace.open(args.repo_root);
  const decisions = args.decisions.map((d) => {
    try {
      return { ...d, rel: ws.resolve(d.path).rel, refusal: null };
    } catch (error) {
      if (!isColonyError(error)) throw error;
      return { ...d, rel: null, refusal: error };
    }
  });
  const seen = new Set<string>();
  for (const d of decisions) {
    if (d.rel === null) continue;
    if (seen.has(d.rel)) {
      throw new ColonyError('INVALID_PARAMETERS', `decisions: "${d.rel}" is decided twice`, {
        details: { fields: ['decisions'] },
      });
    }
    seen.add(d.rel);
  }
  return ctx.store.write(async () => {
    const targets = await mapInOrder(decisions, async (d) => {
      if (d.rel === null) return { decision: d, proposal: null, refusal: d.refusal };
      const proposal = await pendingProposalFor(ctx.store, ws.root, d.rel);
      if (!proposal || (d.proposal_id !== undefined && d.proposal_id !== proposal.id)) {
        const refusal = new ColonyError(
          'PROPOSAL_NOT_FOUND',
          d.proposal_id !== undefined && proposal
            ? `proposal ${d.proposal_id} for "${d.rel}" is no longer pending: ${proposal.id} superseded it`
            : `no pending proposal for "${d.rel}" in ${ws.root}`,
          { details: { path: d.rel, ...(proposal ? { pending_id: proposal.id } : {}) } },
        );
        return { decision: d, proposal: null, refusal };
      }
      return { decision: d, proposal, refusal: null };
    });
    const first = targets.find((t) => t.proposal === null);
    if (first?.refusal && targets.every((t) => t.proposal === null)) throw first.refusal;
    const sessionId = await swarmSession(ctx, args.agent);
    const results = await mapInOrder(targets, async ({ decision, proposal, refusal }): Promise<DecisionResult> => {
      if (proposal === null) {
        return {
          path: decision.rel ?? decision.path,
          proposal_id: null,
          status: 'failed',
          code: refusal?.code ?? 'PROPOSAL_NOT_FOUND',
          error: refusal?.message ?? 'not decided',
        };
      }
      const result = settle(proposal, decision.action, allowWrite);
      const now = ctx.clock.now();
      await decideWriteProposal(
        ctx.store,
        proposal.id,
        { status: result.status, decidedBy: args.agent, notes: decision.notes ?? null, errorCode: result.code ?? null },
        now,
      );
      await appendObservation(ctx, {
        sessionId,
        kind: 'write-decision',
        content: `${args.agent} ${result.status} ${proposal.path}${decision.notes ? `: ${decision.notes}` : ''}`,
        metadata: {
          tool: 'arbiter_decide',
          proposal_id: proposal.id,
          repo_root: ws.root,
          file_path: proposal.path,
          action: decision.action,
          status: result.status,
          ...(result.code ? { code: result.code } : {}),
        },
      });
      return result;
    });
    return { results, writes_allowed: allowWrite };
  });
}

/** The outcome of one decision; approved writes are applied here when allowed. */
function settle(proposal: WriteProposal, action: 'approve' | 'reject', allowWrite: boolean): DecisionResult {
  const base = { path: proposal.path, proposal_id: proposal.id };
  if (action === 'reject') return { ...base, status: 'rejected' };
  if (!allowWrite) return { ...base, status: 'approved', code: 'WRITES_NOT_ALLOWED' };
  try {
    applyWrite(proposal);
    return { ...base, status: 'applied' };
  } catch (error) {
    const code = isColonyError(error) ? error.code : 'INTERNAL_ERROR';
    return { ...base, status: 'failed', code, error: (error as Error).message };
  }
}

/** Writes a proposal to disk, re-checking confinement first. Throws ColonyError or I/O errors. */
function applyWrite(proposal: WriteProposal): void {
  // A fresh look at the workspace: .gitignore or symlinks may have changed since the proposal.
  const ws = Workspace.open(proposal.repoRoot);
  const target = ws.resolve(proposal.path);
  ws.requireNotIgnored(target, false, proposal.path);
  const parent = dirname(target.abs);
  if (!isDirectory(parent, true)) {
    if (!proposal.createDirs) {
      throw new ColonyError('PATH_NOT_FOUND', `folder of "${proposal.path}" does not exist (create_dirs: false)`);
    }
    mkdirSync(parent, { recursive: true });
  }
  // The folders now exist: their real path must still be inside the workspace.
  const realParent = realpathSync(parent);
  if (realParent !== ws.root && !realParent.startsWith(ws.root + sep)) {
    throw new ColonyError('PATH_OUTSIDE_REPO', `"${proposal.path}" resolves outside the workspace`);
  }
  if (isDirectory(target.abs)) throw notAFile(proposal.path);
  const temp = join(realParent, `.${basename(target.abs)}.colony-${process.pid}-${proposal.id}.tmp`);
  try {
    writeFileSync(temp, proposal.content, { flag: 'wx' });
    renameSync(temp, join(realParent, basename(target.abs)));
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Whether a folder is there; `follow` looks through a symlink (never for a write target). */
function isDirectory(path: string, follow = false): boolean {
  try {
    return (follow ? statSync(path) : lstatSync(path)).isDirectory();
  } catch {
    return false;
  }
}

function notAFile(path: string): ColonyError {
  return new ColonyError('PATH_NOT_FOUND', `path "${path}" names a folder, not a file`, { details: { path } });
}

/**
 * @module tools/framework-files
 * Seed 000 workspace file tools. Reads (fs_list, fs_read, search_text) answer at once;
 * fs_write only queues a proposal, which an arbiter approves or rejects with
 * arbiter_decide; an approved write reaches the disk only when writes are allowed
 * (`colony mcp --allow-write`, COLONY_ALLOW_WRITE=1, openColony({ allowWrite })).
 * Every path is confined to the workspace root `repo_root`.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { agentName, limit, repoRoot, workspacePath } from '../schemas';

/** Largest file content a proposal may carry, in characters. */
export const MAX_PROPOSAL_CHARS = 1_000_000;

const PATH_ERRORS = [
  'PATH_OUTSIDE_REPO',
  'ROOT_NOT_ALLOWED',
  'PATH_NOT_FOUND',
  'PATH_IGNORED',
  'RATE_LIMITED',
] as const;
const PATH_NOTES =
  'Paths are relative to repo_root (absolute paths must lie inside it). Traversal out of the workspace, absolute ' +
  'paths elsewhere and symlinks resolving outside it answer PATH_OUTSIDE_REPO; `.git/` (in any spelling a ' +
  'case-insensitive file system folds onto it, such as `.GIT` or `GIT~1`, and through a symlink) and .gitignored ' +
  'paths answer PATH_IGNORED.';

export const FsListInput = z.strictObject({
  agent: agentName,
  repo_root: repoRoot,
  dir: workspacePath.default('.'),
  pattern: z.string().min(1).max(1000).optional(),
  max_results: limit(200, 5000),
});
export type FsListInput = z.output<typeof FsListInput>;

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

export interface FrameworkFilesBackend {
  list(args: FsListInput): FsListResult;
  read(args: FsReadInput): FsReadResult;
  search(args: SearchTextInput): SearchTextResult;
  propose(args: FsWriteInput): Promise<FsWriteResult>;
  proposals(args: FsProposalsInput): Promise<FsProposalsResult>;
  decide(args: ArbiterDecideInput): Promise<ArbiterDecideResult>;
}

/** The part of ColonyBackend these tools call (backend.ts composes the whole). */
type Host = { readonly framework: { readonly files: FrameworkFilesBackend } };

export const fsList = defineTool({
  name: 'fs_list',
  title: 'List files',
  description: 'List workspace files under dir, recursively; pattern is a glob, or a regex after "regex:".',
  input: FsListInput,
  surface: 'framework',
  mutates: false,
  docs: {
    returns: '{ files: [ path ], count, truncated? } with paths relative to repo_root, sorted per folder.',
    errors: [...PATH_ERRORS],
    notes:
      `Honours .gitignore files (root and nested) and skips .git. A "regex:" pattern is RE2 syntax, ` +
      `matched in linear time. The pattern is matched against the path relative to \`dir\`; a glob ` +
      `without "/" matches the file name at any depth ("*.py"). Symlinked folders are not followed. ` +
      `${PATH_NOTES}`,
    example: { agent: 'Gemini', repo_root: '/abs/repo', dir: '.', pattern: 'regex:py$', max_results: 200 },
  },
  handler: (args, b: Host) => b.framework.files.list(args),
});

export const FsReadInput = z.strictObject({
  agent: agentName,
  repo_root: repoRoot,
  path: workspacePath,
  max_bytes: limit(50_000, 1_000_000),
});
export type FsReadInput = z.output<typeof FsReadInput>;

export const fsRead = defineTool({
  name: 'fs_read',
  title: 'Read file',
  description: 'Read a workspace file, up to max_bytes.',
  input: FsReadInput,
  surface: 'framework',
  mutates: false,
  docs: {
    returns:
      '{ path, bytes, content } where bytes is the length of content in bytes; plus truncated: true ' +
      'and size (the whole file) when cut at max_bytes, and binary: true (content empty) for files ' +
      'holding NUL bytes.',
    errors: [...PATH_ERRORS],
    notes: PATH_NOTES,
    example: { agent: 'Gemini', repo_root: '/abs/repo', path: 'scripts/ai_swarm.py', max_bytes: 50_000 },
  },
  handler: (args, b: Host) => b.framework.files.read(args),
});

export const SearchTextInput = z.strictObject({
  agent: agentName,
  repo_root: repoRoot,
  pattern: z.string().min(1).max(1000),
  dir: workspacePath.default('.'),
  max_matches: limit(200, 2000),
});
export type SearchTextInput = z.output<typeof SearchTextInput>;

export const searchText = defineTool({
  name: 'search_text',
  title: 'Search text',
  description: 'Regex search of workspace file contents under dir.',
  input: SearchTextInput,
  surface: 'framework',
  mutates: false,
  docs: {
    returns: '{ matches: [ { file, line, text } ], count, truncated? }; line is 1-based, text at most 200 characters.',
    errors: [...PATH_ERRORS],
    notes:
      `RE2 regular expression syntax, matched in linear time (no lookaround or backreferences); an ` +
      `invalid one answers INVALID_PARAMETERS. Skips binary files, files over 1 MiB and what fs_list ` +
      `skips. ${PATH_NOTES}`,
    example: { agent: 'Gemini', repo_root: '/abs/repo', pattern: 'def main', dir: 'scripts', max_matches: 50 },
  },
  handler: (args, b: Host) => b.framework.files.search(args),
});

export const FsWriteInput = z.strictObject({
  agent: agentName,
  repo_root: repoRoot,
  path: workspacePath,
  content: z.string().max(MAX_PROPOSAL_CHARS),
  create_dirs: z.boolean().default(true),
});
export type FsWriteInput = z.output<typeof FsWriteInput>;

export const fsWrite = defineTool({
  name: 'fs_write',
  title: 'Propose write',
  description: 'Propose writing a workspace file (full content); it waits for arbiter_decide.',
  input: FsWriteInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: false, idempotent: false },
  docs: {
    returns:
      '{ proposal_id, path, status: "pending", superseded_id?, next_tool: "arbiter_decide" }. Appends ' +
      'a write-proposal observation.',
    errors: [...PATH_ERRORS],
    notes:
      `Nothing is written to disk here. A workspace holds one pending proposal per path: a newer ` +
      `proposal for the same path supersedes the older one (superseded_id). ${PATH_NOTES}`,
    example: { agent: 'Claude', repo_root: '/abs/repo', path: 'docs/notes.md', content: 'Hello', create_dirs: true },
  },
  handler: (args, b: Host) => b.framework.files.propose(args),
});

export const FsProposalsInput = z.strictObject({
  agent: agentName,
  repo_root: repoRoot,
  include_content: z.boolean().default(false),
  limit: limit(50, 200),
});
export type FsProposalsInput = z.output<typeof FsProposalsInput>;

export const fsProposals = defineTool({
  name: 'fs_proposals',
  title: 'Write proposals',
  description: "A workspace's pending write proposals, oldest first, for the arbiter to review.",
  input: FsProposalsInput,
  surface: 'framework',
  mutates: false,
  docs: {
    returns:
      '{ proposals: [ { proposal_id, path, agent, bytes, created_at, preview | content } ], count, ' +
      'writes_allowed }. preview is the first 200 characters; include_content: true sends whole ' +
      'contents instead.',
    errors: ['RATE_LIMITED'],
    example: { agent: 'Arbiter', repo_root: '/abs/repo', include_content: true },
  },
  handler: (args, b: Host) => b.framework.files.proposals(args),
});

export const ArbiterDecision = z.strictObject({
  path: workspacePath,
  action: z.enum(['approve', 'reject']),
  notes: z.string().max(2000).optional(),
  proposal_id: z.int().positive().optional(),
});

export const ArbiterDecideInput = z.strictObject({
  agent: agentName,
  repo_root: repoRoot,
  decisions: z.array(ArbiterDecision).min(1).max(100),
});
export type ArbiterDecideInput = z.output<typeof ArbiterDecideInput>;

export const arbiterDecide = defineTool({
  name: 'arbiter_decide',
  title: 'Decide writes',
  description: "Decide pending write proposals (the arbiter's approve/reject); approved writes apply if allowed.",
  input: ArbiterDecideInput,
  surface: 'framework',
  mutates: true,
  hints: { destructive: true, idempotent: false },
  docs: {
    returns:
      '{ results: [ { path, proposal_id, status: "applied" | "approved" | "rejected" | "failed", code?, error? } ], ' +
      'writes_allowed }. "approved" means approved but not written: writes are not allowed (code ' +
      'WRITES_NOT_ALLOWED). "failed" carries the code that stopped the decision or the write (e.g. PATH_OUTSIDE_REPO ' +
      'for a path leaving the workspace, PROPOSAL_NOT_FOUND with proposal_id null). Appends a write-decision ' +
      'observation per decided proposal.',
    errors: ['PROPOSAL_NOT_FOUND', 'PATH_OUTSIDE_REPO', 'ROOT_NOT_ALLOWED', 'ACCESS_DENIED', 'RATE_LIMITED'],
    notes:
      'Takes the STRICT JSON the arbiter answers: `{ "decisions": [ { "path", "action", "notes" } ] }` (unknown keys ' +
      'are refused). Each decision stands on its own: one whose path leaves the workspace or has no pending proposal ' +
      'is answered "failed" with its code while the others are decided; only a batch where no decision can be acted ' +
      'on is refused (PROPOSAL_NOT_FOUND, PATH_OUTSIDE_REPO). The optional proposal_id (from fs_proposals) pins the ' +
      'decision to the proposal reviewed: if a newer proposal superseded it, PROPOSAL_NOT_FOUND. Writes are atomic ' +
      '(temporary file, then rename) and re-checked against the workspace root when applied.',
    example: {
      agent: 'Arbiter',
      repo_root: '/abs/repo',
      decisions: [{ path: 'docs/notes.md', action: 'approve', notes: 'ok' }],
    },
  },
  handler: (args, b: Host) => b.framework.files.decide(args),
});

export const frameworkFileTools = [fsList, fsRead, searchText, fsWrite, fsProposals, arbiterDecide];

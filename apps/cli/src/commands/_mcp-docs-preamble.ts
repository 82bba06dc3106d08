/**
 * @module mcp-docs-preamble
 * The hand-written introduction of docs/mcp.md. Everything after it (the tool index
 * and one section per tool) is generated from the registry by `colony docs mcp`, so
 * keep this text about how to use the tools, never about one tool's arguments.
 */

export const MCP_DOCS_PREAMBLE = `
# colony MCP tools

colony serves its tools over MCP: \`colony mcp\` speaks stdio, \`colony mcp --http\`
serves Streamable HTTP on 127.0.0.1 behind a bearer token. Register the server as
\`colony\`, so tool calls appear as \`mcp__colony__<tool>\`.

## Registering the server

\`colony install --ide claude-code\` (or \`--ide codex\`) registers the server, and the
IDE hooks that register sessions, join task threads and record edits, in the IDE's own
config files; see docs/ide-integration.md. By hand, Claude Code:

\`\`\`sh
claude mcp add colony -- node /path/to/colony/apps/mcp-server/dist/main.js
\`\`\`

Codex (\`~/.codex/config.toml\`):

\`\`\`toml
[mcp_servers.colony]
command = "node"
args = ["/path/to/colony/apps/mcp-server/dist/main.js"]
\`\`\`

\`apps/mcp-server/dist/main.js\` is the standalone \`colony-mcp\` server (it starts faster than
\`colony mcp\`, which serves the same tools). Add \`--db PATH\` to share a database other than \`$COLONY_HOME/colony.db\`, and
\`--toolset core\` for the lean set. Every IDE starts its own server process; they can
all use one database file at once.

## Protocol revisions and tool metadata

Servers speak MCP revision 2026-07-28 and the SDK's handshake revisions (2025-11-25 back
to 2024-10-07) side by side. A 2026-07-28 client needs no \`initialize\`: it may ask
\`server/discover\` (revisions, capabilities, server name, instructions), then sends each
request with its revision in \`_meta\`; results carry \`resultType\`, and tools/list a
cache hint. Over HTTP such a request carries \`MCP-Protocol-Version\`, \`Mcp-Method\` and,
for \`tools/call\`, \`Mcp-Name\` headers matching its body (else 400, \`-32020\`). A revision
the server does not speak gets \`-32022\` with the list it does.

Every tool has a \`title\` and MCP \`annotations\` (shown under each tool below): read-only
tools say \`readOnlyHint\`, so clients may approve them without asking; writes say whether
they are destructive or idempotent; only the runtime tools that run commands reach an
open world. tools/list leaves out hints equal to the spec's defaults. Every tool that
writes accepts an optional \`idempotency_key\` (a retry with the same key returns the
first answer); it is listed in the argument tables here, not in tools/list.

## Toolsets

- \`all\` (the default) serves the MCP contract: every tool in the index below except
  those marked \`framework\`.
- \`core\` serves only the tools marked \`core\`: the everyday loop, for clients where
  each listed tool costs context on every turn.
- \`framework\` serves only the tools marked \`framework\`: the seed-000 swarm tools
  (workspace files and write proposals, shared context, work queue), each naming its
  caller in \`agent\`. Add \`--allow-write --arbiter NAME\` to let the arbiter
  \`NAME\` (and no one else) apply approved writes with \`arbiter_decide\`. File tools
  work only under the roots the server allows (the repository of its working
  directory, plus \`--root DIR\`): another \`repo_root\` answers \`ROOT_NOT_ALLOWED\`. Their \`RATE_LIMITED\` refusal is the seed's payload \`{ error: "rate_limited",
  code: 429, tool, limit, remaining, reset_sec, scope }\`. The toolset also serves the
  seven seed-001 tools (context mesh with access lists and TTLs, atomic batches, agent
  messages): their schemas are the seed's word for word, their caller is
  \`agent_name\` or \`from_agent\`, and a refusal is \`{ success: false, error,
  error_code, tool, timestamp }\`. See [framework.md](framework.md).
- \`runtime\` serves the tools marked \`runtime\`: seed 004's workspaces, \`exec_parallel\`
  and \`swarm_run\` on git worktrees. They run git and shell commands on the host, so
  a server lists them only when started with \`--allow-exec\` (\`colony mcp --allow-exec\`
  adds them to any toolset; \`--toolset runtime --allow-exec\` serves them alone;
  \`colony install --ide ... --allow-exec\` registers the flag). Without it, a call to
  any of them answers \`EXEC_NOT_ALLOWED\` and runs nothing. See [runtime.md](runtime.md).

## Progressive disclosure

Reads are compact by default: ids, kinds, snippets, scores and counts, never full
bodies. Search first, hydrate later:

1. \`search\` with query-rich terms: feature name, package, file path, task slug or the
   exact error text.
2. Look over the compact hits; do not fetch every body.
3. \`get_observations\` with only the ids you need (\`expand: false\` for the
   compressed form).

Use \`list_sessions\` -> \`timeline\` to walk a known session, and \`task_timeline\` to walk
a task thread.

## Startup loop

At the start of a session, and whenever you resume:

1. \`task_thread\` with your \`repo_root\`, \`branch\`, \`session_id\` and \`agent\`: opens the
   thread for that branch or joins it, and answers its \`task_id\`.
2. \`task_updates_since\` with the last \`ts\` you saw (0 the first time): what other agents
   posted, excluding your own posts.
3. \`search\` for the work at hand, including the warning kinds (\`failed_approach\`,
   \`blocked_path\`, \`conflict_warning\`, \`reverted_solution\`) others left, then
   \`get_observations\` for the ids worth reading.
4. While working, \`task_post\` decisions, questions, blockers and warnings to the thread,
   and \`task_note_working\` your current working state when you do not know the task id.

\`task_list\` is inventory for browsing and debugging, not a way to pick work.

## Claims, handoffs and relays

Before editing, call \`task_claim_file\` once per file you expect to touch. Claims are
warnings, not locks: the call always succeeds, and answers \`warning\` + \`overlaps\` when
another session holds a fresh claim on the same file (on any branch of the
repository). Coordinate before you collide. \`task_drift_check\` compares your claims
with the files you actually edited.

To pass work on, \`task_hand_off\` (the receiver calls \`task_accept_handoff\` or
\`task_decline_handoff\`; exactly one acceptor wins and the transferred claims move to
it). When you may be gone (quota, rate limit, turn cap), \`task_relay\` instead: your
fresh claims wait on the relay for a short TTL and the receiver gets a worktree
recipe. The \`task_claim_quota_*\` tools adopt, re-address or expire the claims a relay
left behind.

## Errors

A refused call answers an MCP tool result with \`isError: true\` whose text is one JSON
object:

\`\`\`json
{ "code": "OBSERVATION_NOT_FOUND", "error": "observation(s) not found: 99", "tool": "get_observations", "timestamp": "2025-01-01T00:00:00.000Z", "missing_ids": [99] }
\`\`\`

\`code\` comes from a closed set (\`INVALID_PARAMETERS\`, \`UNKNOWN_TOOL\`,
\`TASK_NOT_FOUND\`, ...) and is what to branch on; \`error\` is for people. Some codes
carry details beside them (\`fields\` for INVALID_PARAMETERS, \`missing_ids\`,
\`candidates\`). Bad input never half-writes: a refused call changes nothing.

The runtime tools add \`EXEC_NOT_ALLOWED\` (served without \`--allow-exec\`; details
\`flag\`), \`WORKSPACE_NOT_FOUND\` (unknown workspace ids), \`WORKSPACE_DIRTY\` and
\`WORKSPACE_UNMERGED\` (workspace_destroy refusals without \`force\`), \`SWARM_NOT_FOUND\`,
\`SWARM_NOT_FINISHED\` (swarm_collect before the end, with \`progress\`; or an
interrupted run), \`DIRTY_TREE\` (a checked-out merge target with uncommitted changes,
refused before any task runs) and \`GIT_TOO_OLD\` (git older than 2.20, naming the
version found).
An argument a tool does not declare (\`agent\` on \`task_claim_file\`, \`session_id\` on
\`hivemind_context\`) is ignored, not refused: an object answer then names it in
\`ignored_arguments\` (an array answer is left as it is). Wrong types, missing required
fields and unknown keys inside nested objects are still \`INVALID_PARAMETERS\`.
A session need not call \`task_thread\` first: its first call registers it, and only
\`recall_session\` answers \`SESSION_NOT_FOUND\` for a session it has never seen.

## Retries: idempotency_key

Every mutating tool (\`Writes: yes\` below) accepts an optional \`idempotency_key\`
(1-200 characters). A retry with the same key and the same arguments returns the first
result without writing again, even across processes; the same key with different
arguments answers \`IDEMPOTENCY_KEY_REUSED\`. The runtime tools (which run processes)
reserve the key before running: a retry while the first call still runs waits for its
answer (at most 10 minutes, then \`TIMEOUT\`) instead of running again, a reservation
whose process died is taken over, and a call that fails stores nothing, so its retry runs.
`;

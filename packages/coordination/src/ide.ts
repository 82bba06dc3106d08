/**
 * @module ide
 * Which IDE or agent a session id most likely came from, for rows that say "unknown".
 */

const PREFIXES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(claude|cc)(?:[-_:]|$)/i, 'claude-code'],
  [/^codex(?:[-_:]|$)/i, 'codex'],
  [/^cursor(?:[-_:]|$)/i, 'cursor'],
  [/^gemini(?:[-_:]|$)/i, 'gemini'],
  [/^worker(?:[-_:]|$)/i, 'colony-worker'],
];

export function inferIdeFromSessionId(sessionId: string): string {
  for (const [pattern, ide] of PREFIXES) if (pattern.test(sessionId)) return ide;
  return 'unknown';
}

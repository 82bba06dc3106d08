/**
 * docs/mcp.md is generated from the tool registry; this fails when it is stale.
 * Regenerate with `pnpm docs:mcp`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('docs/mcp.md', () => {
  it('matches what the tool registry generates', () => {
    const generated = execFileSync(process.execPath, [join(root, 'apps/cli/dist/cli.js'), 'docs', 'mcp'], {
      encoding: 'utf8',
    });
    const committed = readFileSync(join(root, 'docs/mcp.md'), 'utf8');
    expect(committed, 'docs/mcp.md is stale: run `pnpm docs:mcp`').toBe(generated);
  });

  it('documents every tool with its arguments, returns and errors', () => {
    const doc = readFileSync(join(root, 'docs/mcp.md'), 'utf8');
    for (const name of ['search', 'get_observations', 'task_thread', 'task_post', 'task_note_working']) {
      expect(doc).toContain(`## ${name}`);
    }
    expect(doc).toContain('**Returns:**');
    expect(doc).toContain('`INVALID_PARAMETERS`');
  });
});

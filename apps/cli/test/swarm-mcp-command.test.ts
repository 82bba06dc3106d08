/**
 * `colony swarm mcp list` as a real process (the built CLI): MCP servers from the
 * project's entry in a temporary $COLONY_HOME/settings.json (colony's own MCP server
 * over stdio, and a command that does not exist).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLONY_MCP, scene } from './_scene';

describe('colony swarm mcp list', () => {
  it("connects the project's servers, shows each state and the tools, and leaves no server running", () => {
    const s = scene();
    const db = join(s.colonyHome, 'served.db');
    writeFileSync(
      join(s.colonyHome, 'settings.json'),
      JSON.stringify({
        version: 2,
        [s.project]: {
          agents: [{ name: 'a', prompt: 'x' }],
          mcpServers: {
            colony: { transport: { type: 'stdio', command: process.execPath, args: [COLONY_MCP, '--db', db] } },
            broken: { transport: { type: 'stdio', command: join(s.project, 'no-such-server') } },
          },
        },
      }),
    );
    const r = s.colony(['swarm', 'mcp', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.servers.map((v: { name: string; state: string }) => [v.name, v.state])).toEqual([
      ['colony', 'connected'],
      ['broken', 'failed'],
    ]);
    expect(out.servers[1].reason).toContain('ENOENT');
    const tools = out.servers[0].tools.map((t: { name: string }) => t.name);
    expect(tools).toContain('mcp__colony__list_sessions');
    expect(out.warnings).toEqual([expect.stringMatching(/^MCP server broken failed to start: /)]);

    const plain = s.colony(['swarm', 'mcp', 'list']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^colony \(stdio\): connected, \d+ tools\n/);
    expect(plain.stdout).toContain('  mcp__colony__list_sessions  Recent sessions, newest first.');
    expect(plain.stdout).toMatch(/\nbroken \(stdio\): failed: .*ENOENT/);
    const running = spawnSync('pgrep', ['-f', db], { encoding: 'utf8' });
    expect(running.stdout.trim()).toBe('');
  });

  it('exits 1 naming the field when mcpServers is invalid', () => {
    const s = scene();
    writeFileSync(
      join(s.colonyHome, 'settings.json'),
      JSON.stringify({
        version: 2,
        [s.project]: { agents: [{ name: 'a', prompt: 'x' }], mcpServers: { x: { transport: { type: 'ws' } } } },
      }),
    );
    const r = s.colony(['swarm', 'mcp', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mcpServers.x.transport');
  });
});

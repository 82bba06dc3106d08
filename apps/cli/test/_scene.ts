/** A temporary project, $HOME and $COLONY_HOME, and the built CLI run as a process in the project. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(REPO, 'apps/cli/dist/cli.js');
export const COLONY_MCP = join(REPO, 'apps/mcp-server/dist/main.js');

export function scene() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'colony-cli-skills-')));
  const project = join(base, 'project');
  const home = join(base, 'home');
  const colonyHome = join(base, 'colony-home');
  for (const d of [project, home, colonyHome]) mkdirSync(d);
  const put = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const colony = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, HOME: home, COLONY_HOME: colonyHome, NO_COLOR: '1' },
      timeout: 30_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
  };
  return { project, home, colonyHome, put, colony };
}

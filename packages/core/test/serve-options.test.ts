/**
 * What `colony mcp` / `colony-mcp` decide before serving: the HTTP bearer token
 * (persisted once, mode 0600) and the validation of the serving flags.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_PORT, HTTP_TOKEN_FILE, parseServeFlags, resolveHttpToken } from '../src/serve/index';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'colony-serve-'));
  homes.push(home);
  return home;
}

describe('resolveHttpToken', () => {
  it('generates a token once, keeps it in a 0600 file, and reuses it', async () => {
    const home = join(tempHome(), 'not-yet-created');
    const token = await resolveHttpToken(home, undefined, {});
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    const file = join(home, HTTP_TOKEN_FILE);
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await resolveHttpToken(home, undefined, {})).toBe(token);
  });

  it('makes a different token for a different home', async () => {
    expect(await resolveHttpToken(tempHome(), undefined, {})).not.toBe(
      await resolveHttpToken(tempHome(), undefined, {}),
    );
  });

  it.skipIf(!existsSync('/proc/self'))('fails fast for a home under /proc instead of spinning in mkdir', async () => {
    await expect(resolveHttpToken('/proc/colony-nope/home', undefined, {})).rejects.toThrow(/ENOENT/);
  });

  it('prefers a given token, then COLONY_MCP_TOKEN, and writes no file for either', async () => {
    const home = tempHome();
    expect(await resolveHttpToken(home, 'given-token', { COLONY_MCP_TOKEN: 'env-token' })).toBe('given-token');
    expect(await resolveHttpToken(home, undefined, { COLONY_MCP_TOKEN: 'env-token' })).toBe('env-token');
    expect(() => statSync(join(home, HTTP_TOKEN_FILE))).toThrow();
  });

  it('replaces a stored token too short to be safe, tightening the file mode', async () => {
    const home = tempHome();
    const file = join(home, HTTP_TOKEN_FILE);
    writeFileSync(file, 'short\n', { mode: 0o644 });
    const token = await resolveHttpToken(home, undefined, {});
    expect(token).not.toBe('short');
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('parseServeFlags', () => {
  it('defaults to stdio with every tool', () => {
    expect(parseServeFlags({})).toEqual({ toolset: 'all' });
    expect(parseServeFlags({ toolset: 'core' })).toEqual({ toolset: 'core' });
  });

  it('serves HTTP on the default port, or the one given, with an optional token', () => {
    expect(parseServeFlags({ http: true })).toEqual({ toolset: 'all', http: { port: DEFAULT_HTTP_PORT } });
    expect(parseServeFlags({ http: true, port: '0' })).toEqual({ toolset: 'all', http: { port: 0 } });
    expect(parseServeFlags({ http: true, port: '8080', token: 'secret', toolset: 'core' })).toEqual({
      toolset: 'core',
      http: { port: 8080, token: 'secret' },
    });
    expect(parseServeFlags({ http: true, port: '65535' }).http?.port).toBe(65535);
  });

  it('refuses an unknown toolset', () => {
    expect(() => parseServeFlags({ toolset: 'everything' })).toThrow(/--toolset must be core, all, framework/);
  });

  it('refuses --port or --token without --http', () => {
    expect(() => parseServeFlags({ port: '8080' })).toThrow(/need --http/);
    expect(() => parseServeFlags({ token: 'x' })).toThrow(/need --http/);
    expect(() => parseServeFlags({ http: false, port: '1' })).toThrow(/need --http/);
  });

  it.each(['', ' ', 'abc', '-1', '65536', '70000', '1.5', '0x1f90', '1e3', ' 80', '80 '])(
    'refuses --port %j',
    (port) => {
      expect(() => parseServeFlags({ http: true, port })).toThrow(/--port must be 0-65535/);
    },
  );
});

/**
 * @module serve/token
 * The bearer token of the Streamable HTTP server: given, from COLONY_MCP_TOKEN, or
 * generated once and kept in `<home>/mcp-http-token` (mode 0600) so clients can be
 * configured once.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HTTP_TOKEN_FILE = 'mcp-http-token';

export async function resolveHttpToken(
  home: string,
  given?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (given) return given;
  if (env.COLONY_MCP_TOKEN) return env.COLONY_MCP_TOKEN;
  const path = join(home, HTTP_TOKEN_FILE);
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 16) return existing;
  } catch {
    // No token yet: make one below.
  }
  // Loaded here, not at start-up: a stdio server defers SQLite (storage) and OpenSSL.
  const [{ makeDirs }, { randomBytes }] = await Promise.all([import('@swarm/storage'), import('node:crypto')]);
  makeDirs(home);
  const token = randomBytes(24).toString('base64url');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

/**
 * @module doctor/token
 * The Streamable HTTP server's token file (`<home>/mcp-http-token`) must be readable
 * by its owner only; `--fix` sets mode 0600.
 */
import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DoctorCheck } from './_check';

const TOKEN_FILE = 'mcp-http-token';

export function tokenCheck(home: string, fix: boolean): DoctorCheck {
  const path = join(home, TOKEN_FILE);
  if (!existsSync(path))
    return { id: 'http-token', status: 'ok', message: `no token file (${path} is made by colony mcp --http)` };
  const mode = statSync(path).mode & 0o777;
  const octal = mode.toString(8).padStart(4, '0');
  if ((mode & 0o077) === 0)
    return { id: 'http-token', status: 'ok', message: `${path} mode ${octal}`, details: { path, mode: octal } };
  if (fix) {
    chmodSync(path, 0o600);
    return {
      id: 'http-token',
      status: 'ok',
      message: `${path} was mode ${octal}; fixed to 0600`,
      details: { path, mode: '0600', fixed: true },
    };
  }
  return {
    id: 'http-token',
    status: 'fail',
    message: `${path} is readable by others (mode ${octal})`,
    fix: `chmod 600 ${path} (or colony doctor --fix)`,
    details: { path, mode: octal },
  };
}

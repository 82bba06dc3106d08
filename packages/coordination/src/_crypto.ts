/**
 * @module crypto
 * node:crypto, loaded on first use: loading it starts OpenSSL (~2 MiB of a process's
 * RSS), and an MCP server's first tool call (task_post, task_thread, ...) needs none of it.
 */
import { createRequire } from 'node:module';

export const nodeCrypto = (): typeof import('node:crypto') => createRequire(import.meta.url)('node:crypto');

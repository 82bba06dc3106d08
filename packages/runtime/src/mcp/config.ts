/**
 * @module mcp/config
 * `mcpServers` of a project entry (seed 003 McpServerConfig): per server name, a
 * `transport` tagged on `type` (`stdio`: command, args, and colony's `cwd`; `http`
 * (Streamable HTTP) and `sse`: url, headers) and `env` for a stdio server's process.
 * Values of `env` and `headers` may hold `${VAR}` (or `${VAR:-default}`), expanded from
 * the environment when the server starts. Server names must keep `mcp__<server>__<tool>`
 * parseable: letters, digits, `_` and `-`, no `__`.
 */
import { z } from 'zod';

export const MCP_SERVER_NAME = /^(?!.*__)[A-Za-z0-9_-]+$/;
export const DEFAULT_MCP_STARTUP_TIMEOUT_SECS = 10;

const Headers = z.record(z.string(), z.string());

export const McpTransportSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    /** colony addition: the server's working folder (default: the project root). */
    cwd: z.string().min(1).optional(),
  }),
  z.strictObject({ type: z.literal('http'), url: z.url(), headers: Headers.optional() }),
  z.strictObject({ type: z.literal('sse'), url: z.url(), headers: Headers.optional() }),
]);

export const McpServerConfigSchema = z.strictObject({
  transport: McpTransportSchema,
  env: z.record(z.string(), z.string()).optional(),
  /** colony addition: how long connecting and listing tools may take (default 10 s). */
  startup_timeout_secs: z.number().positive().max(300).optional(),
});

export const McpServersSchema = z.record(
  z.string().regex(MCP_SERVER_NAME, 'a server name holds letters, digits, "_" and "-", and no "__"'),
  McpServerConfigSchema,
);

export type McpTransportConfig = z.infer<typeof McpTransportSchema>;
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
export type McpServersConfig = z.infer<typeof McpServersSchema>;

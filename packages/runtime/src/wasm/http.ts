/**
 * @module wasm/http
 * `http_request` (capability HttpRequest), seed 003's four HTTP rules: the URL's host
 * must match an `endpoint_allowlist` glob (`*` within a label run, e.g.
 * `*.example.com`; an empty list denies all); HTTPS only, except localhost, 127.* and
 * ::1; `$NAME` of a granted secret in the URL or a header is replaced by its value;
 * a granted secret's value in the response body comes back as `[REDACTED:<name>]`.
 * The request is JSON `{ method?, url, headers?, body? }`; the answer JSON
 * `{ status, headers, body }`.
 */
import { z } from 'zod';
import { WasmToolError } from './errors.js';

const RequestSchema = z.strictObject({
  method: z.string().default('GET'),
  url: z.string(),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.string().nullable().optional(),
});

export interface HttpPolicy {
  readonly allowlist: readonly string[];
  /** Granted secret names with their values (unset ones left out). */
  readonly secrets: ReadonlyMap<string, string>;
  readonly signal: AbortSignal;
}

export function hostAllowed(host: string, allowlist: readonly string[]): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return allowlist.some((glob) => {
    const pattern = glob
      .toLowerCase()
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*');
    return new RegExp(`^${pattern}$`).test(bare);
  });
}

function isLocal(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare.startsWith('127.') || bare === '::1';
}

function inject(text: string, secrets: ReadonlyMap<string, string>): string {
  return text.replace(/\$([A-Z_][A-Z0-9_]*)/g, (whole, name: string) => secrets.get(name) ?? whole);
}

export function redact(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [name, value] of secrets) if (value) out = out.split(value).join(`[REDACTED:${name}]`);
  return out;
}

export async function httpRequest(raw: string, policy: HttpPolicy): Promise<string> {
  let request: z.output<typeof RequestSchema>;
  let url: URL;
  try {
    request = RequestSchema.parse(JSON.parse(raw));
    url = new URL(inject(request.url, policy.secrets));
  } catch (error) {
    throw new WasmToolError('HostFunctionError', `bad http request: ${(error as Error).message}`);
  }
  if (!hostAllowed(url.hostname, policy.allowlist)) {
    throw new WasmToolError('HostFunctionError', `host ${url.hostname} is not in endpoint_allowlist`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocal(url.hostname))) {
    throw new WasmToolError('HostFunctionError', `only https is allowed (except localhost): ${url.protocol}`);
  }
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k, inject(v, policy.secrets)] as const),
  );
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      ...(request.body != null ? { body: request.body } : {}),
      signal: policy.signal,
      redirect: 'manual',
    });
    const body = redact(await response.text(), policy.secrets);
    return JSON.stringify({ status: response.status, headers: Object.fromEntries(response.headers), body });
  } catch (error) {
    throw new WasmToolError('HostFunctionError', `http request failed: ${(error as Error).message}`);
  }
}

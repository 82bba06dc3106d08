/** @module transfer/json Reading untrusted JSON lines: parse without throwing, tell objects apart. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed line, or undefined when it is not JSON. */
export function parseJson(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
}

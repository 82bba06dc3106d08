/**
 * @module tools/_mesh
 * What the seven seed-001 tool definitions share: they live in the `framework`
 * toolset, answer refusals in the seed's error shape, and take no `idempotency_key`
 * (their schemas are the seed's, word for word). Agent names are plain described
 * strings; the service checks them (INVALID_AGENT).
 */
import { z } from 'zod';

export const SEED_001_TOOL = { surface: 'framework', errorFormat: 'syntha', idempotencyKey: false } as const;

/** An agent-name argument with the seed's description. */
export const meshAgent = (description: string) => z.string().describe(description);

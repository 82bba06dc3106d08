/**
 * @module tools/_mesh
 * What the seven seed-001 tool definitions share: they live in the `framework`
 * toolset, answer refusals in the seed's error shape, and accept `idempotency_key`
 * when they mutate without listing it (their published schemas are the seed's, word for
 * word). Agent names are plain described strings; the service checks them
 * (INVALID_AGENT); ill-formed Unicode is refused here.
 */
import { wellFormed } from '../schemas';

export const SEED_001_TOOL = { surface: 'framework', errorFormat: 'syntha', idempotencyKey: 'unlisted' } as const;

/** An agent-name argument with the seed's description. */
export const meshAgent = (description: string) => wellFormed().describe(description);

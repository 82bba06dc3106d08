// Module hooks (node:module register) that append every loaded module's URL to the file
// named by COLONY_LOAD_LOG: which chunks of the bundle a CLI command really loads.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  if (process.env.COLONY_LOAD_LOG) appendFileSync(process.env.COLONY_LOAD_LOG, `${url}\n`);
  return next(url, context);
}

/**
 * @module pg/url
 * A PostgreSQL URL as it may be shown: the password (in the user part, or a
 * `password=` parameter) replaced by `***`, and any message scrubbed of it, so no
 * message colony prints or throws carries a password.
 */

/** `url` with its password masked. */
export function maskUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1:***@').replace(/([?&]password=)[^&]*/gi, '$1***');
}

/** The passwords in `url`, decoded and raw. */
function secretsOf(url: string): string[] {
  const found = [/^[a-z]+:\/\/[^:@/]*:([^@/]*)@/i.exec(url)?.[1], /[?&]password=([^&]*)/i.exec(url)?.[1]];
  const out = new Set<string>();
  for (const raw of found) {
    if (!raw) continue;
    out.add(raw);
    try {
      out.add(decodeURIComponent(raw));
    } catch {}
  }
  return [...out];
}

/** `text` with the URL shown masked and every occurrence of its password replaced. */
export function scrubSecret(text: string, url: string): string {
  let out = text.replaceAll(url, maskUrl(url));
  for (const secret of secretsOf(url)) out = out.replaceAll(secret, '***');
  return out;
}

/**
 * The addresses that carry a secret, in one table: a staff sign-in link's
 * token, an erasure's id (its status page and API answer need no sign-in,
 * so the id is the key), the provider's `code` and `state` on the way back
 * from a sign-in, an erasure's id on the console's requests page. The request log writes these paths with the secret
 * replaced ({@linkcode redactPath}), and their pages go out with
 * `Referrer-Policy: no-referrer` ({@linkcode isSecretUrl}), so the secret
 * reaches neither a log line nor another request's `Referer`.
 *
 * @module
 */

/** What a redacted secret is written as. */
export const REDACTED = "[redacted]";

/** An optional language prefix (`/en`), as the public pages are mounted. */
const LANG = "{/:lang([a-z]{2})}?";

/** Paths whose tail (`:secret`, every segment after it) is a secret; `keep` lists fixed pages beside them. */
const SECRET_PATHS: readonly { pattern: URLPattern; keep?: string[] }[] = [
  {
    pattern: new URLPattern({ pathname: `${LANG}/auth/personal/:secret(.+)` }),
    keep: ["proveedor"],
  },
  {
    pattern: new URLPattern({
      pathname: `${LANG}/mi-pasaporte/borrado/:secret(.+)`,
    }),
  },
  {
    pattern: new URLPattern({ pathname: "/api/turismo/erasures/:secret(.+)" }),
  },
];

/** Paths whose query carries a secret (the request log never writes a query). */
const SECRET_QUERY_PATHS: readonly URLPattern[] = [
  new URLPattern({ pathname: "/auth/callback{/}?" }),
  // `?borrado=<erasure id>` after a staff erasure.
  new URLPattern({ pathname: "/panel/solicitudes{/}?" }),
];

/**
 * `path` with the secret of a {@linkcode SECRET_PATHS} address replaced by
 * {@linkcode REDACTED}; any other path as it is.
 */
export function redactPath(path: string): string {
  for (const { pattern, keep } of SECRET_PATHS) {
    const secret = pattern.exec({ pathname: path })?.pathname.groups.secret;
    if (secret === undefined || keep?.includes(secret)) continue;
    return `${path.slice(0, path.length - secret.length)}${REDACTED}`;
  }
  return path;
}

/** Whether a request to `path` carries a secret in its path or its query. */
export function isSecretUrl(path: string): boolean {
  return redactPath(path) !== path ||
    SECRET_QUERY_PATHS.some((pattern) => pattern.test({ pathname: path }));
}

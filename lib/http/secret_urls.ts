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

/**
 * Paths whose tail (`:secret`, every segment after it) is a secret; `keep`
 * lists fixed pages beside them. `marker` is a part of every path the
 * pattern matches: a path without any marker (nearly every request) is
 * passed without running a pattern.
 */
const SECRET_PATHS: readonly {
  marker: string;
  pattern: URLPattern;
  keep?: string[];
}[] = [
  {
    marker: "/auth/personal/",
    pattern: new URLPattern({ pathname: `${LANG}/auth/personal/:secret(.+)` }),
    keep: ["proveedor"],
  },
  {
    marker: "/mi-pasaporte/borrado/",
    pattern: new URLPattern({
      pathname: `${LANG}/mi-pasaporte/borrado/:secret(.+)`,
    }),
  },
  {
    marker: "/api/turismo/erasures/",
    pattern: new URLPattern({ pathname: "/api/turismo/erasures/:secret(.+)" }),
  },
];

/** Paths whose query carries a secret (the request log never writes a query). */
const SECRET_QUERY_PATHS: readonly { marker: string; pattern: URLPattern }[] = [
  {
    marker: "/auth/callback",
    pattern: new URLPattern({ pathname: "/auth/callback{/}?" }),
  },
  // `?borrado=<erasure id>` after a staff erasure.
  {
    marker: "/panel/solicitudes",
    pattern: new URLPattern({ pathname: "/panel/solicitudes{/}?" }),
  },
];

/**
 * `path` with the secret of a {@linkcode SECRET_PATHS} address replaced by
 * {@linkcode REDACTED}; any other path as it is.
 */
export function redactPath(path: string): string {
  for (const { marker, pattern, keep } of SECRET_PATHS) {
    if (!path.includes(marker)) continue;
    const secret = pattern.exec({ pathname: path })?.pathname.groups.secret;
    if (secret === undefined || keep?.includes(secret)) continue;
    return `${path.slice(0, path.length - secret.length)}${REDACTED}`;
  }
  return path;
}

/** Whether a request to `path` carries a secret in its path or its query. */
export function isSecretUrl(path: string): boolean {
  return redactPath(path) !== path ||
    SECRET_QUERY_PATHS.some(({ marker, pattern }) =>
      path.includes(marker) && pattern.test({ pathname: path })
    );
}

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
 * passed without running a pattern, and a pattern is compiled the first
 * time a path carries its marker (compiling the five costs a start about
 * 5 ms before its first answer).
 */
const SECRET_PATHS: readonly SecretPath[] = [
  {
    marker: "/auth/personal/",
    pathname: `${LANG}/auth/personal/:secret(.+)`,
    keep: ["proveedor"],
  },
  {
    marker: "/mi-pasaporte/borrado/",
    pathname: `${LANG}/mi-pasaporte/borrado/:secret(.+)`,
  },
  {
    marker: "/api/turismo/erasures/",
    pathname: "/api/turismo/erasures/:secret(.+)",
  },
];

/** Paths whose query carries a secret (the request log never writes a query). */
const SECRET_QUERY_PATHS: readonly SecretPath[] = [
  { marker: "/auth/callback", pathname: "/auth/callback{/}?" },
  // `?borrado=<erasure id>` after a staff erasure.
  { marker: "/panel/solicitudes", pathname: "/panel/solicitudes{/}?" },
];

interface SecretPath {
  marker: string;
  /** A `URLPattern` pathname. */
  pathname: string;
  keep?: string[];
}

const patterns = new Map<string, URLPattern>();

function getPattern({ pathname }: SecretPath): URLPattern {
  let pattern = patterns.get(pathname);
  if (!pattern) patterns.set(pathname, pattern = new URLPattern({ pathname }));
  return pattern;
}

/**
 * `path` with the secret of a {@linkcode SECRET_PATHS} address replaced by
 * {@linkcode REDACTED}; any other path as it is.
 */
export function redactPath(path: string): string {
  for (const secretPath of SECRET_PATHS) {
    const { marker, keep } = secretPath;
    if (!path.includes(marker)) continue;
    const secret = getPattern(secretPath).exec({ pathname: path })?.pathname
      .groups.secret;
    if (secret === undefined || keep?.includes(secret)) continue;
    return `${path.slice(0, path.length - secret.length)}${REDACTED}`;
  }
  return path;
}

/** Whether a request to `path` carries a secret in its path or its query. */
export function isSecretUrl(path: string): boolean {
  return redactPath(path) !== path ||
    SECRET_QUERY_PATHS.some((secretPath) =>
      path.includes(secretPath.marker) &&
      getPattern(secretPath).test({ pathname: path })
    );
}

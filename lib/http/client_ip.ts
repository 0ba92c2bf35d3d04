import type { Context } from "hono";

/**
 * The client's IP address for limits and budgets. Without trusted proxies,
 * the connection's address. Behind `trustedHops` proxies of the operator's
 * own, the `X-Forwarded-For` entry that many from the right: each proxy
 * appends the address it saw, so the rightmost entries are the proxies'
 * words and the ones to their left are the client's own (anything at all).
 * Only a valid IPv4 or IPv6 literal counts; anything else falls back to the
 * connection's address, so no header content reaches a KV key unchecked.
 * IPv6 addresses are reduced to their /64, which is what one subscriber
 * usually holds.
 */
export function getClientIp(c: Context, trustedHops: number): string {
  return getRequestIp(c.req.raw, c.env, trustedHops);
}

/**
 * {@linkcode getClientIp} of a request as `Deno.serve` hands it over, with
 * its `info` (the connection's address), before any context exists.
 */
export function getRequestIp(
  request: Request,
  info: unknown,
  trustedHops: number,
): string {
  let ip: string | undefined;
  if (trustedHops > 0) {
    const entries = request.headers.get("x-forwarded-for")?.split(",");
    if (entries) {
      ip = parseIpLiteral(entries[Math.max(0, entries.length - trustedHops)]);
    }
  }
  if (!ip) {
    // What Deno.serve passed with the request (hono/deno's getConnInfo reads
    // the same); app.request() in tests has none.
    const connection = info as
      | Partial<Deno.ServeHandlerInfo<Deno.NetAddr>>
      | undefined;
    ip = parseIpLiteral(connection?.remoteAddr?.hostname);
  }
  return ip ? toRateLimitSubject(ip) : "unknown";
}

/**
 * An IP literal as proxies write it (`203.0.113.7`, `2001:db8::1`, with an
 * optional `:port` or `[v6]:port`), or `undefined` for anything else.
 */
export function parseIpLiteral(value: string | undefined): string | undefined {
  const entry = value?.trim();
  if (!entry || entry.length > 64) return undefined;
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) {
    return getIpVersion(bracketed[1]) === 6 ? bracketed[1] : undefined;
  }
  if (getIpVersion(entry)) return entry;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return withPort && getIpVersion(withPort[1]) === 4 ? withPort[1] : undefined;
}

/**
 * 4 or 6 for a valid IPv4 (dotted quad, no leading zeros) or IPv6 literal,
 * else 0, as node:net's `isIP` says; written here because importing
 * node:net would load Deno's Node layer with the first page. IPv6 is left
 * to the URL parser (RFC 4291 text forms, IPv4-embedded included), after a
 * check that only hex digits, colons and dots are there (the parser would
 * skip tabs and newlines).
 */
export function getIpVersion(value: string): 0 | 4 | 6 {
  if (IPV4.test(value)) return 4;
  if (!value.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(value)) return 0;
  return URL.canParse(`http://[${value}]/`) ? 6 : 0;
}

const IPV4_PART = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)";
const IPV4 = new RegExp(`^${IPV4_PART}(?:\\.${IPV4_PART}){3}$`);

/** Reduces an IPv6 address to its /64 prefix; IPv4 stays as it is. */
export function toRateLimitSubject(ip: string): string {
  if (!ip.includes(":")) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const [head, tail = ""] = ip.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const groups = [
    ...headParts,
    ...Array(Math.max(0, missing)).fill("0"),
    ...tailParts,
  ];
  return `${
    groups.slice(0, 4).map((g) => parseInt(g || "0", 16).toString(16)).join(":")
  }::/64`;
}

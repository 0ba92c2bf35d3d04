import type { Context } from "hono";
import { getConnInfo } from "hono/deno";
import { isIP } from "node:net";

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
  let ip: string | undefined;
  if (trustedHops > 0) {
    const entries = c.req.header("x-forwarded-for")?.split(",");
    if (entries) {
      ip = parseIpLiteral(entries[Math.max(0, entries.length - trustedHops)]);
    }
  }
  if (!ip) {
    try {
      ip = parseIpLiteral(getConnInfo(c).remote.address);
    } catch {
      // app.request() in tests has no connection.
    }
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
  if (bracketed) return isIP(bracketed[1]) === 6 ? bracketed[1] : undefined;
  if (isIP(entry)) return entry;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return withPort && isIP(withPort[1]) === 4 ? withPort[1] : undefined;
}

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

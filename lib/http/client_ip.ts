import type { Context } from "hono";
import { getConnInfo } from "hono/deno";

/**
 * The client's IP address: the connection's, or the first `X-Forwarded-For`
 * entry when a trusted proxy sets it. IPv6 addresses are reduced to their /64,
 * which is what one subscriber usually holds.
 */
export function getClientIp(c: Context, trustProxy: boolean): string {
  let ip: string | undefined;
  if (trustProxy) ip = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
  if (!ip) {
    try {
      ip = getConnInfo(c).remote.address;
    } catch {
      // app.request() in tests has no connection.
    }
  }
  return ip ? toRateLimitSubject(ip) : "unknown";
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

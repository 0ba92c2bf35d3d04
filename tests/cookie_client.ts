/**
 * A small browser stand-in for HTTP tests: `fetch` with `redirect: "manual"`
 * and a cookie jar. Like a browser, it keys cookies by host name only (not
 * port), honours `Max-Age=0` and `Expires`, and sends them back by path.
 */
export class CookieClient {
  #jar = new Map<string, { value: string; path: string }>();

  /** The value of a cookie in the jar. */
  cookie(name: string): string | undefined {
    return this.#jar.get(name)?.value;
  }

  /** Puts a cookie in the jar by hand (a planted or tampered cookie). */
  setCookie(name: string, value: string): void {
    this.#jar.set(name, { value, path: "/" });
  }

  deleteCookie(name: string): void {
    this.#jar.delete(name);
  }

  /** One request, no redirect followed; cookies sent and stored. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = [...this.#jar].filter(([, c]) =>
      target.pathname.startsWith(c.path)
    ).map(([name, c]) => `${name}=${c.value}`);
    if (cookies.length > 0 && !headers.has("cookie")) {
      headers.set("cookie", cookies.join("; "));
    }
    const res = await fetch(target, { ...init, headers, redirect: "manual" });
    this.store(res);
    return res;
  }

  /**
   * Follows redirects (as a browser does: 303 and 302 become GET) until an
   * answer that is not a redirect, or one to an address `stopAt` accepts.
   * Returns the last response and the address it came from.
   */
  async follow(
    url: string | URL,
    { stopAt, init }: {
      stopAt?: (url: URL) => boolean;
      init?: RequestInit;
    } = {},
  ): Promise<{ res: Response; url: URL }> {
    let current = new URL(url);
    let res = await this.fetch(current, init);
    for (let hops = 0; hops < 20; hops++) {
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) break;
      await res.body?.cancel();
      const next = new URL(location, current);
      if (stopAt?.(next)) return { res, url: next };
      current = next;
      res = await this.fetch(current);
    }
    return { res, url: current };
  }

  /** Stores a response's cookies. */
  store(res: Response): void {
    for (const header of res.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";").map((s) => s.trim());
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const attr = new Map(attributes.map((a) => {
        const [k, ...v] = a.split("=");
        return [k.toLowerCase(), v.join("=")] as const;
      }));
      const expired = attr.get("max-age") === "0" ||
        (attr.has("expires") && Date.parse(attr.get("expires")!) < Date.now());
      if (expired || value === "") this.#jar.delete(name);
      else this.#jar.set(name, { value, path: attr.get("path") || "/" });
    }
  }
}

/** A `Set-Cookie` header's name, value and attributes, for assertions. */
export function parseSetCookie(header: string): {
  name: string;
  value: string;
  attributes: Map<string, string>;
} {
  const [pair, ...attributes] = header.split(";").map((s) => s.trim());
  const index = pair.indexOf("=");
  return {
    name: pair.slice(0, index),
    value: pair.slice(index + 1),
    attributes: new Map(attributes.map((a) => {
      const [k, ...v] = a.split("=");
      return [k.toLowerCase(), v.join("=")] as const;
    })),
  };
}

import type { MiddlewareHandler } from "hono";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { getLangMeta, type Lang } from "@/lib/i18n/catalogue.ts";
import { apiMessage, HttpError } from "@/lib/errors/mod.ts";
import { isApiPath } from "./security_headers.ts";

/** A route as the app lists it (`app.routes`). */
export interface RouteEntry {
  method: string;
  path: string;
}

/** The order methods are listed in `Allow`. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/**
 * A method the path does not take: 405 with `Allow`, `{error, details}` (the
 * error funnel answers `{reply}` under /api/chat).
 */
export class MethodNotAllowedError extends HttpError {
  override name = "MethodNotAllowedError";
  constructor(method: string, path: string, allowed: readonly string[]) {
    const usable = (lang: Lang) =>
      orList(allowed.filter((m) => m !== "OPTIONS"), lang);
    super(
      405,
      apiMessage("error.405"),
      apiMessage("details.methodNotAllowed", {
        path,
        method,
        allowed: usable,
      }),
      {
        reply: apiMessage("details.methodNotAllowedReply", {
          allowed: usable,
        }),
      },
    );
    this.headers = { Allow: allowed.join(", ") };
  }

  /** Read by the error funnel. */
  readonly headers: Record<string, string>;
}

/**
 * Answers 405 with `Allow` when a guarded path exists in the route table for
 * other methods only, and the app's 404 when it does not exist at all, both
 * before any body is read (a body sent to no route is not judged: no 415). HEAD counts as GET (Hono answers it from the GET route). OPTIONS
 * always goes on: under /api the CORS middleware answers the preflight
 * before this runs, so `Allow` lists OPTIONS there (`preflight`).
 *
 * The route table is read at request time (routes are added after the
 * middleware) and matched with Hono's own router, rebuilt when routes were
 * added (a built router takes no more). Only method-specific routes count: `app.use` middleware (and
 * `app.all`, which no guarded path uses) are registered as `ALL`.
 */
export function allowedMethodsOnly(
  routes: () => readonly RouteEntry[],
  {
    paths,
    preflight = isApiPath,
  }: {
    /** Which paths are guarded. */
    paths: (path: string) => boolean;
    /** Whether OPTIONS is answered on the path (a CORS preflight). */
    preflight?: (path: string) => boolean;
  },
): MiddlewareHandler {
  let table: RouteTable | undefined;
  return async function allowedMethodsOnly(c, next) {
    const path = c.req.path;
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    if (method === "OPTIONS" || !paths(path)) return await next();
    const all = routes();
    if (table?.size !== all.length) table = new RouteTable(all);
    if (table.has(method, path)) return await next();
    const allowed = table.methodsOf(path);
    if (allowed.length === 0) return c.notFound();
    if (preflight(path)) allowed.push("OPTIONS");
    throw new MethodNotAllowedError(c.req.method, path, allowed);
  };
}

/** The method-specific routes, matched as Hono matches them. */
class RouteTable {
  readonly size: number;
  // Hono's default router: the same matching as the app's, one regular
  // expression per method (about 0.2 µs a request).
  readonly #router = new SmartRouter<string>({
    routers: [new RegExpRouter(), new TrieRouter()],
  });
  readonly #methods: string[];

  constructor(routes: readonly RouteEntry[]) {
    this.size = routes.length;
    const methods = new Set<string>();
    for (const { method, path } of routes) {
      const upper = method.toUpperCase();
      if (upper === "ALL") continue;
      methods.add(upper);
      this.#router.add(upper, path, upper);
    }
    this.#methods = [...methods];
  }

  has(method: string, path: string): boolean {
    return this.#router.match(method, path)[0].length > 0;
  }

  /** The methods `path` takes, in the usual order; HEAD wherever GET is. */
  methodsOf(path: string): string[] {
    const found = new Set(this.#methods.filter((m) => this.has(m, path)));
    if (found.has("GET")) found.add("HEAD");
    const rank = (m: string) => {
      const i = METHOD_ORDER.indexOf(m);
      return i === -1 ? METHOD_ORDER.length : i;
    };
    return [...found].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }
}

/** `["GET", "HEAD"]` → `GET o HEAD` (English: `GET or HEAD`). */
function orList(items: readonly string[], lang: Lang): string {
  return new Intl.ListFormat(getLangMeta(lang).intlLocale, {
    type: "disjunction",
  }).format(items);
}

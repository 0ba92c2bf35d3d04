import type { MiddlewareHandler } from "hono";
import { isLang } from "@/lib/i18n/catalogue.ts";
import type { AppEnv } from "@/lib/http/router.ts";

/**
 * The language the chat widget asked in: the body's `lang` when it is one
 * of the portal's languages (anything else is ignored, like a bad
 * location), else `Accept-Language`'s preference, else Spanish. Put on the
 * context as `apiLang` before the rate limit runs, so the chat's error
 * replies (`{reply}`: 429, 502, 503...) are in that language too. The body
 * was read and parsed by `jsonBody`, which Hono caches: no second read.
 * Handlers read the language with `getApiLang(c)` (lib/http/api_lang.ts).
 */
export function chatLanguage(): MiddlewareHandler<AppEnv> {
  return async function chatLanguage(c, next) {
    let named: unknown;
    try {
      named = ((await c.req.json()) as { lang?: unknown } | null)?.lang;
    } catch {
      named = undefined; // jsonBody has answered a body that does not parse
    }
    if (typeof named === "string" && isLang(named)) c.set("apiLang", named);
    await next();
  };
}

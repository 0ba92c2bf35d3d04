import type { Context, MiddlewareHandler } from "hono";
import { DEFAULT_LANG, type Lang } from "@/lib/i18n/catalogue.ts";
import { splitLangPath } from "@/lib/i18n/paths.ts";
import type { AppEnv } from "./router.ts";

/** The language of the page being answered (the default language's on an API path). */
export function getLang(c: Context<AppEnv>): Lang {
  return c.get("lang") ?? DEFAULT_LANG;
}

/**
 * Puts the language of the request's path on the context (`/en/...` is
 * English, any other path the default language's), for `getLang(c)`: the
 * pages, the 404 page and the share cards read it.
 */
export function setPageLang(): MiddlewareHandler<AppEnv> {
  return async function setPageLang(c, next) {
    c.set("lang", splitLangPath(c.req.path).lang);
    await next();
  };
}

import type { Context } from "hono";
import { DEFAULT_LANG, type Lang } from "@/lib/i18n/catalogue.ts";
import { negotiateLang } from "@/lib/i18n/negotiate.ts";
import type { AppEnv } from "./router.ts";
import { isApiPath } from "./security_headers.ts";

/**
 * The language of a JSON answer's texts (`{error, details}`, the chat's
 * `{reply}`). On `/api/*` (whose paths have no language) it is the one the
 * request named itself (the chat's `lang`, put on the context as `apiLang`),
 * else the one `Accept-Language` prefers among the portal's languages, else
 * Spanish: so a client that sends nothing keeps the contract's Spanish.
 * Elsewhere it is the page's language, from its path.
 */
export function getApiLang(c: Context): Lang {
  // Any app's context: the error funnel also serves sub-apps built without
  // AppEnv, whose variables are then simply unset.
  const vars = c as Context<AppEnv>;
  const named = vars.get("apiLang");
  if (named) return named;
  if (isApiPath(c.req.path)) {
    return negotiateLang(c.req.header("accept-language"));
  }
  return vars.get("lang") ?? DEFAULT_LANG;
}

import type { AppDeps } from "@/deps.ts";
import {
  clearSessionCookie,
  readSessionCookie,
  signOut,
} from "@/lib/oauth/mod.ts";
import { renderAuthMessage, tAuth } from "@/routes/_shared/auth_message.tsx";
import { getLang } from "@/lib/http/mod.ts";
import { localizePath } from "@/lib/i18n/mod.ts";
import { createPageRouter } from "@/routes/_app.tsx";

/**
 * `POST /auth/signout`: ends the session. POST only and from the portal's
 * own pages (the cookie routes' cross-site check, mounted in app.ts), so
 * another site cannot sign a visitor out; a GET (a link, a prefetch) changes nothing. Under `/en`
 * its pages are English and it lands on the English home page.
 */
export default function signout(deps: AppDeps) {
  return createPageRouter(deps)
    .post("/", async (c) => {
      const lang = getLang(c);
      await signOut(deps, readSessionCookie(c, deps.config));
      clearSessionCookie(c, deps.config);
      c.header("Cache-Control", "no-store");
      // The device forgets the tourist's pages, queue and stamps: the
      // browser's caches and storage (the service worker's included), where
      // it honours this; client/offline.ts also clears them before sending.
      c.header("Clear-Site-Data", '"cache", "storage"');
      return c.redirect(localizePath(lang, "/"), 303);
    })
    .get("/", (c) => {
      const response = renderAuthMessage(c, deps, {
        status: 405,
        title: tAuth(getLang(c), "signOutHereTitle"),
        body: tAuth(getLang(c), "signOutHereBody"),
      });
      response.headers.set("Allow", "POST");
      return response;
    });
}

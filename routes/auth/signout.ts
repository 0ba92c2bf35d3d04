import type { AppDeps } from "@/deps.ts";
import {
  clearSessionCookie,
  isSameOriginRequest,
  readSessionCookie,
} from "@/lib/oauth/cookies.ts";
import { renderAuthMessage } from "./_message.tsx";
import { signOut } from "@/lib/oauth/sign_in.ts";
import { createPageRouter } from "@/routes/_app.tsx";

/**
 * `POST /auth/signout`: ends the session. POST only and from the portal's
 * own pages (Origin / Sec-Fetch-Site), so another site cannot sign a
 * visitor out; a GET (a link, a prefetch) changes nothing.
 */
export default function signout(deps: AppDeps) {
  return createPageRouter(deps)
    .post("/", async (c) => {
      if (!isSameOriginRequest(c, deps.config)) {
        return renderAuthMessage(c, deps, {
          status: 403,
          title: "No se cerró la sesión",
          body:
            "La solicitud no vino de este portal. Para cerrar tu sesión usa el botón «Cerrar sesión» de Mi pasaporte.",
        });
      }
      await signOut(deps, readSessionCookie(c, deps.config));
      clearSessionCookie(c, deps.config);
      c.header("Cache-Control", "no-store");
      return c.redirect("/", 303);
    })
    .get("/", (c) => {
      const response = renderAuthMessage(c, deps, {
        status: 405,
        title: "Cierra tu sesión desde el portal",
        body:
          "Para cerrar tu sesión usa el botón «Cerrar sesión» de Mi pasaporte.",
      });
      response.headers.set("Allow", "POST");
      return response;
    });
}

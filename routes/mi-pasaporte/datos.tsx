import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { AppDeps } from "@/deps.ts";
import { HttpError } from "@/lib/errors/mod.ts";
import { getLang, getPublicOrigin, readForm } from "@/lib/http/mod.ts";
import {
  clearSessionCookie,
  getTourist,
  requireTourist,
} from "@/lib/oauth/mod.ts";
import {
  changeRouteName,
  createExportDownload,
  exportPersonalData,
  getErasureStatus,
  requestErasure,
  runErasure,
} from "@/lib/personal_data/mod.ts";
import { ticketNameSchema } from "@/lib/tickets/schemas.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";
import { tPassport } from "@/routes/mi-pasaporte.tsx";
import { localizePath, tRich } from "@/lib/i18n/mod.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The passport's data controls, with the browser's session cookie (the
 * same actions as `/api/turismo/users/<id>/…` with a bearer token):
 * `GET /mi-pasaporte/datos.json` downloads everything held; `POST /nombre`
 * changes the name on the route page and card; `GET /borrar` asks for
 * confirmation and `POST /borrar` erases; `GET /borrado/<id>` tells whether
 * the erasure is done ("en proceso" until it is).
 */
export default function passportData(deps: AppDeps) {
  /** This page's message in the request's language, and a path in it. */
  const tr = (c: Context, key: string, values?: Record<string, string>) =>
    tPassport(getLang(c), key, values);
  const path = (c: Context, to: string) => localizePath(getLang(c), to);

  return createPageRouter(deps)
    .get("/datos.json", requireTourist(signedOutJson), async (c) => {
      const current = getTourist(c);
      const exported = await exportPersonalData(deps, {
        userId: current.userId,
        origin: getPublicOrigin(c, deps.config),
      });
      return createExportDownload(exported, deps.now());
    })
    .post("/nombre", requireTourist(signedOut), async (c) => {
      const current = getTourist(c);
      const form = await readForm(c);
      const parsed = ticketNameSchema.safeParse(
        typeof form.name === "string" ? form.name : "",
      );
      if (!parsed.success) {
        return message(c, 400, {
          title: tr(c, "badNameTitle"),
          body: tr(c, "badNameBody"),
        });
      }
      try {
        await changeRouteName(deps, {
          userId: current.userId,
          name: parsed.data,
        });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return message(c, error.status as ContentfulStatusCode, {
          title: tr(c, "nameFailedTitle"),
          body: tr(c, "nameFailedBody", {
            reason: error.describe(getLang(c)).error,
          }),
        });
      }
      return c.redirect(`${path(c, "/mi-pasaporte")}?aviso=nombre`, 303);
    })
    .get("/borrar", requireTourist(toPassport), (c) => {
      return page(c, {
        title: tr(c, "erase"),
        children: (
          <>
            <p class="lead">{tr(c, "eraseLead")}</p>
            <ul>
              <li>{tr(c, "eraseVisits")}</li>
              <li>{tr(c, "eraseBadges")}</li>
              <li>{tr(c, "eraseTicket")}</li>
              <li>{tr(c, "eraseRoute")}</li>
              <li>{tr(c, "eraseSessions")}</li>
            </ul>
            <p>
              {tRich(getLang(c), "page_passport.eraseCopy", {
                link: (chunks) => (
                  <a href={path(c, "/mi-pasaporte/datos.json")} download>
                    {chunks}
                  </a>
                ),
              })}
            </p>
            <form
              class="button-row"
              method="post"
              action={path(c, "/mi-pasaporte/borrar")}
            >
              <button class="button button--danger" type="submit">
                {tr(c, "eraseConfirm")}
              </button>
              <a class="button button--ghost" href={path(c, "/mi-pasaporte")}>
                {tr(c, "cancel")}
              </a>
            </form>
          </>
        ),
      });
    })
    .post("/borrar", requireTourist(signedOut), async (c) => {
      const current = getTourist(c);
      const requested = await requestErasure(deps, {
        userId: current.userId,
        origin: "tourist",
      });
      await runErasure(deps, requested.id, { waitForCaches: false });
      clearSessionCookie(c, deps.config);
      // As a sign-out: nothing of the passport stays on the device.
      c.header("Clear-Site-Data", '"cache", "storage"');
      return c.redirect(
        path(c, `/mi-pasaporte/borrado/${requested.id}`),
        303,
      );
    })
    .get("/borrado/:id", async (c) => {
      const id = c.req.param("id");
      const erasure = UUID.test(id) ? await getErasureStatus(deps, id) : null;
      if (!erasure) return c.notFound();
      const done = erasure.state === "done";
      return page(c, {
        title: tr(c, done ? "erasedTitle" : "erasingTitle"),
        children: done
          ? (
            <p class="lead" data-erasure-state="done">
              {tr(c, "erasedBody")}
            </p>
          )
          : (
            <>
              <p class="lead" data-erasure-state="pending">
                {tr(c, "erasingBody")}
              </p>
              <p>{tr(c, "erasingRetry")}</p>
              <p>
                <a
                  class="button"
                  href={path(c, `/mi-pasaporte/borrado/${erasure.id}`)}
                >
                  {tr(c, "erasingCheck")}
                </a>
              </p>
            </>
          ),
      });
    });

  function page(
    c: Context,
    { title, status, children }: {
      title: string;
      status?: ContentfulStatusCode;
      children: ComponentChildren;
    },
  ): Response {
    const response = renderPage(c, deps, {
      status,
      head: {
        title: `${title} · ${deps.data.current().data.branding.name}`,
        description: tr(c, "dataDescription"),
        url: path(c, "/mi-pasaporte"),
        image: null,
        robots: "noindex",
      },
      body: (
        <div class="container passport-page">
          <h1>{title}</h1>
          {children}
        </div>
      ),
    });
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  }

  function message(
    c: Context,
    status: ContentfulStatusCode,
    { title, body }: { title: string; body: string },
  ): Response {
    return page(c, {
      title,
      status,
      children: (
        <>
          <p class="lead">{body}</p>
          <p>
            <a class="button" href={path(c, "/mi-pasaporte")}>
              {tr(c, "back")}
            </a>
          </p>
        </>
      ),
    });
  }

  function signedOutJson(c: Context): Response {
    return c.json({
      error: tr(c, "signedOutError"),
      details: tr(c, "signedOutDownload"),
    }, 401);
  }

  function toPassport(c: Context): Response {
    return c.redirect(path(c, "/mi-pasaporte"), 303);
  }

  function signedOut(c: Context): Response {
    return message(c, 401, {
      title: tr(c, "signedOutError"),
      body: tr(c, "signedOutBody"),
    });
  }
}

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { AppDeps } from "@/deps.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import {
  clearSessionCookie,
  isSameOriginRequest,
  readSessionCookie,
} from "@/lib/oauth/cookies.ts";
import { getSignedInSession } from "@/lib/oauth/sign_in.ts";
import { changeRouteName } from "@/lib/personal_data/correct.ts";
import {
  getErasureStatus,
  requestErasure,
  runErasure,
} from "@/lib/personal_data/erase.ts";
import {
  exportPersonalData,
  getExportFileName,
} from "@/lib/personal_data/export.ts";
import { ticketNameSchema } from "@/lib/tickets/name.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

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
  const session = (c: Context) =>
    getSignedInSession(deps, readSessionCookie(c, deps.config));

  return createPageRouter(deps)
    .get("/datos.json", async (c) => {
      const current = await session(c);
      if (!current) {
        return c.json({
          error: "No has iniciado sesión",
          details:
            "Abre tu pasaporte en este navegador para descargar tus datos.",
        }, 401);
      }
      const exported = await exportPersonalData(deps, {
        userId: current.userId,
        origin: getPublicOrigin(c, deps.config),
      });
      return c.body(JSON.stringify(exported, null, 2), 200, {
        "Content-Type": "application/json; charset=UTF-8",
        "Content-Disposition": `attachment; filename="${
          getExportFileName(deps.now())
        }"`,
        "Cache-Control": "private, no-store",
      });
    })
    .post("/nombre", async (c) => {
      if (!isSameOriginRequest(c, deps.config)) return refuseCrossSite(c);
      const current = await session(c);
      if (!current) return signedOut(c);
      const form = await c.req.parseBody();
      const parsed = ticketNameSchema.safeParse(
        typeof form.name === "string" ? form.name : "",
      );
      if (!parsed.success) {
        return message(c, 400, {
          title: "Revisa el nombre",
          body:
            "Escribe el nombre que quieres que se vea en tu ruta, de 1 a 120 caracteres.",
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
          title: "No pudimos cambiar el nombre",
          body: `${error.message}. Inténtalo de nuevo en unos minutos.`,
        });
      }
      return c.redirect("/mi-pasaporte?aviso=nombre", 303);
    })
    .get("/borrar", async (c) => {
      const current = await session(c);
      if (!current) return c.redirect("/mi-pasaporte", 303);
      return page(c, {
        title: "Borrar mi pasaporte y mis datos",
        children: (
          <>
            <p class="lead">
              Vamos a borrar para siempre tu pasaporte y todo lo que guardamos
              de ti:
            </p>
            <ul>
              <li>tus visitas, calificaciones y notas;</li>
              <li>tus insignias y tu avance;</li>
              <li>
                tu boleto (nombre, correo y teléfono), también en el gestor de
                contenidos del municipio;
              </li>
              <li>
                tu página de ruta y su tarjeta: su enlace dejará de funcionar y
                su código no se podrá volver a usar;
              </li>
              <li>tus sesiones en todos tus dispositivos.</li>
            </ul>
            <p>
              No se puede deshacer. Si quieres conservar una copia,{" "}
              <a href="/mi-pasaporte/datos.json" download>
                descarga tus datos
              </a>{" "}
              antes.
            </p>
            <form method="post" action="/mi-pasaporte/borrar">
              <button class="button button--danger" type="submit">
                Sí, borrar mi pasaporte y mis datos
              </button>{" "}
              <a class="button button--ghost" href="/mi-pasaporte">Cancelar</a>
            </form>
          </>
        ),
      });
    })
    .post("/borrar", async (c) => {
      if (!isSameOriginRequest(c, deps.config)) return refuseCrossSite(c);
      const current = await session(c);
      if (!current) return signedOut(c);
      const requested = await requestErasure(deps, {
        userId: current.userId,
        origin: "tourist",
      });
      await runErasure(deps, requested.id, { waitForCaches: false });
      clearSessionCookie(c, deps.config);
      return c.redirect(`/mi-pasaporte/borrado/${requested.id}`, 303);
    })
    .get("/borrado/:id", async (c) => {
      const id = c.req.param("id");
      const erasure = UUID.test(id) ? await getErasureStatus(deps, id) : null;
      if (!erasure) return c.notFound();
      const done = erasure.state === "done";
      return page(c, {
        title: done ? "Listo: borramos tus datos" : "Borrado en proceso",
        children: done
          ? (
            <p class="lead" data-erasure-state="done">
              Borramos tu pasaporte, tus visitas, tus notas, tu boleto y tu
              página de ruta. No queda nada que te identifique.
            </p>
          )
          : (
            <>
              <p class="lead" data-erasure-state="pending">
                Tu solicitud está en proceso: ya nadie puede ver tu página de
                ruta ni tu tarjeta, y estamos terminando de borrar el resto.
              </p>
              <p>
                Si el gestor de contenidos del municipio no responde, lo
                volvemos a intentar solos hasta lograrlo. Puedes volver a esta
                página cuando quieras para ver si ya terminó.
              </p>
              <p>
                <a class="button" href={`/mi-pasaporte/borrado/${erasure.id}`}>
                  Ver si ya terminó
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
        description: "Tus datos en el pasaporte turístico.",
        url: "/mi-pasaporte",
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
            <a class="button" href="/mi-pasaporte">Volver a mi pasaporte</a>
          </p>
        </>
      ),
    });
  }

  function signedOut(c: Context): Response {
    return message(c, 401, {
      title: "No has iniciado sesión",
      body:
        "Abre tu pasaporte en el navegador donde lo usas para cambiar o borrar tus datos.",
    });
  }

  function refuseCrossSite(c: Context): Response {
    return message(c, 403, {
      title: "Solicitud rechazada",
      body: "Esta acción solo se puede hacer desde la página de tu pasaporte.",
    });
  }
}

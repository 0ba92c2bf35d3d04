import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { listNotesForModeration, moderateNote } from "@/lib/db/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

const PAGE_SIZE = 50;

/**
 * `/panel/notas[?antes=<cursor>]` (admins): tourists' notes, newest first,
 * each with Ocultar (gone from every public page, still in the tourist's
 * passport) or Mostrar. `POST /:visitId/ocultar` and `/:visitId/mostrar`
 * change it and come back here.
 */
export default function notesPage(deps: AppDeps) {
  // Back to the page of notes the button was on.
  const moderate = (hidden: boolean) => async (c: Context<AppEnv>) => {
    await moderateNote(deps, {
      visitId: c.req.param("visitId") ?? "",
      hidden,
      staff: getStaff(c),
    });
    const back = new URL(c.req.header("referer") ?? "/", "http://panel");
    return c.redirect(
      back.pathname === "/panel/notas"
        ? `/panel/notas${back.search}`
        : "/panel/notas",
      303,
    );
  };
  return createPanelRouter(deps)
    .use("*", requireAdmin())
    .get("/", async (c) => {
      const loaded = deps.data.current();
      const { timeZone } = loaded.data.municipality;
      const cursor = c.req.query("antes");
      const page = await listNotesForModeration(deps.kv, {
        limit: PAGE_SIZE,
        cursor,
      });
      return renderPanelPage(c, deps, {
        title: "Notas de los turistas",
        active: "notas",
        children: (
          <>
            <p class="lead">
              Lo que los turistas escriben al calificar su visita, de la más
              reciente a la más antigua. Una nota oculta desaparece de las
              páginas públicas (como la ruta del turista), pero la persona la
              sigue viendo en su pasaporte.
            </p>
            {page.values.length === 0
              ? <p>Todavía no hay notas.</p>
              : (
                <ul class="moderation-list">
                  {page.values.map((note) => (
                    <li
                      key={note.visitId}
                      class="panel"
                      data-visit-id={note.visitId}
                    >
                      <p>
                        <strong>
                          {loaded.attractionsBySlug.get(note.slug)?.name ??
                            note.slug}
                        </strong>{" "}
                        · {note.rating === null
                          ? "sin calificación"
                          : `${note.rating} de 5`} ·{" "}
                        <time dateTime={note.ratedAt}>
                          {formatDateTime(note.ratedAt, timeZone)}
                        </time>
                        {note.hiddenAt && (
                          <>
                            {" "}· <strong>Oculta</strong>
                          </>
                        )}
                      </p>
                      <blockquote>{note.notes}</blockquote>
                      <form
                        method="post"
                        action={`/panel/notas/${note.visitId}/${
                          note.hiddenAt ? "mostrar" : "ocultar"
                        }`}
                      >
                        <button class="button button--ghost" type="submit">
                          {note.hiddenAt ? "Mostrar" : "Ocultar"}
                        </button>
                      </form>
                    </li>
                  ))}
                </ul>
              )}
            {page.cursor && (
              <p>
                <a
                  class="button button--ghost"
                  href={`/panel/notas?antes=${encodeURIComponent(page.cursor)}`}
                >
                  Ver anteriores
                </a>
              </p>
            )}
          </>
        ),
      });
    })
    .post("/:visitId/ocultar", moderate(true))
    .post("/:visitId/mostrar", moderate(false));
}

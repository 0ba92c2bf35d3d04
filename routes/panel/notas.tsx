import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { listNotesForModeration, moderateNote } from "@/lib/db/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

const PAGE_SIZE = 50;

/** The page's words (`locales/<lang>/panel_notes.json`); the console is Spanish. */
function tr(key: string, values?: Record<string, string | number>): string {
  return t(DEFAULT_LANG, `panel_notes.${key}`, values);
}

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
        title: tr("title"),
        active: "notas",
        children: (
          <>
            <p class="lead">{tr("lead")}</p>
            {page.values.length === 0
              ? <p>{tr("none")}</p>
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
                          ? tr("unrated")
                          : tr("rating", { rating: note.rating })} ·{" "}
                        <time dateTime={note.ratedAt}>
                          {formatDateTime(note.ratedAt, timeZone)}
                        </time>
                        {note.hiddenAt && (
                          <>
                            {" "}· <strong>{tr("hidden")}</strong>
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
                          {tr(note.hiddenAt ? "show" : "hide")}
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
                  {tr("older")}
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

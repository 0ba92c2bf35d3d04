import type { AppDeps } from "@/deps.ts";
import {
  listQuestionGroups,
  type QuestionGroup,
  resolveQuestionGroup,
} from "@/lib/db/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { readForm } from "@/lib/http/mod.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** How long a question is kept, as the page says it (`LIFETIMES.unansweredQuestionMs` in lib/db/keys.ts). */
const KEPT_DAYS = 90;

/** The page's words (`locales/<lang>/panel_questions.json`); the console is Spanish. */
function tr(key: string, values?: Record<string, string | number>): string {
  return t(DEFAULT_LANG, `panel_questions.${key}`, values);
}

/**
 * `/panel/preguntas` (admins): what visitors asked the chat that the
 * portal's data could not answer, grouped by similar text, most asked
 * first, a page at a time (`?desde=` and `?resueltas=` carry each list's
 * cursor to its next page); `POST /resolver` (form field `grupo`) marks a
 * group resolved once the data set covers it, and it moves to the resolved
 * list.
 */
export default function questionsPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .use("*", requireAdmin())
    .get("/", async (c) => {
      const { timeZone } = deps.data.current().data.municipality;
      const now = deps.now();
      const [open, resolved] = await Promise.all([
        listQuestionGroups(deps.kv, {
          status: "open",
          now,
          cursor: c.req.query("desde"),
        }),
        listQuestionGroups(deps.kv, {
          status: "resolved",
          now,
          cursor: c.req.query("resueltas"),
        }),
      ]);
      const when = (iso: string) => (
        <time dateTime={iso}>{formatDateTime(iso, timeZone)}</time>
      );
      return renderPanelPage(c, deps, {
        title: tr("title"),
        active: "preguntas",
        children: (
          <>
            <p class="lead">{tr("lead", { days: KEPT_DAYS })}</p>
            <h2>{tr("open")}</h2>
            {open.values.length === 0 ? <p>{tr("noneOpen")}</p> : (
              <QuestionTable
                caption={tr("openCaption")}
                groups={open.values}
                when={when}
                action
              />
            )}
            {open.cursor && (
              <p>
                <a
                  href={`/panel/preguntas?${new URLSearchParams({
                    desde: open.cursor,
                  })}`}
                >
                  {tr("nextOpen")}
                </a>
              </p>
            )}
            <h2>{tr("resolved")}</h2>
            {resolved.values.length === 0
              ? <p>{tr("noneResolved")}</p>
              : (
                <QuestionTable
                  caption={tr("resolvedCaption")}
                  groups={resolved.values}
                  when={when}
                />
              )}
            {resolved.cursor && (
              <p>
                <a
                  href={`/panel/preguntas?${new URLSearchParams({
                    resueltas: resolved.cursor,
                  })}`}
                >
                  {tr("nextResolved")}
                </a>
              </p>
            )}
          </>
        ),
      });
    })
    .post("/resolver", async (c) => {
      const form = await readForm(c);
      const key = typeof form.grupo === "string" ? form.grupo : "";
      const done = key !== "" && await resolveQuestionGroup(deps.kv, {
        key,
        staff: getStaff(c),
        now: deps.now(),
      });
      if (!done) {
        throw new NotFoundError({
          key: "panel_questions.gone",
          values: { days: KEPT_DAYS },
        });
      }
      return c.redirect("/panel/preguntas", 303);
    });
}

function QuestionTable(
  { caption, groups, when, action = false }: {
    caption: string;
    groups: QuestionGroup[];
    when: (iso: string) => preact.JSX.Element;
    action?: boolean;
  },
) {
  return (
    <div class="table-scroll">
      <table class="panel-table">
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{tr("colQuestion")}</th>
            <th scope="col">{tr("colCount")}</th>
            <th scope="col">{tr("colLast")}</th>
            <th scope="col">{tr(action ? "colAction" : "colResolved")}</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <tr key={group.key}>
              <td>{group.text}</td>
              <td>{group.count}</td>
              <td>{when(group.lastAskedAt)}</td>
              <td>
                {action
                  ? (
                    <form method="post" action="/panel/preguntas/resolver">
                      <input type="hidden" name="grupo" value={group.key} />
                      <button class="button button--ghost" type="submit">
                        {tr("resolve")}
                      </button>
                    </form>
                  )
                  : when(group.resolvedAt!)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

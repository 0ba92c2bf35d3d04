import type { AppDeps } from "@/deps.ts";
import {
  listQuestionGroups,
  type QuestionGroup,
  resolveQuestionGroup,
} from "@/lib/db/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { readForm } from "@/lib/http/mod.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

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
        title: "Preguntas sin respuesta",
        active: "preguntas",
        children: (
          <>
            <p class="lead">
              Lo que los visitantes preguntaron al asistente y los datos del
              portal no respondían, agrupado por texto parecido. Se guarda solo
              la pregunta, con los datos personales ocultos (correos, teléfonos,
              CURP, RFC, INE, tarjetas, direcciones y nombres), 90 días. Cuando
              agregues el dato al catálogo, márcala como resuelta.
            </p>
            <h2>Pendientes</h2>
            {open.values.length === 0
              ? <p>No hay preguntas pendientes.</p>
              : (
                <QuestionTable
                  caption="Preguntas pendientes, de la más frecuente a la menos"
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
                  Siguientes pendientes
                </a>
              </p>
            )}
            <h2>Resueltas</h2>
            {resolved.values.length === 0
              ? <p>Todavía no hay preguntas resueltas.</p>
              : (
                <QuestionTable
                  caption="Preguntas resueltas"
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
                  Siguientes resueltas
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
        throw new NotFoundError(
          "Esa pregunta ya no está pendiente (ya se resolvió o pasaron 90 días).",
        );
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
            <th scope="col">Pregunta (la más reciente del grupo)</th>
            <th scope="col">Veces</th>
            <th scope="col">Última vez</th>
            <th scope="col">{action ? "Acción" : "Resuelta"}</th>
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
                        Marcar como resuelta
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

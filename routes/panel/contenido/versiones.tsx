import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import {
  ContentConflictError,
  ContentInvalidError,
  ContentVersionNotFoundError,
  describeVersion,
  getPublishedContent,
  revertTo,
} from "@/lib/content/mod.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { type AppEnv, readForm } from "@/lib/http/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "../_page.tsx";
import {
  describeVersionSource,
  ProblemList,
  redirectToVersion,
  trContent as tr,
} from "./_content.tsx";

/**
 * `/panel/contenido/versiones/:id`: one published version, every field it
 * changed (before and after; guide codes hidden); `POST /:id/restaurar`
 * (admins; `base`: the published version the page showed) publishes its
 * content again as a new version, audited.
 */
export default function versionPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .get("/:id", async (c) => await renderVersion(c, deps, c.req.param("id")))
    .post("/:id/restaurar", requireAdmin(), async (c) => {
      if (deps.contentSource !== "kv") {
        throw new NotFoundError({ key: "panel_content.noVersion" });
      }
      const form = await readForm(c);
      const versionId = c.req.param("id");
      try {
        const outcome = await revertTo(
          { ...deps, check: deps.checkContent },
          { versionId, staff: getStaff(c), expected: form.base || null },
        );
        return redirectToVersion(c, outcome);
      } catch (error) {
        if (error instanceof ContentVersionNotFoundError) {
          throw new NotFoundError({ key: "panel_content.noVersion" });
        }
        if (error instanceof ContentConflictError) {
          return await renderVersion(c, deps, versionId, {
            status: 409,
            problems: [tr("conflict")],
          });
        }
        if (error instanceof ContentInvalidError) {
          return await renderVersion(c, deps, versionId, {
            status: 409,
            problems: [tr("revertRefused"), ...error.problems],
          });
        }
        throw error;
      }
    });
}

async function renderVersion(
  c: Context<AppEnv>,
  deps: AppDeps,
  id: string,
  { status, problems }: {
    status?: ContentfulStatusCode;
    problems?: string[];
  } = {},
): Promise<Response> {
  const [described, published] = await Promise.all([
    describeVersion(deps.kv, id),
    getPublishedContent(deps.kv),
  ]);
  if (!described) throw new NotFoundError({ key: "panel_content.noVersion" });
  const { version, changes } = described;
  const { timeZone } = deps.data.current().data.municipality;
  const isCurrent = published?.version.id === version.id;
  return renderPanelPage(c, deps, {
    title: tr("version.title", { version: version.digest.slice(0, 12) }),
    active: "contenido",
    status,
    children: (
      <>
        <ProblemList problems={problems} />
        <p class="lead">
          {tr("version.lead", {
            when: formatDateTime(version.publishedAt, timeZone),
            who: describeVersionSource(version),
          })}
          {isCurrent && ` ${tr("version.isCurrent")}`}
        </p>
        <p>
          <a href="/panel/contenido">{tr("back")}</a>
        </p>
        {changes.length === 0
          ? <p>{tr("version.noChanges")}</p>
          : (
            <div class="table-scroll">
              <table class="panel-table content-diff">
                <caption>
                  {tr("version.caption", { count: changes.length })}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{tr("version.colField")}</th>
                    <th scope="col">{tr("version.colBefore")}</th>
                    <th scope="col">{tr("version.colAfter")}</th>
                  </tr>
                </thead>
                <tbody>
                  {changes.map((change) => (
                    <tr key={change.path}>
                      <th scope="row">
                        <code>{change.path}</code>
                      </th>
                      <td>
                        {change.before === undefined
                          ? "—"
                          : <del>{change.before}</del>}
                      </td>
                      <td>
                        {change.after === undefined
                          ? "—"
                          : <ins>{change.after}</ins>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        {!isCurrent && getStaff(c).role === "admin" &&
          deps.contentSource === "kv" && (
          <form
            method="post"
            action={`/panel/contenido/versiones/${
              encodeURIComponent(version.id)
            }/restaurar`}
          >
            <input
              type="hidden"
              name="base"
              value={published?.versionstamp ?? ""}
            />
            <p>{tr("version.revertLead")}</p>
            <button class="button" type="submit">
              {tr("version.revert")}
            </button>
          </form>
        )}
      </>
    ),
  });
}

import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import {
  ContentConflictError,
  ContentInvalidError,
  getContentSettings,
  getPublishedContent,
  listContentVersions,
  publishText,
  readPublishedText,
  setEditorsMayPublish,
} from "@/lib/content/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { type AppEnv, readForm } from "@/lib/http/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter, renderPanelPage } from "../_page.tsx";
import {
  describeVersionSource,
  redirectToVersion,
  trContent as tr,
  VersionTable,
} from "./_content.tsx";

/** The largest data set file the upload takes. */
const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

/**
 * `/panel/contenido`: the portal's content. Every staff member sees what is
 * published (when, by whom) and the history; admins download the data set
 * (`GET /turismo.json`, audited: it holds the guide codes) and publish a
 * data set file (`POST /publicar`, multipart `archivo` and `base`, the
 * version the form showed: a publish made meanwhile refuses it, 409).
 */
export default function contentPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .get("/", async (c) => await renderOverview(c, deps))
    .get("/turismo.json", requireAdmin(), async (c) => {
      const published = await readPublishedText(deps.kv);
      const text = published?.text ??
        JSON.stringify(deps.data.current().data, null, 2);
      return await sendStaffDownload(c, deps, {
        file: "turismo.json",
        type: "application/json; charset=utf-8",
        body: text,
        target: `turismo.json ${published?.version.id ?? "file"}`,
      });
    })
    .post("/ajustes", requireAdmin(), async (c) => {
      const form = await readForm(c);
      await setEditorsMayPublish(deps.kv, {
        allowed: form.editoresPublican === "on",
        staff: getStaff(c),
        at: deps.now(),
      });
      return c.redirect("/panel/contenido", 303);
    })
    .post(
      "/publicar",
      requireAdmin(),
      bodyLimit({
        maxSize: MAX_UPLOAD_BYTES,
        onError: (c) =>
          renderOverview(c, deps, {
            status: 413,
            problems: [tr("upload.tooLarge", { megabytes: 2 })],
          }),
      }),
      async (c) => {
        const body = await c.req.parseBody().catch(() => ({})) as Record<
          string,
          unknown
        >;
        if (deps.contentSource === "file") {
          return renderOverview(c, deps, {
            status: 409,
            problems: [tr("leadFile")],
          });
        }
        const file = body.archivo instanceof File ? body.archivo : undefined;
        const base = typeof body.base === "string" ? body.base : "";
        if (!file || file.size === 0) {
          return renderOverview(c, deps, {
            status: 400,
            problems: [tr("upload.noFile")],
          });
        }
        try {
          const outcome = await publishText(
            { ...deps, check: deps.checkContent },
            {
              text: await file.text(),
              source: "console",
              staff: getStaff(c),
              expected: base || null,
            },
          );
          return redirectToVersion(c, outcome);
        } catch (error) {
          if (error instanceof ContentInvalidError) {
            return renderOverview(c, deps, {
              status: 422,
              problems: error.problems,
            });
          }
          if (error instanceof ContentConflictError) {
            return renderOverview(c, deps, {
              status: 409,
              problems: [tr("upload.conflict", {
                when: error.current
                  ? formatDateTime(
                    error.current.publishedAt,
                    deps.data.current().data.municipality.timeZone,
                  )
                  : "",
                who: error.current?.by ?? "",
              })],
            });
          }
          throw error;
        }
      },
    );
}

async function renderOverview(
  c: Context<AppEnv>,
  deps: AppDeps,
  { status, problems }: {
    status?: ContentfulStatusCode;
    problems?: string[];
  } = {},
): Promise<Response> {
  const staff = getStaff(c);
  const { timeZone } = deps.data.current().data.municipality;
  const [published, versions, settings] = await Promise.all([
    getPublishedContent(deps.kv),
    listContentVersions(deps.kv, { limit: 30 }),
    getContentSettings(deps.kv),
  ]);
  const fileManaged = deps.contentSource === "file";
  return renderPanelPage(c, deps, {
    title: tr("title"),
    active: "contenido",
    status,
    children: (
      <>
        <p class="lead">
          {fileManaged ? tr("leadFile") : tr("lead")}
        </p>
        {published && !fileManaged && (
          <p>
            {tr("published", {
              version: published.version.digest.slice(0, 12),
              when: formatDateTime(published.version.publishedAt, timeZone),
              who: describeVersionSource(published.version),
            })}
          </p>
        )}
        {!fileManaged && staff.role !== "viewer" && (
          <p>
            <a class="button" href="/panel/contenido/editar">{tr("edit")}</a>
          </p>
        )}
        {!fileManaged && staff.role === "admin" && (
          <form
            method="post"
            action="/panel/contenido/ajustes"
            class="panel-form"
          >
            <h2>{tr("settings.title")}</h2>
            <label>
              <input
                type="checkbox"
                name="editoresPublican"
                checked={settings.editorsMayPublish}
              />{" "}
              {tr("settings.editorsPublish")}
            </label>
            <p>{tr("settings.lead")}</p>
            <button class="button button--ghost" type="submit">
              {tr("settings.save")}
            </button>
          </form>
        )}
        {!fileManaged && staff.role === "editor" && (
          <p>
            {settings.editorsMayPublish
              ? tr("settings.youPublish")
              : tr("settings.adminPublishes")}
          </p>
        )}
        {staff.role === "admin" && (
          <p>
            <a
              class="button button--ghost"
              href="/panel/contenido/turismo.json"
            >
              {tr("download")}
            </a>
          </p>
        )}
        {problems && problems.length > 0 && (
          <div class="form-error" role="alert" id="content-problems">
            <p>
              <strong>{tr("upload.refused")}</strong>
            </p>
            <ul>
              {problems.map((problem) => <li key={problem}>{problem}</li>)}
            </ul>
          </div>
        )}
        {!fileManaged && staff.role === "admin" && (
          <form
            method="post"
            action="/panel/contenido/publicar"
            enctype="multipart/form-data"
            class="panel-form"
          >
            <h2>{tr("upload.title")}</h2>
            <p>{tr("upload.lead")}</p>
            <input
              type="hidden"
              name="base"
              value={published?.versionstamp ?? ""}
            />
            <label for="content-file">{tr("upload.file")}</label>
            <input
              id="content-file"
              type="file"
              name="archivo"
              accept="application/json,.json"
              required
              aria-describedby={problems?.length
                ? "content-problems"
                : undefined}
            />
            <button class="button" type="submit">{tr("upload.submit")}</button>
          </form>
        )}
        <h2>{tr("history")}</h2>
        {fileManaged
          ? <p>{tr("historyFile")}</p>
          : versions.length === 0
          ? <p>{tr("historyNone")}</p>
          : (
            <VersionTable
              versions={versions}
              current={published?.version.id}
              timeZone={timeZone}
            />
          )}
      </>
    ),
  });
}

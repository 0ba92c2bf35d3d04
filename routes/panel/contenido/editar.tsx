import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import {
  type DraftEntry,
  getContentDraft,
  getContentSettings,
  getPublishedContent,
  listContentDrafts,
  readContentBody,
  saveContentDraft,
} from "@/lib/content/mod.ts";
import {
  ContentConflictError,
  deleteContentDraft,
  DraftConflictError,
} from "@/lib/content/mod.ts";
import {
  checkEditedItem,
  describeFields,
  EDITABLE_PARTS,
  type EditablePart,
  type FieldSpec,
  findItem,
  listItemKeys,
  readItemForm,
  replaceItem,
} from "@/lib/content/mod.ts";
import { diffContent, type FieldChange } from "@/lib/content/mod.ts";
import {
  ContentInvalidError,
  ItemPublishedMeanwhileError,
  publishDraft,
} from "@/lib/content/mod.ts";
import { markAsPreview, previewDataStore } from "@/lib/content/mod.ts";
import { ReplayedAnswers } from "@/lib/http/mod.ts";
import type { Hono } from "hono";
import {
  listMissingTranslations,
  type RawTourismData,
} from "@/lib/data/mod.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, getLangs } from "@/lib/i18n/mod.ts";
import { readForm } from "@/lib/http/mod.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { getStaff, StaffForbiddenError } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "../_page.tsx";
import { trContent as tr } from "./_content.tsx";
import { ItemForm } from "./_item_form.tsx";

/** The key in URLs of a part that is one object (the branding, the weather). */
const OBJECT_KEY = "-";

/**
 * `/panel/contenido/editar`: the editor. `GET /` lists every part and
 * item, the drafts and what lacks a translation; `GET /:part/:key` is one
 * item's form (Spanish beside each other language); `POST /:part/:key`
 * with `accion` `guardar` (a draft: refused, 409, when someone saved the
 * same item since the form was opened, `borrador` carrying the draft it
 * was opened on), `publicar` (saves, then publishes: admins) or
 * `descartar`; `GET /:part/:key/vista-previa?lang=` shows the public page
 * with the draft in place. Editing is for admins and editors; viewers read.
 */
export default function editorPage(
  deps: AppDeps,
  { buildApp }: {
    /** The portal's app (`createApp`), built for a preview on other deps. */
    buildApp: (deps: AppDeps) => Hono<AppEnv>;
  },
) {
  return createPanelRouter(deps)
    .use("*", async (c, next) => {
      if (getStaff(c).role === "viewer" || deps.contentSource !== "kv") {
        throw new StaffForbiddenError("role");
      }
      await next();
    })
    .get("/", async (c) => await renderIndex(c, deps))
    .get("/:part/:key", async (c) => {
      const target = await loadTarget(
        deps,
        c.req.param("part"),
        c.req.param("key"),
      );
      const draft = await getContentDraft(deps.kv, target.part, target.key);
      return renderEditor(c, deps, target, {
        canPublish: await mayPublish(deps, getStaff(c).role),
        item: draft?.draft.item ?? target.published,
        draft,
      });
    })
    .get("/:part/:key/vista-previa", async (c) => {
      const target = await loadTarget(
        deps,
        c.req.param("part"),
        c.req.param("key"),
      );
      const draft = await getContentDraft(deps.kv, target.part, target.key);
      const lang = getLangs().includes(c.req.query("lang") ?? "")
        ? c.req.query("lang")!
        : "es";
      const data = replaceItem(
        target.data,
        target.part,
        target.index,
        draft?.draft.item ?? target.published,
      );
      // The portal's own app on the draft, with nothing cached or replayed.
      const preview = buildApp({
        ...deps,
        data: await previewDataStore(data),
        pageCache: undefined,
        requestLog: undefined,
        ipBudget: undefined,
        replayedAnswers: new ReplayedAnswers({ maxEntries: 0 }),
      });
      const page = await preview.request(
        getPreviewPath(target.part, target.key, lang),
      );
      return await markAsPreview(page, tr("preview.band"));
    })
    .post("/:part/:key", async (c) => {
      const target = await loadTarget(
        deps,
        c.req.param("part"),
        c.req.param("key"),
      );
      const form = await readForm(c);
      const staff = getStaff(c);
      const action = form.accion;
      const draft = await getContentDraft(deps.kv, target.part, target.key);
      const url = `/panel/contenido/editar/${target.part}/${target.urlKey}`;
      if (action === "descartar") {
        if (draft) {
          await deleteContentDraft(
            deps.kv,
            target.part,
            target.key,
            draft.versionstamp,
          );
        }
        return c.redirect(`${url}?hecho=descartado`, 303);
      }
      if (action === "publicar" && !(await mayPublish(deps, staff.role))) {
        throw new StaffForbiddenError("role");
      }
      const langs = getLangs().filter((lang) => lang !== "es");
      const base = draft?.draft.item ?? target.published;
      const read = readItemForm(base, target.fields, form, langs);
      const problems = new Map<string, string[]>(
        read.problems.map((p) => [p.name, [p.message]]),
      );
      const checked = checkEditedItem(
        replaceItem(target.data, target.part, target.index, read.item),
        target.part,
        target.index,
      );
      for (const [name, messages] of checked.byField) {
        problems.set(name, [...(problems.get(name) ?? []), ...messages]);
      }
      if (problems.size > 0 || checked.other.length > 0) {
        return renderEditor(c, deps, target, {
          canPublish: await mayPublish(deps, getStaff(c).role),
          item: read.item,
          draft,
          status: 422,
          problems,
          otherProblems: checked.other,
          openedDraft: form.borrador ?? "",
        });
      }
      try {
        await saveContentDraft(deps.kv, {
          part: target.part,
          key: target.key,
          item: read.item,
          base: draft && form.borrador === draft.versionstamp
            ? draft.draft.base
            : target.published,
          by: staff.email || staff.id,
          savedAt: deps.now().toISOString(),
        }, form.borrador || null);
      } catch (error) {
        if (!(error instanceof DraftConflictError)) throw error;
        const theirs = error.current?.draft.item ?? target.published;
        return renderEditor(c, deps, target, {
          canPublish: await mayPublish(deps, getStaff(c).role),
          item: read.item,
          draft: error.current,
          status: 409,
          conflict: {
            by: error.current?.draft.by,
            changes: diffItems(target.part, target.published, theirs),
          },
          openedDraft: error.current?.versionstamp ?? "",
        });
      }
      if (action !== "publicar") {
        return c.redirect(`${url}?hecho=guardado`, 303);
      }
      try {
        await publishDraft(
          { ...deps, check: deps.checkContent },
          {
            part: target.part,
            key: target.key,
            staff,
            findIndex: (data) =>
              findItem(data, target.part, target.key)?.index ?? null,
          },
        );
      } catch (error) {
        if (error instanceof ItemPublishedMeanwhileError) {
          return renderEditor(c, deps, target, {
            canPublish: await mayPublish(deps, getStaff(c).role),
            item: read.item,
            draft: await getContentDraft(deps.kv, target.part, target.key),
            status: 409,
            conflict: { changes: error.changes, published: true },
          });
        }
        if (
          error instanceof ContentConflictError ||
          error instanceof ContentInvalidError
        ) {
          return renderEditor(c, deps, target, {
            canPublish: await mayPublish(deps, getStaff(c).role),
            item: read.item,
            draft: await getContentDraft(deps.kv, target.part, target.key),
            status: 409,
            otherProblems: error instanceof ContentInvalidError
              ? error.problems
              : [tr("conflict")],
          });
        }
        throw error;
      }
      return c.redirect(`${url}?hecho=publicado`, 303);
    });
}

/** Whether `role` publishes drafts: admins, and editors when an admin allows it. */
async function mayPublish(deps: AppDeps, role: string): Promise<boolean> {
  if (role === "admin") return true;
  return role === "editor" &&
    (await getContentSettings(deps.kv)).editorsMayPublish;
}

/** The item a URL names, in the published data set. */
interface Target {
  part: EditablePart;
  /** The draft's key ("" for an object part). */
  key: string;
  urlKey: string;
  index: number;
  data: RawTourismData;
  published: Record<string, unknown>;
  fields: FieldSpec[];
}

async function loadTarget(
  deps: AppDeps,
  partName: string,
  urlKey: string,
): Promise<Target> {
  const part = EDITABLE_PARTS.find((p) => p === partName);
  if (!part) throw new NotFoundError({ key: "panel_content.editor.noItem" });
  const data = await readPublishedData(deps);
  const key = urlKey === OBJECT_KEY ? "" : urlKey;
  const found = findItem(data, part, key);
  if (!found) throw new NotFoundError({ key: "panel_content.editor.noItem" });
  return {
    part,
    key,
    urlKey,
    index: found.index,
    data,
    published: found.item,
    fields: describeFields(part),
  };
}

/** The published data set, guide codes included (from KV; the file's before a first publish). */
async function readPublishedData(deps: AppDeps): Promise<RawTourismData> {
  const current = await getPublishedContent(deps.kv);
  const body = current &&
    await readContentBody<RawTourismData>(deps.kv, current.version);
  if (!body) throw new NotFoundError({ key: "panel_content.editor.noItem" });
  return body.data;
}

function diffItems(
  part: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): FieldChange[] {
  return diffContent(
    { [part]: before } as unknown as RawTourismData,
    { [part]: after } as unknown as RawTourismData,
  );
}

async function renderIndex(c: Context<AppEnv>, deps: AppDeps) {
  const data = await readPublishedData(deps);
  const drafts = await listContentDrafts(deps.kv);
  const { timeZone } = deps.data.current().data.municipality;
  // What lacks a translation once the drafts are published too.
  let drafted = data;
  for (const draft of drafts) {
    const found = findItem(drafted, draft.part as EditablePart, draft.key);
    if (found) {
      drafted = replaceItem(
        drafted,
        draft.part as EditablePart,
        found.index,
        draft.item,
      );
    }
  }
  const missing = listMissingTranslations(drafted, getLangs());
  return renderPanelPage(c, deps, {
    title: tr("editor.title"),
    active: "contenido",
    children: (
      <>
        <p class="lead">{tr("editor.lead")}</p>
        <p>
          <a href="/panel/contenido">{tr("back")}</a>
        </p>
        {drafts.length > 0 && (
          <section aria-labelledby="drafts-title">
            <h2 id="drafts-title">{tr("editor.drafts")}</h2>
            <ul>
              {drafts.map((draft) => (
                <li key={`${draft.part}/${draft.key}`}>
                  <a
                    href={`/panel/contenido/editar/${draft.part}/${
                      draft.key || OBJECT_KEY
                    }`}
                  >
                    {tr(`part.${draft.part}`)}: {draft.key || "—"}
                  </a>{" "}
                  ({tr("editor.draftBy", {
                    who: draft.by,
                    when: formatDateTime(draft.savedAt, timeZone),
                  })})
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="missing-title">
          <h2 id="missing-title">
            {tr("editor.missing", { count: missing.length })}
          </h2>
          {missing.length > 0 && (
            <ul class="content-missing">
              {missing.map((m) => {
                const [, part, key] = /^(\w+)(?:\[([^\]]+)\])?/.exec(m.path) ??
                  [];
                const link =
                  part && EDITABLE_PARTS.includes(part as EditablePart)
                    ? `/panel/contenido/editar/${part}/${
                      key && findItem(data, part as EditablePart, key)
                        ? encodeURIComponent(key)
                        : key
                        ? ""
                        : OBJECT_KEY
                    }`
                    : undefined;
                return (
                  <li key={`${m.lang}:${m.path}`}>
                    {link && !link.endsWith("/")
                      ? <a href={link}>{m.path}</a>
                      : m.path} ({m.lang}) —{" "}
                    <span class="content-tag">
                      {tr("editor.untranslated")}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        {EDITABLE_PARTS.map((part) => (
          <section key={part} aria-labelledby={`part-${part}`}>
            <h2 id={`part-${part}`}>{tr(`part.${part}`)}</h2>
            <ul>
              {listItemKeys(data, part).map(({ key, label }) => (
                <li key={key}>
                  <a
                    href={`/panel/contenido/editar/${part}/${
                      key === "" ? OBJECT_KEY : encodeURIComponent(key)
                    }`}
                  >
                    {label || tr(`part.${part}`)}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </>
    ),
  });
}

function renderEditor(
  c: Context<AppEnv>,
  deps: AppDeps,
  target: Target,
  options: {
    item: Record<string, unknown>;
    draft: DraftEntry | null;
    status?: ContentfulStatusCode;
    problems?: Map<string, string[]>;
    otherProblems?: string[];
    conflict?: { by?: string; changes: FieldChange[]; published?: boolean };
    openedDraft?: string;
    canPublish: boolean;
  },
): Response {
  const { timeZone } = deps.data.current().data.municipality;
  const label = listItemKeys(target.data, target.part).find((i) =>
    i.key === target.key
  )?.label;
  const done = c.req.query("hecho");
  return renderPanelPage(c, deps, {
    title: tr("editor.itemTitle", {
      part: tr(`part.${target.part}`),
      name: label || tr(`part.${target.part}`),
    }),
    active: "contenido",
    status: options.status,
    children: (
      <ItemForm
        action={`/panel/contenido/editar/${target.part}/${target.urlKey}`}
        fields={target.fields}
        item={options.item}
        published={target.published}
        langs={getLangs().filter((lang) => lang !== "es")}
        draft={options.draft}
        openedDraft={options.openedDraft ?? options.draft?.versionstamp ?? ""}
        problems={options.problems}
        otherProblems={options.otherProblems}
        conflict={options.conflict}
        canPublish={options.canPublish}
        done={done}
        timeZone={timeZone}
      />
    ),
  });
}

/** The public page that shows an item of `part`, in `lang`. */
function getPreviewPath(
  part: string,
  key: string,
  lang: string,
): string {
  const prefix = lang === DEFAULT_LANG ? "" : `/${lang}`;
  switch (part) {
    case "attractions":
      return `${prefix}/turismo/atractivos/${encodeURIComponent(key)}`;
    case "providers":
      return `${prefix}/turismo/servicios/${encodeURIComponent(key)}`;
    case "packages":
      return `${prefix}/turismo/servicios`;
    case "events":
      return `${prefix}/turismo/eventos`;
    case "routes":
    case "directions":
    case "weather":
    case "gastronomy":
    case "culture":
    case "emergency":
      return `${prefix}/turismo/informacion-practica`;
    case "privacy":
      return `${prefix}/aviso-de-privacidad`;
    default:
      return `${prefix}/`;
  }
}

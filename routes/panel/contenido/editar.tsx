import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import {
  checkNewSlug,
  ContentConflictError,
  ContentInvalidError,
  deleteContentDraft,
  type DraftEntry,
  EDITABLE_PARTS,
  type EditTarget,
  type FieldChange,
  findEditTarget,
  getContentDraft,
  getPublishedContent,
  listItemKeys,
  markAsPreview,
  mayPublish,
  previewDataStore,
  REMOVABLE_PARTS,
  type RemovablePart,
  removeItem,
  replaceItem,
  saveItemEdit,
} from "@/lib/content/mod.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import type { StoredPhoto } from "@/lib/photos/mod.ts";
import { DEFAULT_LANG, getLangs } from "@/lib/i18n/mod.ts";
import { type AppEnv, readForm, ReplayedAnswers } from "@/lib/http/mod.ts";
import { getStaff, StaffForbiddenError } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "../_page.tsx";
import {
  OBJECT_URL_KEY,
  redirectToVersion,
  trContent as tr,
} from "./_content.tsx";
import { RemoveItemConfirmation } from "./_remove_item.tsx";
import { renderEditorIndex } from "./_editor_index.tsx";
import { ItemForm } from "./_item_form.tsx";

/**
 * `/panel/contenido/editar`: the editor. `GET /` lists every part and
 * item, the drafts and what lacks a translation; `GET /:part/:key` is one
 * item's form (Spanish beside each other language; `-` is the key of a
 * part that is one object); `POST /:part/:key` with `accion` `guardar` (a
 * draft: 409 when someone saved the same item since the form was opened,
 * `borrador` carrying the draft it was opened on; 422 for a wrong value),
 * `publicar` (saves, then publishes: admins, and editors when allowed) or
 * `descartar`; `GET /:part/:key/vista-previa?lang=` is the public page with
 * the draft in place. For admins and editors; viewers read the history only.
 */
export default function editorPage(
  deps: AppDeps,
  { buildApp }: {
    /** The portal's app (`createApp`), built for a preview on other deps. */
    buildApp: (deps: AppDeps) => Hono<AppEnv>;
  },
) {
  const editDeps = { ...deps, check: deps.checkContent };
  return createPanelRouter(deps)
    .use("*", async (c, next) => {
      if (getStaff(c).role === "viewer" || deps.contentSource !== "kv") {
        throw new StaffForbiddenError("role");
      }
      await next();
    })
    .get("/", async (c) => await renderEditorIndex(c, deps))
    .post("/:part", async (c) => {
      // A new item: its slug first (pages and links hang on it), then its form.
      const part = EDITABLE_PARTS.find((p) => p === c.req.param("part"));
      if (!part) {
        throw new NotFoundError({ key: "panel_content.editor.noItem" });
      }
      const slug = ((await readForm(c)).slug ?? "").trim().toLowerCase();
      const refusal = await checkNewSlug(deps.kv, part, slug);
      if (refusal) {
        return await renderEditorIndex(c, deps, {
          status: 422,
          newItem: { part, slug, refusal },
        });
      }
      return c.redirect(
        `/panel/contenido/editar/${part}/${slug}?nuevo=1`,
        303,
      );
    })
    .get("/:part/:key", async (c) => {
      const target = await loadTarget(c, deps);
      const draft = await getContentDraft(deps.kv, target.part, target.key);
      return await renderEditor(c, deps, target, {
        item: draft?.draft.item ?? target.published,
        draft,
      });
    })
    .get("/:part/:key/vista-previa", async (c) => {
      const target = await loadTarget(c, deps);
      const draft = await getContentDraft(deps.kv, target.part, target.key);
      const asked = c.req.query("lang") ?? "";
      const lang = getLangs().includes(asked) ? asked : DEFAULT_LANG;
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
    .get("/:part/:key/quitar", async (c) => {
      const target = await loadRemovable(c, deps);
      return await renderRemoval(c, deps, target);
    })
    .post("/:part/:key/quitar", async (c) => {
      const target = await loadRemovable(c, deps);
      const form = await readForm(c);
      try {
        const outcome = await removeItem(editDeps, {
          part: target.part as RemovablePart,
          slug: target.key,
          staff: getStaff(c),
          expected: form.base || null,
        });
        return redirectToVersion(c, outcome);
      } catch (error) {
        if (error instanceof ContentConflictError) {
          return await renderRemoval(c, deps, target, {
            status: 409,
            problems: [tr("conflict")],
          });
        }
        if (error instanceof ContentInvalidError) {
          return await renderRemoval(c, deps, target, {
            status: 409,
            problems: [tr("remove.refused"), ...error.problems],
          });
        }
        throw error;
      }
    })
    .post("/:part/:key", async (c) => {
      const target = await loadTarget(c, deps);
      // The photo picker sends one `es:photos` per ticked photo.
      const form = await readForm(c, { repeated: true });
      if (form.fotoPrincipal) putPhotoFirst(form, form.fotoPrincipal);
      const staff = getStaff(c);
      const url = `/panel/contenido/editar/${target.part}/${
        c.req.param("key")
      }`;
      // A new item once saved is found by its draft, without ?nuevo=1.
      if (form.accion === "descartar") {
        const draft = await getContentDraft(deps.kv, target.part, target.key);
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
      const publish = form.accion === "publicar";
      if (publish && !(await mayPublish(deps.kv, staff.role))) {
        throw new StaffForbiddenError("role");
      }
      const outcome = await saveItemEdit(editDeps, {
        target,
        form,
        staff,
        langs: getLangs().filter((lang) => lang !== DEFAULT_LANG),
        publish,
      });
      switch (outcome.kind) {
        case "saved":
          return c.redirect(`${url}?hecho=guardado`, 303);
        case "published":
          return c.redirect(`${url}?hecho=publicado`, 303);
        case "invalid":
          return await renderEditor(c, deps, target, {
            ...outcome,
            status: 422,
            otherProblems: outcome.other,
            openedDraft: form.borrador ?? "",
          });
        case "saved_meanwhile":
          return await renderEditor(c, deps, target, {
            ...outcome,
            status: 409,
            conflict: { by: outcome.draft?.draft.by, changes: outcome.changes },
            openedDraft: outcome.draft?.versionstamp ?? "",
          });
        case "not_published":
          return await renderEditor(c, deps, target, {
            item: outcome.item,
            draft: outcome.draft,
            status: 409,
            conflict: outcome.changes
              ? { changes: outcome.changes, published: true }
              : undefined,
            otherProblems: outcome.changes
              ? undefined
              : outcome.problems ?? [tr("conflict")],
          });
      }
    });
}

/** The item the URL names, or the 404 the console shows. */
async function loadTarget(
  c: Context<AppEnv>,
  deps: AppDeps,
): Promise<EditTarget> {
  const key = c.req.param("key");
  const target = await findEditTarget(
    deps.kv,
    c.req.param("part") ?? "",
    key === OBJECT_URL_KEY ? "" : key ?? "",
    {
      allowNew: c.req.query("nuevo") === "1",
    },
  );
  if (!target) throw new NotFoundError({ key: "panel_content.editor.noItem" });
  return target;
}

/** A published item that may be removed, for someone who may publish; else the 404 or 403. */
async function loadRemovable(
  c: Context<AppEnv>,
  deps: AppDeps,
): Promise<EditTarget> {
  const target = await loadTarget(c, deps);
  if (target.isNew || !isRemovable(target.part)) {
    throw new NotFoundError({ key: "panel_content.editor.noItem" });
  }
  if (!(await mayPublish(deps.kv, getStaff(c).role))) {
    throw new StaffForbiddenError("role");
  }
  return target;
}

function isRemovable(part: string): boolean {
  return (REMOVABLE_PARTS as readonly string[]).includes(part);
}

async function renderRemoval(
  c: Context<AppEnv>,
  deps: AppDeps,
  target: EditTarget,
  options: { status?: ContentfulStatusCode; problems?: string[] } = {},
): Promise<Response> {
  const name =
    listItemKeys(target.data, target.part).find((i) => i.key === target.key)
      ?.label || target.key;
  const formUrl = `/panel/contenido/editar/${target.part}/${
    encodeURIComponent(target.key)
  }`;
  const published = await getPublishedContent(deps.kv);
  return renderPanelPage(c, deps, {
    title: tr("remove.title", { part: tr(`part.${target.part}`), name }),
    active: "contenido",
    status: options.status,
    children: (
      <RemoveItemConfirmation
        action={`${formUrl}/quitar`}
        formUrl={formUrl}
        name={name}
        base={published?.versionstamp ?? ""}
        problems={options.problems}
      />
    ),
  });
}

async function renderEditor(
  c: Context<AppEnv>,
  deps: AppDeps,
  target: EditTarget,
  options: {
    item: Record<string, unknown>;
    draft: DraftEntry | null;
    status?: ContentfulStatusCode;
    problems?: Map<string, string[]>;
    otherProblems?: string[];
    conflict?: { by?: string; changes: FieldChange[]; published?: boolean };
    openedDraft?: string;
  },
): Promise<Response> {
  const { timeZone } = deps.data.current().data.municipality;
  const label = listItemKeys(target.data, target.part).find((i) =>
    i.key === target.key
  )?.label;
  const photoLibrary = target.fields.some((f) => f.path.join(".") === "photos")
    ? await listPhotoChoices(deps, options.item)
    : undefined;
  return renderPanelPage(c, deps, {
    title: tr("editor.itemTitle", {
      part: tr(`part.${target.part}`),
      name: label || tr(`part.${target.part}`),
    }),
    active: "contenido",
    status: options.status,
    children: (
      <ItemForm
        action={`/panel/contenido/editar/${target.part}/${
          target.key === "" ? OBJECT_URL_KEY : encodeURIComponent(target.key)
        }${target.isNew ? "?nuevo=1" : ""}`}
        isNew={target.isNew}
        fields={target.fields}
        item={options.item}
        published={target.published}
        langs={getLangs().filter((lang) => lang !== DEFAULT_LANG)}
        draft={options.draft}
        openedDraft={options.openedDraft ?? options.draft?.versionstamp ?? ""}
        problems={options.problems}
        otherProblems={options.otherProblems}
        conflict={options.conflict}
        canPublish={await mayPublish(deps.kv, getStaff(c).role)}
        done={c.req.query("hecho")}
        timeZone={timeZone}
        photoLibrary={photoLibrary}
        removable={!target.isNew && isRemovable(target.part)}
      />
    ),
  });
}

/** The photo marked main goes first among the ticked ones (ticked, if it was not). */
function putPhotoFirst(form: Record<string, string>, photoId: string): void {
  const ids = (form["es:photos"] ?? "").split("\n").filter(Boolean);
  form["es:photos"] = [photoId, ...ids.filter((id) => id !== photoId)]
    .join("\n");
}

/** How many of the library's newest photos the picker offers besides the chosen ones. */
const PICKER_PHOTOS = 200;

/** The item's chosen photos the library holds, then its newest others. */
async function listPhotoChoices(
  deps: AppDeps,
  item: Record<string, unknown>,
): Promise<StoredPhoto[]> {
  const chosen = Array.isArray(item.photos)
    ? item.photos.filter((id): id is string => typeof id === "string")
    : [];
  const [held, newest] = await Promise.all([
    deps.photos.getPhotos(chosen),
    deps.photos.list({ limit: PICKER_PHOTOS }),
  ]);
  const heldIds = new Set(held.map((photo) => photo.id));
  return [...held, ...newest.values.filter((photo) => !heldIds.has(photo.id))];
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

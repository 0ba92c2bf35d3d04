import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import {
  EDITABLE_PARTS,
  type EditablePart,
  findItem,
  listContentDrafts,
  listItemKeys,
  readPublishedData,
  replaceItem,
  takesNewItems,
} from "@/lib/content/mod.ts";
import { listMissingTranslations } from "@/lib/data/mod.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { getLangs } from "@/lib/i18n/mod.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { renderPanelPage } from "../_page.tsx";
import { OBJECT_URL_KEY, trContent as tr } from "./_content.tsx";

/** `/panel/contenido/editar`: every part and item, the drafts, what lacks a translation. */
export async function renderEditorIndex(
  c: Context<AppEnv>,
  deps: AppDeps,
  { status, newItem }: {
    status?: ContentfulStatusCode;
    /** A new item's slug that was refused, and why. */
    newItem?: { part: string; slug: string; refusal: "invalid" | "taken" };
  } = {},
) {
  const data = await readPublishedData(deps.kv);
  if (!data) throw new NotFoundError({ key: "panel_content.editor.noItem" });
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
    status,
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
                      draft.key || OBJECT_URL_KEY
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
                        : OBJECT_URL_KEY
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
                      key === "" ? OBJECT_URL_KEY : encodeURIComponent(key)
                    }`}
                  >
                    {label || tr(`part.${part}`)}
                  </a>
                </li>
              ))}
            </ul>
            {takesNewItems(part) && (
              <form
                method="post"
                action={`/panel/contenido/editar/${part}`}
                class="content-new"
              >
                <label for={`nuevo-${part}`}>{tr("editor.newSlug")}</label>
                <input
                  id={`nuevo-${part}`}
                  name="slug"
                  required
                  pattern="[a-z0-9]+(-[a-z0-9]+)*"
                  value={newItem?.part === part ? newItem.slug : undefined}
                  aria-invalid={newItem?.part === part ? "true" : undefined}
                  aria-describedby={newItem?.part === part
                    ? `nuevo-${part}-error`
                    : `nuevo-${part}-hint`}
                />
                <span class="content-form__hint" id={`nuevo-${part}-hint`}>
                  {tr("editor.newSlugHint")}
                </span>
                {newItem?.part === part && (
                  <span class="field-error" id={`nuevo-${part}-error`}>
                    {tr(`editor.newSlug.${newItem.refusal}`)}
                  </span>
                )}
                <button class="button button--ghost" type="submit">
                  {tr("editor.add", { part: tr(`part.${part}`) })}
                </button>
              </form>
            )}
          </section>
        ))}
      </>
    ),
  });
}

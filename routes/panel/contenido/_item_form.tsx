import type { DraftEntry } from "@/lib/content/mod.ts";
import type { FieldChange } from "@/lib/content/mod.ts";
import {
  type FieldSpec,
  formValue,
  inputName,
  listUntranslated,
} from "@/lib/content/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { getLangMeta } from "@/lib/i18n/mod.ts";
import type { StoredPhoto } from "@/lib/photos/mod.ts";
import { trContent as tr } from "./_content.tsx";
import { PhotoPicker } from "./_photo_picker.tsx";

/** One item's form: each field's Spanish value with its translations beside it, errors under each field. */
export function ItemForm(
  props: {
    action: string;
    fields: FieldSpec[];
    item: Record<string, unknown>;
    published: Record<string, unknown>;
    langs: string[];
    draft: DraftEntry | null;
    openedDraft: string;
    problems?: Map<string, string[]>;
    otherProblems?: string[];
    conflict?: { by?: string; changes: FieldChange[]; published?: boolean };
    canPublish: boolean;
    done?: string;
    timeZone: string;
    /** An item not published yet. */
    isNew?: boolean;
    /** For a part with photos: the item's chosen photos and the library's newest. */
    photoLibrary?: StoredPhoto[];
    /** A published event, route, package or provider: it may be taken off the portal. */
    removable?: boolean;
  },
) {
  const { fields, item, langs, problems } = props;
  const untranslated = new Set(
    langs.flatMap((lang) =>
      listUntranslated(item, fields, lang).map((f) => inputName(f, lang))
    ),
  );
  const previewBase = `${props.action}/vista-previa`;
  return (
    <>
      <p>
        <a href="/panel/contenido/editar">{tr("editor.backToList")}</a>
      </p>
      {props.done && (
        <p class="form-success" role="status">
          {tr(`editor.done.${props.done}`)}
        </p>
      )}
      {props.isNew && !props.draft && <p class="notice">{tr("editor.isNew")}
      </p>}
      {props.draft
        ? (
          <p class="notice">
            {tr("editor.hasDraft", {
              who: props.draft.draft.by,
              when: formatDateTime(props.draft.draft.savedAt, props.timeZone),
            })} {[
              "es",
              ...props.langs,
            ].map((lang) => (
              <a
                key={lang}
                class="button button--ghost"
                href={`${previewBase}?lang=${lang}`}
                target="_blank"
              >
                {tr("editor.preview", { lang: getLangMeta(lang).name })}
              </a>
            ))}
          </p>
        )
        : !props.isNew && <p>{tr("editor.noDraft")}</p>}
      {props.conflict && (
        <div class="form-error" role="alert" id="content-conflict">
          <p>
            <strong>
              {props.conflict.published
                ? tr("editor.conflictPublished")
                : tr("editor.conflictSaved", {
                  who: props.conflict.by ?? "—",
                })}
            </strong>
          </p>
          {props.conflict.changes.length > 0 && (
            <ul>
              {props.conflict.changes.map((change) => (
                <li key={change.path}>
                  <code>{change.path.replace(/^[a-z]+\./, "")}</code>:{" "}
                  {change.before ?? "—"} → {change.after ?? "—"}
                </li>
              ))}
            </ul>
          )}
          <p>{tr("editor.conflictKept")}</p>
        </div>
      )}
      {props.otherProblems && props.otherProblems.length > 0 && (
        <div class="form-error" role="alert">
          <ul>
            {props.otherProblems.map((p) => <li key={p}>{p}</li>)}
          </ul>
        </div>
      )}
      {problems && problems.size > 0 && (
        <p class="form-error" role="alert">
          {tr("editor.fixFields", { count: problems.size })}
        </p>
      )}
      <form method="post" action={props.action} class="content-form" noValidate>
        <input type="hidden" name="borrador" value={props.openedDraft} />
        <div class="content-form__head" aria-hidden="true">
          <span>{tr("editor.field")}</span>
          <span>{getLangMeta("es").name}</span>
          {langs.map((lang) => <span key={lang}>{getLangMeta(lang).name}
          </span>)}
        </div>
        {fields.map((field) => {
          const id = `campo-${field.path.join("-")}`;
          const isPhotos = props.photoLibrary !== undefined &&
            field.path.join(".") === "photos";
          return (
            <div
              class={`content-form__row${
                isPhotos ? " content-form__row--wide" : ""
              }`}
              key={id}
            >
              <span class="content-form__label" id={`${id}-label`}>
                {describeField(field)}
                {!field.optional && field.input !== "boolean" && (
                  <span class="content-form__required">
                    {" "}
                    {tr("editor.required")}
                  </span>
                )}
              </span>
              {isPhotos
                ? (
                  <PhotoPicker
                    name={inputName(field, "es")}
                    labelId={`${id}-label`}
                    chosen={(item.photos as string[] | undefined) ?? []}
                    library={props.photoLibrary!}
                    errorId={`${id}-es-error`}
                    errors={problems?.get(inputName(field, "es"))}
                  />
                )
                : (
                  <FieldInput
                    field={field}
                    lang="es"
                    id={`${id}-es`}
                    labelId={`${id}-label`}
                    value={formValue(item, field, "es")}
                    errors={problems?.get(inputName(field, "es"))}
                  />
                )}
              {!isPhotos && langs.map((lang) =>
                field.translated
                  ? (
                    <FieldInput
                      key={lang}
                      field={field}
                      lang={lang}
                      id={`${id}-${lang}`}
                      labelId={`${id}-label`}
                      value={formValue(item, field, lang)}
                      errors={problems?.get(inputName(field, lang))}
                      missing={untranslated.has(inputName(field, lang))}
                    />
                  )
                  : (
                    <span key={lang} class="content-form__same">
                      {tr("editor.sameInAll")}
                    </span>
                  )
              )}
            </div>
          );
        })}
        <div class="content-form__actions">
          <button class="button" type="submit" name="accion" value="guardar">
            {tr("editor.save")}
          </button>
          {props.canPublish && (
            <button
              class="button"
              type="submit"
              name="accion"
              value="publicar"
            >
              {tr("editor.publish")}
            </button>
          )}
          {props.draft && (
            <button
              class="button button--ghost"
              type="submit"
              name="accion"
              value="descartar"
              formNoValidate
            >
              {tr("editor.discard")}
            </button>
          )}
        </div>
        {!props.canPublish && <p>{tr("editor.askToPublish")}</p>}
      </form>
      {props.removable && props.canPublish && (
        <p class="content-remove">
          <a href={`${props.action}/quitar`}>{tr("remove.link")}</a>
        </p>
      )}
    </>
  );
}

/** A field's name in words (`Costo › niño › monto (MXN)`), its key where the catalogue has none. */
function describeField(field: FieldSpec): string {
  return field.path.map((name) => {
    try {
      return tr(`field.${name}`);
    } catch {
      return name; // a field the catalogue does not name yet
    }
  }).join(" › ");
}

function FieldInput(
  { field, lang, id, labelId, value, errors, missing = false }: {
    field: FieldSpec;
    lang: string;
    id: string;
    labelId: string;
    value: string;
    errors?: string[];
    missing?: boolean;
  },
) {
  const name = inputName(field, lang);
  const errorId = `${id}-error`;
  const missingId = `${id}-missing`;
  const describedBy = [errors && errorId, missing && missingId].filter(Boolean)
    .join(" ") || undefined;
  const common = {
    id,
    name,
    lang,
    "aria-labelledby": `${labelId} ${id}-lang`,
    "aria-describedby": describedBy,
    "aria-invalid": errors ? ("true" as const) : undefined,
  };
  let input;
  switch (field.input) {
    case "longtext":
    case "lines":
    case "json":
      input = (
        <textarea {...common} rows={field.input === "json" ? 6 : 4}>
          {value}
        </textarea>
      );
      break;
    case "number":
      input = (
        <input {...common} type="text" inputMode="decimal" value={value} />
      );
      break;
    case "boolean":
      input = <input {...common} type="checkbox" checked={value === "on"} />;
      break;
    case "tristate":
      input = (
        <select {...common}>
          <option value="">{tr("editor.unknown")}</option>
          <option value="true" selected={value === "true"}>
            {tr("editor.yes")}
          </option>
          <option value="false" selected={value === "false"}>
            {tr("editor.no")}
          </option>
        </select>
      );
      break;
    case "enum":
      input = (
        <select {...common}>
          {field.optional && <option value="">—</option>}
          {field.options!.map((option) => (
            <option key={option} value={option} selected={option === value}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    default:
      input = <input {...common} type="text" value={value} />;
  }
  return (
    <span class="content-form__cell">
      <span class="sr-only" id={`${id}-lang`}>{getLangMeta(lang).name}</span>
      {input}
      {field.input === "lines" && (
        <span class="content-form__hint">{tr("editor.onePerLine")}</span>
      )}
      {missing && (
        <span class="content-tag" id={missingId}>
          {tr("editor.untranslated")}
        </span>
      )}
      {errors && (
        <span class="field-error" id={errorId}>{errors.join(" · ")}</span>
      )}
    </span>
  );
}

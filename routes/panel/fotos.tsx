import { bodyLimit } from "hono/body-limit";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import { sayApiText } from "@/lib/errors/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import {
  ALT_MAX,
  CREDIT_MAX,
  findPhotoUses,
  MAX_PHOTO_BYTES,
  type PhotoField,
  photoSources,
  PhotoUploadError,
  type PhotoUse,
  type StoredPhoto,
} from "@/lib/photos/mod.ts";
import { getStaff, StaffForbiddenError } from "@/lib/staff/mod.ts";
import { PhotoUses } from "@/components/PhotoUses.tsx";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** The page's words (`locales/<lang>/panel_photos.json`); the console is Spanish. */
function tr(key: string, values?: Record<string, string | number>): string {
  return t(DEFAULT_LANG, `panel_photos.${key}`, values);
}

const MEGABYTES = Math.round(MAX_PHOTO_BYTES / (1024 * 1024));

/**
 * `/panel/fotos`: the photo library. Every staff member sees it; admins
 * (not viewers: 403, nothing written) upload with `POST /` (multipart:
 * `archivo`, `altEs`, `altEn`, `credito`). A refusal is shown beside its
 * field with the 4xx status; a client asking for JSON gets `{error,
 * details, field, fields}`. Each photo says where the data set shows it;
 * an admin's row has its deletion (routes/panel/fotos/[id].tsx).
 */
export default function photosPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .get("/", async (c) => await renderLibrary(c, deps))
    .post(
      "/",
      async (c, next) => {
        if (getStaff(c).role === "viewer") {
          throw new StaffForbiddenError("role");
        }
        await next();
      },
      bodyLimit({
        maxSize: MAX_PHOTO_BYTES + 256 * 1024,
        onError: (c) =>
          answerRefusal(
            c,
            deps,
            new PhotoUploadError({
              archivo: {
                key: "panel_photos.refusal.too_large",
                values: { megabytes: MEGABYTES },
              },
            }, 413),
            {},
          ),
      }),
      async (c) => {
        let body: Record<string, string | File> = {};
        try {
          body = await c.req.parseBody() as Record<string, string | File>;
        } catch (error) {
          if (!(error instanceof TypeError)) throw error;
        }
        const text = (name: string) =>
          typeof body[name] === "string" ? body[name] as string : undefined;
        const file = body.archivo instanceof File ? body.archivo : undefined;
        const values = {
          altEs: text("altEs"),
          altEn: text("altEn"),
          credito: text("credito"),
        };
        try {
          const photo = await deps.photos.upload({
            file: file && {
              bytes: new Uint8Array(await file.arrayBuffer()),
              name: file.name,
              mediaType: file.type,
            },
            altEs: values.altEs,
            altEn: values.altEn,
            credit: values.credito,
            staff: getStaff(c),
          });
          if (wantsJson(c)) return c.json({ id: photo.id, photo }, 201);
          return c.redirect(
            `/panel/fotos?subida=${encodeURIComponent(photo.id)}`,
            303,
          );
        } catch (error) {
          if (!(error instanceof PhotoUploadError)) throw error;
          return answerRefusal(c, deps, error, values);
        }
      },
    );
}

function wantsJson(c: Context<AppEnv>): boolean {
  return (c.req.header("Accept") ?? "").includes("application/json");
}

function answerRefusal(
  c: Context<AppEnv>,
  deps: AppDeps,
  error: PhotoUploadError,
  values: Record<string, string | undefined>,
): Response | Promise<Response> {
  const fields = Object.fromEntries(
    Object.entries(error.fields).map((
      [field, message],
    ) => [field, sayApiText(message!, DEFAULT_LANG)]),
  );
  if (wantsJson(c)) {
    const { error: title, details } = error.describe(DEFAULT_LANG);
    return c.json({
      error: title,
      details,
      field: Object.keys(fields)[0],
      fields,
    }, error.status as ContentfulStatusCode);
  }
  return renderLibrary(c, deps, {
    status: error.status as ContentfulStatusCode,
    errors: fields as Partial<Record<PhotoField, string>>,
    values,
  });
}

async function renderLibrary(
  c: Context<AppEnv>,
  deps: AppDeps,
  form: {
    status?: ContentfulStatusCode;
    errors?: Partial<Record<PhotoField, string>>;
    values?: Record<string, string | undefined>;
  } = {},
): Promise<Response> {
  const page = await deps.photos.list({ cursor: c.req.query("desde") });
  const uploaded = c.req.query("subida");
  const deleted = c.req.query("borrada");
  const canUpload = getStaff(c).role !== "viewer";
  const { timeZone } = deps.data.current().data.municipality;
  const errors = form.errors ?? {};
  const field = (
    name: PhotoField,
    label: string,
    input: preact.JSX.Element,
    hint?: string,
  ) => (
    <div class="field">
      <label for={`foto-${name}`}>{label}</label>
      {hint && <p class="field-hint" id={`foto-${name}-hint`}>{hint}</p>}
      {input}
      {errors[name] && (
        <p class="field-error" id={`foto-${name}-error`} role="alert">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const described = (name: PhotoField, hint: boolean) =>
    [hint ? `foto-${name}-hint` : "", errors[name] ? `foto-${name}-error` : ""]
      .filter(Boolean).join(" ") || undefined;
  const textInput = (name: PhotoField, max: number) => (
    <input
      id={`foto-${name}`}
      name={name}
      type="text"
      maxLength={max}
      required
      value={form.values?.[name] ?? ""}
      aria-invalid={errors[name] ? "true" : undefined}
      aria-describedby={described(name, true)}
    />
  );
  return renderPanelPage(c, deps, {
    title: tr("title"),
    active: "fotos",
    status: form.status,
    children: (
      <>
        <p class="lead">{tr("lead")}</p>
        {uploaded && <p role="status">{tr("uploaded", { id: uploaded })}</p>}
        {deleted && <p role="status">{tr("deleted", { id: deleted })}</p>}
        <h2>{tr("uploadTitle")}</h2>
        {canUpload
          ? (
            <form
              method="post"
              action="/panel/fotos"
              enctype="multipart/form-data"
            >
              {Object.keys(errors).length > 0 && (
                <p class="field-error" role="alert">{tr("errorSummary")}</p>
              )}
              {field(
                "archivo",
                tr("fileLabel", { megabytes: MEGABYTES }),
                <input
                  id="foto-archivo"
                  name="archivo"
                  type="file"
                  accept="image/jpeg,image/png,image/webp"
                  required
                  aria-invalid={errors.archivo ? "true" : undefined}
                  aria-describedby={described("archivo", false)}
                />,
              )}
              {field(
                "altEs",
                tr("altEsLabel"),
                textInput("altEs", ALT_MAX),
                tr("altHint", { max: ALT_MAX }),
              )}
              {field(
                "altEn",
                tr("altEnLabel"),
                textInput("altEn", ALT_MAX),
                tr("altHint", { max: ALT_MAX }),
              )}
              {field(
                "credito",
                tr("creditLabel"),
                textInput("credito", CREDIT_MAX),
                tr("creditHint", { max: CREDIT_MAX }),
              )}
              <button class="button" type="submit">{tr("submit")}</button>
            </form>
          )
          : <p>{tr("viewerNote")}</p>}
        <h2>{tr("libraryTitle")}</h2>
        {page.values.length === 0 ? <p>{tr("none")}</p> : (
          <PhotoTable
            photos={page.values}
            timeZone={timeZone}
            uses={findPhotoUses(deps.data.current().data)}
            canDelete={canUpload}
          />
        )}
        {page.cursor && (
          <p>
            <a
              href={`/panel/fotos?${new URLSearchParams({
                desde: page.cursor,
              })}`}
            >
              {tr("next")}
            </a>
          </p>
        )}
      </>
    ),
  });
}

function PhotoTable(
  { photos, timeZone, uses, canDelete }: {
    photos: StoredPhoto[];
    timeZone: string;
    /** What shows each photo, by id (`findPhotoUses`). */
    uses: Map<string, PhotoUse[]>;
    /** Admins: a deletion button per row. */
    canDelete: boolean;
  },
) {
  return (
    <div class="table-scroll">
      <table class="panel-table">
        <caption class="sr-only">{tr("libraryTitle")}</caption>
        <thead>
          <tr>
            <th scope="col">{tr("colPhoto")}</th>
            <th scope="col">{tr("colId")}</th>
            <th scope="col">{tr("colAlt")}</th>
            <th scope="col">{tr("colCredit")}</th>
            <th scope="col">{tr("colSizes")}</th>
            <th scope="col">{tr("colUploaded")}</th>
            <th scope="col">{tr("colUses")}</th>
            {canDelete && <th scope="col">{tr("colActions")}</th>}
          </tr>
        </thead>
        <tbody>
          {photos.map((photo) => {
            const thumb = photo.renditions[0];
            const sources = photoSources(photo, DEFAULT_LANG);
            return (
              <tr key={photo.id}>
                <td>
                  <img
                    src={`/fotos/${photo.id}-${thumb.width}.webp`}
                    width={120}
                    height={Math.round(120 * thumb.height / thumb.width)}
                    alt={sources.alt}
                    loading="lazy"
                  />
                </td>
                <td>
                  <code>{photo.id}</code>
                </td>
                <td lang="es">
                  {photo.alt.es}
                  <br />
                  <span lang="en">{photo.alt.en}</span>
                </td>
                <td>{photo.credit}</td>
                <td>
                  {tr("sizes", {
                    widths: photo.renditions.map((r) => r.width).join(", "),
                  })}
                </td>
                <td>
                  {tr("uploadedBy", {
                    when: formatDateTime(photo.uploadedAt, timeZone),
                    who: photo.uploadedBy,
                  })}
                </td>
                <td>
                  <PhotoUses uses={uses.get(photo.id) ?? []} />
                </td>
                {canDelete && (
                  <td>
                    <form
                      method="post"
                      action={`/panel/fotos/${photo.id}/borrar/confirmar`}
                    >
                      <button class="button button--danger" type="submit">
                        {tr("delete")}
                        <span class="sr-only">
                          {` ${tr("deleteWhich", { id: photo.id })}`}
                        </span>
                      </button>
                    </form>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

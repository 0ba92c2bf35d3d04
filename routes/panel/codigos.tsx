import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { HttpError, NotFoundError } from "@/lib/errors/mod.ts";
import { type AppEnv, getPublicOrigin, readForm } from "@/lib/http/mod.ts";
import {
  type CurrentGuideCode,
  DEFAULT_GRACE_DAYS,
  GRACE_PERIOD_DAYS,
  LEAKED_REASON,
  listCurrentGuideCodes,
  listGuideCodeClashes,
  parseReplacementForm,
  replaceGuideCode,
} from "@/lib/passport/mod.ts";
import { attractionPosterSvg } from "@/lib/posters/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

const GRACE_LABEL: Record<number, string> = {
  7: "7 días",
  14: "14 días",
  30: "30 días (recomendado)",
};

/**
 * `/panel/codigos` (admins): each attraction's current guide code, its
 * replacement with a grace period for the old one (30 days unless chosen
 * otherwise; stopping it at once is a separate "it leaked" button), its
 * poster, and an alert when two attractions share a code.
 * `POST /:slug` replaces the code and shows the new one once;
 * `GET /:slug/cartel.svg` downloads the poster with the current code.
 */
export default function codesPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .use("*", requireAdmin())
    .get("/", (c) => renderCodes(c, deps, {}))
    .post("/:slug", async (c) => {
      const slug = c.req.param("slug");
      const form = await readForm(c);
      try {
        const { code } = await replaceGuideCode(deps, {
          slug,
          graceDays: parseReplacementForm(form),
          staff: getStaff(c),
        });
        return await renderCodes(c, deps, { replaced: { slug, code } });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return await renderCodes(c, deps, {
          error: { slug, message: error.details },
          status: error.status as ContentfulStatusCode,
        });
      }
    })
    .get("/:slug/cartel.svg", async (c) => {
      const slug = c.req.param("slug");
      const loaded = deps.data.current();
      const current = (await listCurrentGuideCodes(deps.kv, loaded, deps.now()))
        .find((a) => a.slug === slug);
      const svg = current &&
        attractionPosterSvg(loaded.data, {
          slug,
          code: current.code,
          baseUrl: getPublicOrigin(c, deps.config),
        });
      if (!svg) throw new NotFoundError("Ese atractivo no existe.");
      return c.body(svg, 200, {
        "Content-Type": "image/svg+xml; charset=utf-8",
        "Content-Disposition": `attachment; filename="cartel-${slug}.svg"`,
        "Cache-Control": "private, no-store",
      });
    });
}

async function renderCodes(
  c: Context<AppEnv>,
  deps: AppDeps,
  { replaced, error, status }: {
    replaced?: { slug: string; code: string };
    error?: { slug: string; message: string };
    status?: ContentfulStatusCode;
  },
): Promise<Response> {
  const loaded = deps.data.current();
  const { timeZone } = loaded.data.municipality;
  const codes = await listCurrentGuideCodes(deps.kv, loaded, deps.now());
  const clashes = await listGuideCodeClashes(deps.kv, loaded, deps.now());
  const nameOf = (slug: string) =>
    loaded.attractionsBySlug.get(slug)?.name ?? slug;
  return renderPanelPage(c, deps, {
    title: "Códigos de guía",
    active: "codigos",
    status,
    children: (
      <>
        {replaced && (
          <div class="notice notice--ok code-reveal" role="status">
            <p>
              Nuevo código de <strong>{nameOf(replaced.slug)}</strong>:
            </p>
            <p class="code-reveal__code" id="nuevo-codigo">{replaced.code}</p>
            <p>
              Cópialo ahora y cambia el cartel:{" "}
              <a href={`/panel/codigos/${replaced.slug}/cartel.svg`} download>
                descargar el cartel con el nuevo código (SVG)
              </a>.
            </p>
          </div>
        )}
        {error && (
          <p class="form-error" role="alert">
            {nameOf(error.slug)}: {error.message}
          </p>
        )}
        {clashes.map(({ dataSet, replaced }) => (
          <p class="form-error" role="alert" key={dataSet.slug}>
            <strong>{dataSet.name}</strong> y <strong>{replaced.name}</strong>
            {" "}
            comparten un código de guía: el de «{dataSet.name}» en el catálogo
            es {replaced.until === null
              ? "el código actual"
              : "el código anterior, aún vigente,"}{" "}
            de «{replaced.name}». Quien lo escriba registra la visita en
            «{replaced.name}». Reemplaza el código de «{replaced.name}» con «El
            código se filtró: anularlo ya», o cambia el de «{dataSet.name}» en
            el catálogo.
          </p>
        ))}
        <p class="lead">
          El código que cada atractivo muestra en su cartel. Al reemplazarlo, el
          anterior sigue sirviendo {DEFAULT_GRACE_DAYS}{" "}
          días (o el periodo que elijas), para que los carteles que aún están
          puestos no dejen de funcionar mientras cambias. Si el código se filtró
          (por ejemplo, en redes sociales), usa «El código se filtró: anularlo
          ya»: el anterior deja de servir al instante.
        </p>
        <div class="table-scroll">
          <table class="panel-table">
            <caption class="sr-only">Códigos de guía por atractivo</caption>
            <thead>
              <tr>
                <th scope="col">Atractivo</th>
                <th scope="col">Código actual</th>
                <th scope="col">Cambios</th>
                <th scope="col">Reemplazar</th>
              </tr>
            </thead>
            <tbody>
              {codes.map((a) => (
                <CodeRow key={a.slug} attraction={a} timeZone={timeZone} />
              ))}
            </tbody>
          </table>
        </div>
      </>
    ),
  });
}

function CodeRow(
  { attraction: a, timeZone }: {
    attraction: CurrentGuideCode;
    timeZone: string;
  },
) {
  const id = `gracia-${a.slug}`;
  return (
    <tr>
      <th scope="row">{a.name}</th>
      <td>
        <code class="guide-code" data-slug={a.slug}>{a.code}</code>
      </td>
      <td>
        {a.replaced
          ? (
            <>
              Reemplazado el {formatDateTime(a.replaced.setAt, timeZone)}
              {a.previous && (
                <>
                  ; el anterior, <code>{a.previous.code}</code>, sirve hasta el
                  {" "}
                  {formatDateTime(a.previous.until, timeZone)}
                </>
              )}
            </>
          )
          : "El del catálogo"}
        <br />
        <a href={`/panel/codigos/${a.slug}/cartel.svg`} download>
          Descargar cartel (SVG)
        </a>
      </td>
      <td>
        <form method="post" action={`/panel/codigos/${a.slug}`}>
          <label for={id}>Periodo de gracia del código anterior</label>{" "}
          <select id={id} name="gracia">
            {GRACE_PERIOD_DAYS.map((days) => (
              <option
                key={days}
                value={String(days)}
                selected={days === DEFAULT_GRACE_DAYS}
              >
                {GRACE_LABEL[days]}
              </option>
            ))}
          </select>{" "}
          <button
            class="button"
            type="submit"
            aria-label={`Reemplazar código de ${a.name}`}
          >
            Reemplazar código
          </button>{" "}
          <button
            class="button button--danger"
            type="submit"
            name="motivo"
            value={LEAKED_REASON}
            aria-label={`El código se filtró: anularlo ya (${a.name})`}
          >
            El código se filtró: anularlo ya
          </button>
        </form>
      </td>
    </tr>
  );
}

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import { Island } from "@/components/Island.tsx";
import CopyButton from "@/islands/CopyButton.tsx";
import { getLocalClockTime } from "@/lib/calendar/mod.ts";
import { formatDate, formatDateTime } from "@/lib/format/mod.ts";
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
import { getAssets } from "@/lib/pages/mod.ts";
import { attractionPosterSvg } from "@/lib/posters/mod.ts";
import {
  type AttractionCheckInView,
  listAttractionCheckIns,
} from "@/lib/check_in/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
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
 * `POST /:slug/confirmar` (the row's buttons) changes nothing: it asks to
 * confirm, saying when the posters on the walls stop working;
 * `POST /:slug` (the confirmation's button) replaces the code and shows
 * the new one once, large, with a copy button and the new poster;
 * `GET /:slug/cartel.svg` downloads the poster with the current code
 * (audited, as every staff download).
 */
export default function codesPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .use("*", requireAdmin())
    .get("/", (c) => renderCodes(c, deps, {}))
    .post("/:slug/confirmar", async (c) => {
      const slug = c.req.param("slug");
      const form = await readForm(c);
      try {
        return await renderConfirmation(c, deps, {
          slug,
          graceDays: parseReplacementForm(form),
        });
      } catch (error) {
        if (!(error instanceof HttpError) || error.status === 404) throw error;
        return await renderCodes(c, deps, {
          error: { slug, message: error.details },
          status: error.status as ContentfulStatusCode,
        });
      }
    })
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
      return await sendStaffDownload(c, deps, {
        file: `cartel-${slug}.svg`,
        type: "image/svg+xml; charset=utf-8",
        body: svg,
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
  const checkIns = await listAttractionCheckIns(
    deps.kv,
    loaded.data.attractions,
  );
  const nameOf = (slug: string) =>
    loaded.attractionsBySlug.get(slug)?.name ?? slug;
  return renderPanelPage(c, deps, {
    title: "Códigos de guía",
    active: "codigos",
    status,
    children: (
      <>
        {replaced && <CodeReveal name={nameOf(replaced.slug)} {...replaced} />}
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
                <CodeRow
                  key={a.slug}
                  attraction={a}
                  checkIn={checkIns.get(a.slug)}
                  timeZone={timeZone}
                />
              ))}
            </tbody>
          </table>
        </div>
      </>
    ),
  });
}

function CodeRow(
  { attraction: a, checkIn, timeZone }: {
    attraction: CurrentGuideCode;
    checkIn?: AttractionCheckInView;
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
        {checkIn && (
          <>
            <br />
            <a
              href={`/panel/atractivos/${a.slug}#registro`}
              data-check-in-method={checkIn.method}
            >
              Registro: {checkIn.methodText}
              {checkIn.method === "code" ? "" : ` (${checkIn.radiusM} m)`}
            </a>
          </>
        )}
      </td>
      <td>
        <form method="post" action={`/panel/codigos/${a.slug}/confirmar`}>
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

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The step between the row's button and the replacement: which attraction,
 * what stops working and when (in the municipality's time zone), a button
 * that posts the same choice to `POST /:slug`, and a cancel that changes
 * nothing.
 */
async function renderConfirmation(
  c: Context<AppEnv>,
  deps: AppDeps,
  { slug, graceDays }: { slug: string; graceDays: number },
): Promise<Response> {
  const loaded = deps.data.current();
  const { timeZone } = loaded.data.municipality;
  const now = deps.now();
  const current = (await listCurrentGuideCodes(deps.kv, loaded, now))
    .find((a) => a.slug === slug);
  if (!current) throw new NotFoundError("Ese atractivo no existe.");
  const isLeak = graceDays === 0;
  const until = new Date(now.getTime() + graceDays * DAY_MS);
  return renderPanelPage(c, deps, {
    title: isLeak
      ? `¿Anular ya el código de ${current.name}?`
      : `¿Reemplazar el código de ${current.name}?`,
    active: "codigos",
    children: (
      <section class="code-confirm" aria-label="Confirmación">
        <p class="lead">
          Se generará un código nuevo para{" "}
          <strong>{current.name}</strong>. El código actual es{" "}
          <code class="guide-code">{current.code}</code>.
        </p>
        <p class="code-confirm__consequence">
          {isLeak
            ? "Los carteles actuales dejan de funcionar en cuanto confirmes."
            : `Los carteles actuales dejan de funcionar el ${
              formatDate(until.toISOString(), timeZone)
            } a las ${getLocalClockTime(until, timeZone)}.`}
        </p>
        {current.previous && (
          <p>
            El código anterior,{" "}
            <code>{current.previous.code}</code>, que aún sirve hasta el{" "}
            {formatDateTime(current.previous.until, timeZone)}, deja de
            funcionar en cuanto confirmes.
          </p>
        )}
        <p>
          Después tendrás que imprimir el cartel nuevo y colocarlo en lugar del
          actual.
        </p>
        <form
          class="code-confirm__actions"
          method="post"
          action={`/panel/codigos/${slug}`}
        >
          {isLeak
            ? <input type="hidden" name="motivo" value={LEAKED_REASON} />
            : <input type="hidden" name="gracia" value={String(graceDays)} />}
          <button
            class={isLeak ? "button button--danger" : "button"}
            type="submit"
          >
            {isLeak ? "Sí, anular el código ya" : "Sí, reemplazar el código"}
          </button>{" "}
          <a class="button button--ghost" href="/panel/codigos">Cancelar</a>
        </form>
      </section>
    ),
  });
}

/**
 * The new code, once, right after the replacement: large and spaced to
 * read aloud, a copy button (an island: the console's one script, on this
 * answer only), and the attraction's new poster to print.
 */
function CodeReveal(
  { slug, code, name }: { slug: string; code: string; name: string },
) {
  const assets = getAssets();
  const poster = `/panel/codigos/${slug}/cartel.svg`;
  return (
    <section
      class="notice notice--ok code-reveal"
      aria-labelledby="nuevo-codigo-titulo"
    >
      <h2 id="nuevo-codigo-titulo" class="code-reveal__title">
        Nuevo código de {name}
      </h2>
      <p class="code-reveal__code" id="nuevo-codigo">{code}</p>
      <Island
        name="CopyButton"
        component={CopyButton}
        props={{ text: code, label: "Copiar código" }}
      />
      <p>
        Cópialo ahora: no se vuelve a mostrar. Imprime el cartel nuevo y
        cámbialo por el actual.
      </p>
      <p>
        <a class="button" href={poster} download={`cartel-${slug}.svg`}>
          Descargar el cartel para imprimir (SVG)
        </a>
      </p>
      <img
        class="code-reveal__poster"
        src={poster}
        alt={`Cartel de ${name} con el código nuevo`}
        width="240"
        height="339"
      />
      {assets && <script type="module" src={assets.client} />}
    </section>
  );
}

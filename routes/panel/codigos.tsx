import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppDeps } from "@/deps.ts";
import { Island } from "@/components/Island.tsx";
import CopyButton from "@/islands/CopyButton.tsx";
import { getLocalClockTime } from "@/lib/calendar/mod.ts";
import { acceptsPosition, getMethodWordsKey } from "@/lib/check_in/mod.ts";
import { formatDate, formatDateTime } from "@/lib/format/mod.ts";
import { HttpError, NotFoundError } from "@/lib/errors/mod.ts";
import { DEFAULT_LANG, t, tRich } from "@/lib/i18n/mod.ts";
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

/** The page's words (`locales/<lang>/panel_codes.json`); the console is Spanish. */
const LANG = DEFAULT_LANG;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `panel_codes.${key}`, values);
}

/** A message with markup: `<b>` bold, `<guide>` a guide code. */
function trRich(key: string, values: Record<string, string>) {
  return tRich(LANG, `panel_codes.${key}`, {
    ...values,
    b: (children) => <strong>{children}</strong>,
    guide: (children) => <code class="guide-code">{children}</code>,
  });
}

/**
 * `/panel/codigos` (admins): each attraction's current guide code, its
 * replacement with a grace period for the old one (30 days unless chosen
 * otherwise), its poster, and an alert when two attractions share a code.
 * `POST /:slug/confirmar` (the row's button) changes nothing: it asks to
 * confirm, saying when the posters on the walls stop working, and offers
 * inside the same step, folded, the leaked-code choice (no grace period: the
 * old code stops at once), never a button on every row;
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
      if (!svg) throw new NotFoundError({ key: "panel_codes.noPoster" });
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
    title: tr("title"),
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
            {trRich("clash", {
              dataSet: dataSet.name,
              replaced: replaced.name,
              isCurrent: replaced.until === null ? "yes" : "no",
            })}
          </p>
        ))}
        <p class="lead">{tr("lead", { days: DEFAULT_GRACE_DAYS })}</p>
        <div class="table-scroll">
          <table class="panel-table">
            <caption class="sr-only">{tr("caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{tr("colAttraction")}</th>
                <th scope="col">{tr("colCode")}</th>
                <th scope="col">{tr("colChanges")}</th>
                <th scope="col">{tr("colReplace")}</th>
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
              {tr("replacedAt", {
                when: formatDateTime(a.replaced.setAt, timeZone, LANG),
              })}
              {a.previous &&
                tr("previousUntil", {
                  code: a.previous.code,
                  until: formatDateTime(a.previous.until, timeZone, LANG),
                })}
            </>
          )
          : tr("fromCatalogue")}
        <br />
        <a href={`/panel/carteles.pdf?atractivo=${a.slug}`} download>
          {tr("downloadPosterPdf")}
        </a>{" "}
        <a href={`/panel/codigos/${a.slug}/cartel.svg`} download>
          {tr("downloadPoster")}
        </a>
        {checkIn && (
          <>
            <br />
            <a
              href={`/panel/atractivos/${a.slug}#registro`}
              data-check-in-method={checkIn.method}
            >
              {acceptsPosition(checkIn.method)
                ? tr("checkInRadius", {
                  method: t(LANG, getMethodWordsKey(checkIn.method)),
                  radius: checkIn.radiusM,
                })
                : tr("checkIn", {
                  method: t(LANG, getMethodWordsKey(checkIn.method)),
                })}
            </a>
          </>
        )}
      </td>
      <td>
        <form method="post" action={`/panel/codigos/${a.slug}/confirmar`}>
          <label for={id}>{tr("graceLabel")}</label>{" "}
          <select id={id} name="gracia">
            {GRACE_PERIOD_DAYS.map((days) => (
              <option
                key={days}
                value={String(days)}
                selected={days === DEFAULT_GRACE_DAYS}
              >
                {tr(
                  days === DEFAULT_GRACE_DAYS ? "graceRecommended" : "grace",
                  {
                    days,
                  },
                )}
              </option>
            ))}
          </select>{" "}
          <button
            class="button"
            type="submit"
            aria-label={tr("replaceButtonFor", { name: a.name })}
          >
            {tr("replaceButton")}
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
 * that posts the same choice to `POST /:slug`, a cancel that changes
 * nothing and, folded under "El código se filtró", the other way out: the
 * replacement with no grace period, posted from this step only.
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
  if (!current) throw new NotFoundError({ key: "panel_codes.noPoster" });
  const isLeak = graceDays === 0;
  const until = new Date(now.getTime() + graceDays * DAY_MS);
  return renderPanelPage(c, deps, {
    title: tr(isLeak ? "confirmLeakTitle" : "confirmReplaceTitle", {
      name: current.name,
    }),
    active: "codigos",
    children: (
      <section class="code-confirm" aria-label={tr("confirmRegion")}>
        <p class="lead">
          {trRich("confirmLead", { name: current.name, code: current.code })}
        </p>
        <p class="code-confirm__consequence">
          {isLeak ? tr("stopsNow") : tr("stopsAt", {
            date: formatDate(until.toISOString(), timeZone, LANG),
            time: getLocalClockTime(until, timeZone),
          })}
        </p>
        {current.previous && (
          <p>
            {trRich("previousStops", {
              code: current.previous.code,
              until: formatDateTime(current.previous.until, timeZone, LANG),
            })}
          </p>
        )}
        <p>{tr("printAfter")}</p>
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
            {tr(isLeak ? "confirmLeak" : "confirmReplace")}
          </button>{" "}
          <a class="button button--ghost" href="/panel/codigos">
            {tr("cancel")}
          </a>
        </form>
        {!isLeak && (
          <details class="code-leak">
            <summary>{tr("leakSummary")}</summary>
            <p>{tr("leakExplain")}</p>
            <form method="post" action={`/panel/codigos/${slug}`}>
              <input type="hidden" name="motivo" value={LEAKED_REASON} />
              <button class="button button--danger" type="submit">
                {tr("confirmLeak")}
              </button>
            </form>
          </details>
        )}
      </section>
    ),
  });
}

/**
 * The new code right after the replacement: large and spaced to read
 * aloud, a copy button (an island: the console's one script, on this
 * answer only), and the attraction's new poster to print. The table below
 * shows it too, as the current code, and the box says so.
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
        {tr("revealTitle", { name })}
      </h2>
      <p class="code-reveal__code" id="nuevo-codigo">{code}</p>
      <Island
        name="CopyButton"
        component={CopyButton}
        props={{
          text: code,
          label: tr("copyCode"),
          copied: t(LANG, "panel_frame.copied"),
          failed: t(LANG, "panel_frame.copyFailed"),
        }}
      />
      <p>{tr("revealNote", { name })}</p>
      <p>
        <a class="button" href={poster} download={`cartel-${slug}.svg`}>
          {tr("downloadPrint")}
        </a>
      </p>
      <img
        class="code-reveal__poster"
        src={poster}
        alt={tr("posterAlt", { name })}
        width="240"
        height="339"
      />
      {assets && <script type="module" src={assets.client} />}
    </section>
  );
}

import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { AppDeps } from "@/deps.ts";
import { getLocalClockTime, getLocalDate } from "@/lib/calendar/mod.ts";
import {
  closePartnerSession,
  getPartnerOfSession,
  listPrizeCounts,
  listPrizes,
  openPartnerSession,
  type Partner,
  type Prize,
  redeemPrizeClaim,
} from "@/lib/db/mod.ts";
import { HttpError } from "@/lib/errors/mod.ts";
import { formatDate, formatLongDate } from "@/lib/format/mod.ts";
import { getClientIp, getPublicOrigin, readForm } from "@/lib/http/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { hitPartnerPinLimit } from "@/lib/limits/mod.ts";
import { parseCounterCode } from "@/lib/prizes/mod.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import { renderStaffPage } from "@/routes/_shared/staff_page.tsx";

/**
 * `/socio`, a partner business's own page (issue 43): its staff sign in with
 * the PIN the tourism office gave, then type a tourist's counter code and
 * hear whether the prize is theirs to hand over. The staff workspace's
 * plain frame, never the console; Spanish, as the console. It shows the
 * prize, never who the tourist is.
 */

const LANG = DEFAULT_LANG;
const PATH = "/socio";
const SESSION_DAYS = 90;
const DAYS_SHOWN = 14;
const REQUEST_ID = /^[\w-]{8,64}$/;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `socio.${key}`, values);
}

/** `__Secure-socio` on https, `socio` on plain http (local development). */
function cookieOf(c: Context, deps: AppDeps) {
  const secure = getPublicOrigin(c, deps.config).startsWith("https:");
  return { secure, name: secure ? "__Secure-socio" : "socio" };
}

type Outcome =
  | { kind: "valid"; prize: Prize }
  | { kind: "already"; prize: Prize; redeemedAt: string }
  | { kind: "stale" | "unknown" | "bad" }
  | { kind: "refused"; details: string };

export default function socio(deps: AppDeps) {
  const timeZone = () => deps.data.current().data.municipality.timeZone;

  async function signedInPartner(c: Context): Promise<Partner | null> {
    const cookieId = getCookie(c, cookieOf(c, deps).name);
    if (!cookieId) return null;
    return await getPartnerOfSession(deps.kv, cookieId);
  }

  function page(
    c: Context,
    children: ComponentChildren,
    status: ContentfulStatusCode = 200,
  ): Response {
    return renderStaffPage(c, deps, {
      title: tr("signInHeading"),
      kicker: tr("title"),
      description: tr("description"),
      status,
      children: <div class="partner-page">{children}</div>,
    });
  }

  function signInPage(
    c: Context,
    { message, status }: { message?: string; status?: ContentfulStatusCode } =
      {},
  ): Response {
    return page(
      c,
      <section class="staff-card" aria-labelledby="partner-title">
        <h1 id="partner-title">{tr("signInHeading")}</h1>
        {message && <p class="notice notice--refused" role="alert">{message}
        </p>}
        <p class="lead">{tr("signInLead")}</p>
        <form method="post" action={`${PATH}/entrar`} class="partner-form">
          <label for="partner-pin">{tr("pinLabel")}</label>
          <input
            id="partner-pin"
            name="pin"
            class="partner-input"
            inputmode="numeric"
            autocomplete="off"
            pattern="[0-9 ]*"
            maxLength={12}
            required
          />
          <button class="button" type="submit">{tr("signInButton")}</button>
        </form>
      </section>,
      status,
    );
  }

  async function partnerPage(
    c: Context,
    partner: Partner,
    outcome?: Outcome,
    status: ContentfulStatusCode = 200,
  ): Promise<Response> {
    return page(
      c,
      <>
        <section class="staff-card" aria-labelledby="partner-title">
          <h1 id="partner-title">{partner.name}</h1>
          {outcome && <OutcomeBox outcome={outcome} timeZone={timeZone()} />}
          <form method="post" action={`${PATH}/canjear`} class="partner-form">
            <input type="hidden" name="solicitud" value={crypto.randomUUID()} />
            <label for="partner-code">{tr("codeLabel")}</label>
            <input
              id="partner-code"
              name="codigo"
              class="partner-input partner-input--code"
              autocomplete="off"
              autocapitalize="characters"
              spellcheck={false}
              inputmode="text"
              maxLength={16}
              aria-describedby="partner-code-hint"
              required
            />
            <p id="partner-code-hint" class="partner-hint">{tr("codeHint")}</p>
            <button class="button partner-button" type="submit">
              {tr("redeemButton")}
            </button>
          </form>
        </section>
        <Counts rows={await countsOf(partner)} />
        <form method="post" action={`${PATH}/salir`} class="partner-signout">
          <button class="button button--ghost" type="submit">
            {tr("signOut")}
          </button>
        </form>
      </>,
      status,
    );
  }

  /** The partner's redemptions of each of its prizes on each of the last days, newest first. */
  async function countsOf(partner: Partner) {
    const now = deps.now();
    const zone = timeZone();
    const to = getLocalDate(now, zone);
    const from = getLocalDate(
      new Date(now.getTime() - (DAYS_SHOWN - 1) * 86_400_000),
      zone,
    );
    const prizes = (await listPrizes(deps.kv)).filter((prize) =>
      prize.partnerId === partner.id
    );
    const ids = new Set(prizes.map((prize) => prize.id));
    const counts = (await listPrizeCounts(deps.kv, { from, to }))
      .filter((row) => ids.has(row.prizeId) && row.redeemed > 0);
    const days = [...new Set(counts.map((row) => row.day))].sort().reverse();
    const shown = prizes.filter((prize) =>
      counts.some((row) => row.prizeId === prize.id)
    );
    return {
      prizes: shown,
      days: days.map((day) => ({
        day,
        byPrize: shown.map((prize) =>
          counts.find((row) => row.day === day && row.prizeId === prize.id)
            ?.redeemed ?? 0
        ),
      })),
    };
  }

  return createPageRouter(deps)
    .get("/", async (c) => {
      c.header("Cache-Control", "no-store");
      const partner = await signedInPartner(c);
      if (partner) return await partnerPage(c, partner);
      const hadCookie = getCookie(c, cookieOf(c, deps).name) !== undefined;
      if (hadCookie) deleteCookie(c, cookieOf(c, deps).name, { path: PATH });
      return signInPage(c, {
        message: hadCookie || c.req.query("sesion") === "terminada"
          ? tr("sessionEnded")
          : undefined,
      });
    })
    .post("/entrar", async (c) => {
      c.header("Cache-Control", "no-store");
      const limit = await hitPartnerPinLimit(deps.kv, {
        clientIp: getClientIp(c, deps.config.trustedProxyHops),
        now: deps.now(),
      });
      if (!limit.allowed) {
        const seconds = Math.ceil(limit.retryAfterMs / 1000);
        c.header("Retry-After", String(seconds));
        return signInPage(c, {
          status: 429,
          message: tr("tooManyTries", { minutes: Math.ceil(seconds / 60) }),
        });
      }
      const form = await readForm(c);
      const opened = await openPartnerSession(deps.kv, {
        pin: form.pin ?? "",
        now: deps.now(),
      });
      if (!opened) {
        return signInPage(c, { status: 401, message: tr("wrongPin") });
      }
      const previous = getCookie(c, cookieOf(c, deps).name);
      if (previous) await closePartnerSession(deps.kv, previous);
      const { name, secure } = cookieOf(c, deps);
      setCookie(c, name, opened.cookieId, {
        path: PATH,
        httpOnly: true,
        secure,
        sameSite: "Lax",
        maxAge: SESSION_DAYS * 86_400,
      });
      return c.redirect(PATH, 303);
    })
    .post("/canjear", async (c) => {
      c.header("Cache-Control", "no-store");
      const partner = await signedInPartner(c);
      if (!partner) return c.redirect(`${PATH}?sesion=terminada`, 303);
      const form = await readForm(c);
      const code = parseCounterCode(form.codigo ?? "");
      if (!code) return await partnerPage(c, partner, { kind: "bad" }, 400);
      const requestId = REQUEST_ID.test(form.solicitud ?? "")
        ? form.solicitud
        : crypto.randomUUID();
      try {
        const result = await redeemPrizeClaim(deps.kv, {
          partnerId: partner.id,
          ...code,
          requestId,
          now: deps.now(),
          timeZone: timeZone(),
        });
        return await partnerPage(
          c,
          partner,
          result.status === "redeemed"
            ? { kind: "valid", prize: result.prize }
            : {
              kind: "already",
              prize: result.prize,
              redeemedAt: result.redeemedAt,
            },
        );
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const status = error.status as ContentfulStatusCode;
        const outcome: Outcome = error.status === 404
          ? { kind: "unknown" }
          : error.status === 422
          ? { kind: "stale" }
          : { kind: "refused", details: error.describe(LANG).details };
        return await partnerPage(c, partner, outcome, status);
      }
    })
    .post("/salir", async (c) => {
      const { name } = cookieOf(c, deps);
      const cookieId = getCookie(c, name);
      if (cookieId) await closePartnerSession(deps.kv, cookieId);
      deleteCookie(c, name, { path: PATH });
      c.header("Cache-Control", "no-store");
      return c.redirect(PATH, 303);
    });
}

function OutcomeBox(
  { outcome, timeZone }: { outcome: Outcome; timeZone: string },
) {
  const ok = outcome.kind === "valid";
  let heading: string;
  let note: string;
  switch (outcome.kind) {
    case "valid":
      heading = tr("valid", { prize: outcome.prize.name[LANG] });
      note = outcome.prize.description[LANG];
      break;
    case "already":
      heading = tr("alreadyRedeemed", {
        date: formatDate(outcome.redeemedAt, timeZone, LANG)
          .replace(/ de \d{4}$/, ""),
        time: getLocalClockTime(outcome.redeemedAt, timeZone),
      });
      note = `${outcome.prize.name[LANG]}. ${tr("alreadyNote")}`;
      break;
    case "stale":
      heading = tr("stale");
      note = tr("staleNote");
      break;
    case "unknown":
      heading = tr("unknown");
      note = tr("unknownNote");
      break;
    case "bad":
      heading = tr("refused");
      note = tr("badCode");
      break;
    case "refused":
      heading = tr("refused");
      note = outcome.details;
  }
  return (
    <div
      class={`partner-result ${
        ok ? "partner-result--ok" : "partner-result--refused"
      }`}
      role="status"
    >
      <p class="partner-result-mark" aria-hidden="true">{ok ? "✓" : "✗"}</p>
      <h2 class="partner-result-heading">{heading}</h2>
      {note && <p>{note}</p>}
    </div>
  );
}

function Counts(
  { rows }: {
    rows: {
      prizes: Prize[];
      days: { day: string; byPrize: number[] }[];
    };
  },
) {
  return (
    <section class="staff-card" aria-labelledby="partner-counts">
      <h2 id="partner-counts">{tr("countsHeading")}</h2>
      {rows.days.length === 0
        ? <p>{tr("countsEmpty")}</p>
        : (
          <div class="partner-table">
            <table>
              <thead>
                <tr>
                  <th scope="col">{tr("dayColumn")}</th>
                  {rows.prizes.map((prize) => (
                    <th scope="col" key={prize.id}>{prize.name[LANG]}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.days.map(({ day, byPrize }) => (
                  <tr key={day}>
                    <th scope="row">{formatLongDate(day, LANG)}</th>
                    {byPrize.map((count, i) => <td key={i}>{count}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}

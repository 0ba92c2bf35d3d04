import type { AppDeps } from "@/deps.ts";
import { getShareCodeOfUser, getTicket, type Session } from "@/lib/db/mod.ts";
import { findTourist } from "@/lib/oauth/mod.ts";
import { formatDate } from "@/lib/format/mod.ts";
import { localizeData } from "@/lib/data/mod.ts";
import {
  getIslandMessages,
  type Lang,
  localizePath,
  t,
} from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { Island } from "@/components/Island.tsx";
import { createPageRouter, renderPage } from "./_app.tsx";
import { getEmptyRoute, getTouristRoute } from "@/lib/passport/mod.ts";
import Passport from "@/islands/Passport.tsx";
import { listPassportPrizes } from "@/routes/_shared/passport_prizes.ts";
import TicketForm from "@/islands/TicketForm.tsx";

/** A message of the passport pages (`locales/<lang>/page_passport.json`). */
export function tPassport(
  lang: Lang,
  key: string,
  values?: Record<string, string | number>,
): string {
  return t(lang, `page_passport.${key}`, values);
}

/** Sign-in, coming back to this page in its language. */
function getSignInHref(lang: Lang): string {
  const next = encodeURIComponent(localizePath(lang, "/mi-pasaporte"));
  return `${localizePath(lang, "/auth/signin")}?next=${next}`;
}

/**
 * `GET /mi-pasaporte`: the tourist's visits, badges and progress, with
 * verification, ratings and their share ticket: for an account, for a guest
 * passport kept in this browser, and for a first visitor, whose first code
 * opens a guest passport. Where sign-in is configured it offers to keep the
 * passport in an account.
 */
export default function passportPage(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    const lang = getLang(c);
    const tr = (key: string, values?: Record<string, string | number>) =>
      tPassport(lang, key, values);
    const loaded = deps.data.current();
    const data = localizeData(loaded.data, lang);
    const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
    const brand = data.branding.name;
    const { timeZone } = loaded.data.municipality;
    const session = findTourist(c);
    const [route, shareCode, prizes] = session
      ? await Promise.all([
        getTouristRoute(deps.kv, session.userId, loaded, { owner: true }),
        getShareCodeOfUser(deps.kv, session.userId),
        listPassportPrizes(deps.kv, {
          userId: session.userId,
          loaded,
          lang,
          now: deps.now(),
        }),
      ])
      : [getEmptyRoute(loaded), null, null];
    const ticket = shareCode ? await getTicket(deps.kv, shareCode) : null;
    const notice = c.req.query("aviso") === "nombre" && ticket
      ? tr("nameChanged", { name: ticket.name })
      : null;
    const response = renderPage(c, deps, {
      head: {
        title: `${tr("title")} · ${brand}`,
        description: tr("description"),
        // Private: one visitor's own page, nothing to share or index.
        url: localizePath(lang, "/mi-pasaporte"),
        image: null,
        robots: "noindex",
      },
      body: (
        <div class="container passport-page">
          <h1>{tr("title")}</h1>
          {notice && <p class="notice notice--ok" role="status">{notice}</p>}
          <Greeting
            lang={lang}
            session={session}
            canSignIn={deps.config.oidc !== undefined}
          />
          <Island
            name="Passport"
            component={Passport}
            props={{
              ...getIslandMessages(lang, "passport", {
                shared: ["checkin", "session", "rating", "badges"],
              }),
              attractionNames: Object.fromEntries(names),
              timeZone,
              visits: route.visits.map((visit) => ({
                visitId: visit.visitId,
                slug: visit.slug,
                name: names.get(visit.slug) ?? visit.name,
                visitedLabel: formatDate(visit.visitedAt, timeZone, lang),
                visitedAt: visit.visitedAt,
                rating: visit.rating,
                notes: visit.notes,
              })),
              badges: route.badges.map((badge) => ({
                id: badge.id,
                name: badge.name,
                icon: badge.icon,
                unlockedLabel: formatDate(badge.unlockedAt, timeZone, lang),
              })),
              totalAttractions: route.totalAttractions,
              renderedAt: deps.now().toISOString(),
              prizes,
            }}
          />
          <section id="boleto" aria-labelledby="boleto-titulo">
            <h2 id="boleto-titulo">{tr("ticketTitle")}</h2>
            {/* Said once, the same words as the home page's. */}
            <p class="muted">{t(lang, "common.ticketIdea")}</p>
            <Island
              name="TicketForm"
              component={TicketForm}
              props={{
                ...getIslandMessages(lang, "ticket", { shared: ["session"] }),
                shareCode,
              }}
            />
            {!shareCode && (
              <noscript>
                <p class="form-error">{t(lang, "ticket.noscript")}</p>
              </noscript>
            )}
          </section>
          {session && (
            <DataControls lang={lang} ticketName={ticket?.name ?? null} />
          )}
        </div>
      ),
    });
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  });
}

/**
 * The tourist's rights over their data: download it, correct the name on
 * the route, erase it all (with a confirmation page). Plain forms and
 * links: they work before any script loads.
 */
function DataControls(
  { lang, ticketName }: { lang: Lang; ticketName: string | null },
) {
  const tr = (key: string) => tPassport(lang, key);
  return (
    <section class="data-controls" aria-labelledby="datos-titulo">
      <h2 id="datos-titulo">{tr("dataTitle")}</h2>
      <p class="data-controls__item">
        <a
          class="button button--ghost"
          href={localizePath(lang, "/mi-pasaporte/datos.json")}
          download
        >
          {tr("download")}
        </a>{" "}
        <span class="muted">{tr("downloadNote")}</span>
      </p>
      {ticketName !== null && (
        <form
          method="post"
          class="data-controls__item data-controls__name"
          action={localizePath(lang, "/mi-pasaporte/nombre")}
        >
          <div class="field">
            <label for="datos-nombre">{tr("nameLabel")}</label>
            <input
              name="name"
              id="datos-nombre"
              required
              maxLength={120}
              value={ticketName}
              autocomplete="name"
            />
          </div>
          <button class="button" type="submit">{tr("changeName")}</button>
        </form>
      )}
      <p class="data-controls__item data-controls__erase">
        <a
          class="button button--danger-outline"
          href={localizePath(lang, "/mi-pasaporte/borrar")}
        >
          {tr("erase")}
        </a>
      </p>
    </section>
  );
}

/** Who the passport belongs to, and how to keep it. */
function Greeting(
  { lang, session, canSignIn }: {
    lang: Lang;
    session: Session | null;
    canSignIn: boolean;
  },
) {
  const tr = (key: string, values?: Record<string, string>) =>
    tPassport(lang, key, values);
  if (session && !session.guest) {
    return (
      <>
        <p class="lead">
          {session.name
            ? tr("helloNamed", { name: session.name })
            : tr("hello")}
        </p>
        <form
          method="post"
          action={localizePath(lang, "/auth/signout")}
          data-pending-one={tr("signOutPendingOne")}
          // The page fills in the count of stamps it could not send.
          data-pending-other={tr("signOutPendingOther", { count: "{count}" })}
        >
          <button class="button button--ghost" type="submit">
            {tr("signOut")}
          </button>
        </form>
      </>
    );
  }
  return (
    <>
      <p class="lead">
        {session ? tr("guestKept") : tr("firstVisit")}
      </p>
      {canSignIn && (
        <p>
          <a class="button button--ghost" href={getSignInHref(lang)}>
            {tr("signIn")}
          </a>{" "}
          <span class="muted">{tr("signInNote")}</span>
        </p>
      )}
    </>
  );
}

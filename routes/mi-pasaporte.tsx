import type { AppDeps } from "@/deps.ts";
import { getShareCodeOfUser, getTicket } from "@/lib/db/tickets.ts";
import type { Session } from "@/lib/db/sessions.ts";
import { readSessionCookie } from "@/lib/oauth/cookies.ts";
import { getSignedInSession } from "@/lib/oauth/sign_in.ts";
import { formatDate } from "@/lib/format/format.ts";
import { Island } from "@/components/Island.tsx";
import { createPageRouter, renderPage } from "./_app.tsx";
import {
  getEmptyRoute,
  getTouristRoute,
} from "@/lib/passport/tourist_route.ts";
import Passport from "@/islands/Passport.tsx";
import PassportTicket from "@/islands/PassportTicket.tsx";

const SIGN_IN_HREF = "/auth/signin?next=%2Fmi-pasaporte";

/**
 * `GET /mi-pasaporte`: the tourist's visits, badges and progress, with
 * verification, ratings and their share ticket: for an account, for a guest
 * passport kept in this browser, and for a first visitor, whose first code
 * opens a guest passport. Where sign-in is configured it offers to keep the
 * passport in an account.
 */
export default function passportPage(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    const loaded = deps.data.current();
    const brand = loaded.data.branding.name;
    const { timeZone } = loaded.data.municipality;
    const session = await getSignedInSession(
      deps,
      readSessionCookie(c, deps.config),
    );
    const [route, shareCode] = session
      ? await Promise.all([
        getTouristRoute(deps.kv, session.userId, loaded, { owner: true }),
        getShareCodeOfUser(deps.kv, session.userId),
      ])
      : [getEmptyRoute(loaded), null];
    const ticket = shareCode ? await getTicket(deps.kv, shareCode) : null;
    const notice = c.req.query("aviso") === "nombre" && ticket
      ? `Listo: tu ruta y tu tarjeta ahora muestran «${ticket.name}».`
      : null;
    const response = renderPage(c, deps, {
      head: {
        title: `Mi pasaporte · ${brand}`,
        description: "Tus visitas, insignias y calificaciones.",
        // Private: one visitor's own page, nothing to share or index.
        url: "/mi-pasaporte",
        image: null,
        robots: "noindex",
      },
      body: (
        <div class="container passport-page">
          <h1>Mi pasaporte</h1>
          {notice && <p class="notice notice--ok" role="status">{notice}</p>}
          <Greeting
            session={session}
            canSignIn={deps.config.oidc !== undefined}
          />
          <Island
            name="Passport"
            component={Passport}
            props={{
              attractionNames: Object.fromEntries(
                loaded.data.attractions.map((a) => [a.slug, a.name]),
              ),
              timeZone,
              visits: route.visits.map((visit) => ({
                visitId: visit.visitId,
                slug: visit.slug,
                name: visit.name,
                visitedLabel: formatDate(visit.visitedAt, timeZone),
                rating: visit.rating,
                notes: visit.notes,
              })),
              badges: route.badges.map((badge) => ({
                id: badge.id,
                name: badge.name,
                icon: badge.icon,
                unlockedLabel: formatDate(badge.unlockedAt, timeZone),
              })),
              totalAttractions: route.totalAttractions,
            }}
          />
          <section aria-labelledby="boleto-titulo">
            <h2 id="boleto-titulo">Mi boleto para compartir</h2>
            <Island
              name="PassportTicket"
              component={PassportTicket}
              props={{ shareCode }}
            />
          </section>
          {session && <DataControls ticketName={ticket?.name ?? null} />}
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
function DataControls({ ticketName }: { ticketName: string | null }) {
  return (
    <section class="data-controls" aria-labelledby="datos-titulo">
      <h2 id="datos-titulo">Tus datos</h2>
      <p>
        <a
          class="button button--ghost"
          href="/mi-pasaporte/datos.json"
          download
        >
          Descargar mis datos
        </a>{" "}
        <span class="muted">
          Todo lo que guardamos de ti, en un archivo JSON.
        </span>
      </p>
      {ticketName !== null && (
        <form method="post" action="/mi-pasaporte/nombre">
          <label>
            Nombre en tu ruta y tu tarjeta
            <input
              name="name"
              required
              maxLength={120}
              value={ticketName}
              autocomplete="name"
            />
          </label>
          <button class="button" type="submit">Cambiar nombre</button>
        </form>
      )}
      <p>
        <a class="button button--ghost" href="/mi-pasaporte/borrar">
          Borrar mi pasaporte y mis datos
        </a>
      </p>
    </section>
  );
}

/** Who the passport belongs to, and how to keep it. */
function Greeting(
  { session, canSignIn }: { session: Session | null; canSignIn: boolean },
) {
  if (session && !session.guest) {
    return (
      <>
        <p class="lead">
          {session.name ? `Hola, ${session.name}. ` : "Hola. "}
          Registra cada atractivo que visites con su código y reúne insignias.
        </p>
        <form method="post" action="/auth/signout">
          <button class="button button--ghost" type="submit">
            Cerrar sesión
          </button>
        </form>
      </>
    );
  }
  return (
    <>
      <p class="lead">
        {session
          ? "Tu pasaporte de invitado se guarda en este navegador."
          : "Registra cada atractivo que visites con el código de su cartel y reúne insignias. No necesitas cuenta: tu pasaporte se guarda en este navegador."}
      </p>
      {canSignIn && (
        <p>
          <a class="button button--ghost" href={SIGN_IN_HREF}>
            Iniciar sesión para guardarlo en tu cuenta
          </a>{" "}
          <span class="muted">
            Tus visitas, calificaciones e insignias pasan a tu cuenta.
          </span>
        </p>
      )}
    </>
  );
}

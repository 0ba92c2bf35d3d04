import type { AppDeps } from "@/deps.ts";
import { getShareCodeOfUser } from "@/lib/db/tickets.ts";
import { readSessionCookie } from "@/lib/oauth/cookies.ts";
import { getSignedInSession } from "@/lib/oauth/sign_in.ts";
import { formatDate } from "@/lib/format/format.ts";
import { Island } from "@/components/Island.tsx";
import { createPageRouter, renderPage } from "./_app.tsx";
import { getTouristRoute } from "@/lib/passport/tourist_route.ts";
import Passport from "@/islands/Passport.tsx";
import PassportTicket from "@/islands/PassportTicket.tsx";

const SIGN_IN_HREF = "/auth/signin?next=%2Fmi-pasaporte";

/**
 * `GET /mi-pasaporte`: the signed-in tourist's visits, badges and progress,
 * with verification, ratings and their ticket; signed out, an invitation to
 * sign in.
 */
export default function passportPage(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    const brand = deps.data.current().data.branding.name;
    const session = await getSignedInSession(
      deps,
      readSessionCookie(c, deps.config),
    );
    if (!session) {
      const response = renderPage(c, deps, {
        head: {
          title: `Mi pasaporte · ${brand}`,
          description: "Inicia sesión para registrar tus visitas.",
        },
        body: <SignedOut configured={deps.config.oidc !== undefined} />,
      });
      response.headers.set("Cache-Control", "no-store");
      return response;
    }
    const loaded = deps.data.current();
    const { timeZone } = loaded.data.municipality;
    const [route, shareCode] = await Promise.all([
      getTouristRoute(deps.kv, session.userId, loaded),
      getShareCodeOfUser(deps.kv, session.userId),
    ]);
    const response = renderPage(c, deps, {
      head: {
        title: `Mi pasaporte · ${brand}`,
        description: "Tus visitas, insignias y calificaciones.",
      },
      body: (
        <div class="container passport-page">
          <h1>Mi pasaporte</h1>
          <p class="lead">
            {session.name ? `Hola, ${session.name}. ` : "Hola. "}
            Registra cada atractivo que visites con su código y reúne insignias.
          </p>
          <form method="post" action="/auth/signout">
            <button class="button button--ghost" type="submit">
              Cerrar sesión
            </button>
          </form>
          <Island
            name="Passport"
            component={Passport}
            props={{
              userId: session.userId,
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
        </div>
      ),
    });
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  });
}

function SignedOut({ configured }: { configured: boolean }) {
  return (
    <section class="container passport-page" aria-labelledby="pasaporte-titulo">
      <h1 id="pasaporte-titulo">Mi pasaporte</h1>
      <p class="lead">
        Inicia sesión para registrar los atractivos que visites, calificarlos y
        ganar insignias.
      </p>
      {configured
        ? (
          <p>
            <a class="button" href={SIGN_IN_HREF}>Iniciar sesión</a>
          </p>
        )
        : (
          <p>
            El inicio de sesión todavía no está configurado en este portal.
          </p>
        )}
    </section>
  );
}

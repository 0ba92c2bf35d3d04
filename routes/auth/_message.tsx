import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Icon } from "@/components/Icon.tsx";
import type { AppDeps } from "@/deps.ts";
import { renderPage } from "@/routes/_app.tsx";
import {
  OidcSignInError,
  OidcUnavailableError,
} from "@/lib/oauth/oidc_client.ts";
import { SignInNotConfiguredError } from "@/lib/oauth/sign_in.ts";

/** A short Spanish message page of the sign-in: what happened and what to do next. */
export function renderAuthMessage(
  c: Context,
  deps: AppDeps,
  { status, title, body, retryHref }: {
    status: ContentfulStatusCode;
    title: string;
    body: string;
    /** A "try again" link, when trying again can help. */
    retryHref?: string;
  },
): Response {
  const brand = deps.data.current().data.branding.name;
  const response = renderPage(c, deps, {
    status,
    head: { title: `${title} · ${brand}`, description: body },
    body: (
      <section class="container error-page" aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        <p class="lead">{body}</p>
        <ul class="button-row">
          {retryHref && (
            <li>
              <a class="button" href={retryHref}>
                Intentar de nuevo <Icon name="arrow" />
              </a>
            </li>
          )}
          <li>
            <a class="button button--ghost" href="/">Ir al inicio</a>
          </li>
        </ul>
      </section>
    ),
  });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/**
 * The page for a sign-in error: not configured 503, provider unreachable
 * 502, a refused or tampered sign-in 400. Anything else is rethrown to the
 * page router's 500.
 */
export function renderSignInError(
  c: Context,
  deps: AppDeps,
  error: unknown,
): Response {
  const retryHref = "/auth/signin";
  if (error instanceof SignInNotConfiguredError) {
    return renderAuthMessage(c, deps, {
      status: 503,
      title: "El inicio de sesión no está disponible",
      body:
        "Este portal todavía no tiene configurado un proveedor de identidad, así que no es posible iniciar sesión por ahora. Puedes seguir consultando los atractivos y las rutas.",
    });
  }
  if (error instanceof OidcUnavailableError) {
    console.warn(`Sign-in: ${error.message}`);
    return renderAuthMessage(c, deps, {
      status: 502,
      title: "No pudimos comunicarnos con el servicio de inicio de sesión",
      body:
        "El proveedor de identidad no responde en este momento. Espera unos minutos e inténtalo de nuevo.",
      retryHref,
    });
  }
  if (error instanceof OidcSignInError) {
    console.info(`Sign-in refused: ${error.message}`);
    const cancelled = error.providerError === "access_denied";
    return renderAuthMessage(c, deps, {
      status: 400,
      title: cancelled
        ? "Cancelaste el inicio de sesión"
        : "No se pudo completar el inicio de sesión",
      body: cancelled
        ? "No se compartió ningún dato. Puedes iniciar sesión cuando quieras."
        : "El enlace de inicio de sesión no es válido, ya se usó o caducó. Vuelve a iniciar sesión desde esta misma ventana del navegador.",
      retryHref,
    });
  }
  throw error;
}

/**
 * A page that goes on to `path` by itself (`<meta http-equiv="refresh">`),
 * with a link in case it does not. For the end of a staff sign-in at the
 * identity provider: browsers withhold `SameSite=Strict` cookies from a
 * redirect chain that began on another site, so a 303 straight to the
 * panel would arrive without the staff cookie; a navigation this page
 * starts is same-site.
 */
export function renderContinuePage(
  c: Context,
  deps: AppDeps,
  path: string,
): Response {
  const response = renderPage(c, deps, {
    head: {
      title: `Entrando al panel · ${deps.data.current().data.branding.name}`,
      description: "Entrando al panel de la oficina de turismo.",
      image: null,
      robots: "noindex",
      refreshTo: path,
    },
    body: (
      <section class="container error-page" aria-labelledby="auth-title">
        <h1 id="auth-title">Entrando al panel…</h1>
        <p class="lead">
          <a href={path}>Continuar al panel</a>
        </p>
      </section>
    ),
  });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

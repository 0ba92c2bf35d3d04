import type { AppDeps } from "@/deps.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/**
 * `GET /auth/personal[?sesion=vencida]`: the staff sign-in. With the
 * portal's identity provider and a `STAFF` list, a button to sign in with
 * it; without, how to get a new sign-in link. Where a staff session that
 * ran out is sent.
 */
export default function staffSignInPage(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) => {
    const brand = deps.data.current().data.branding.name;
    const expired = c.req.query("sesion") === "vencida";
    const withProvider = deps.config.oidc !== undefined &&
      deps.config.staff.length > 0;
    const response = renderPage(c, deps, {
      head: {
        title: `Acceso del personal · ${brand}`,
        description: "Acceso al panel de la oficina de turismo.",
        image: null,
        robots: "noindex, nofollow",
      },
      body: (
        <section class="container error-page" aria-labelledby="staff-title">
          <h1 id="staff-title">
            {expired ? "Tu sesión del panel terminó" : "Acceso del personal"}
          </h1>
          <p class="lead">
            {expired
              ? "Por seguridad, la sesión se cierra tras 8 horas sin actividad. Vuelve a entrar para seguir trabajando."
              : "El panel de la oficina de turismo es solo para el personal del portal."}
          </p>
          {withProvider
            ? (
              <p>
                <a class="button" href="/auth/personal/proveedor">
                  Entrar con mi cuenta institucional
                </a>
              </p>
            )
            : (
              <p>
                Pide a la persona que administra el portal un nuevo enlace de
                acceso. Cada enlace sirve una sola vez y vence a los 15 minutos.
              </p>
            )}
          <p class="privacy-hint">
            Al entrar, el portal registra tu correo electrónico y lo que haces
            en el panel (bitácora de auditoría), por seguridad y rendición de
            cuentas. Consulta el{" "}
            <a href="/aviso-de-privacidad#personal">aviso de privacidad</a>.
          </p>
        </section>
      ),
    });
    response.headers.set("Cache-Control", "no-store");
    return response;
  });
}

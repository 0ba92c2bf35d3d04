import type { AppDeps } from "@/deps.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import { renderStaffSignInPage } from "@/routes/_shared/staff_sign_in.tsx";

/**
 * `GET /auth/personal[?sesion=vencida]`: the staff sign-in, in the staff
 * workspace's plain frame. With the portal's identity provider and a
 * `STAFF` list, a button to sign in with it; always, how to get a new
 * sign-in link. Where a staff session that ran out is sent, which it says.
 */
export default function staffSignInPage(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) => {
    const expired = c.req.query("sesion") === "vencida";
    const withProvider = deps.config.oidc !== undefined &&
      deps.config.staff.length > 0;
    return renderStaffSignInPage(c, deps, {
      title: "Acceso del personal",
      heading: expired ? "Tu sesión del panel terminó" : "Acceso del personal",
      lead: expired
        ? "Por seguridad, la sesión se cierra tras 8 horas sin actividad y, en cualquier caso, 12 horas después de entrar. Vuelve a entrar para seguir trabajando."
        : "El panel de la oficina de turismo es solo para el personal del portal.",
      children: (
        <>
          {withProvider && (
            <p>
              <a class="button" href="/auth/personal/proveedor">
                Entrar con mi cuenta institucional
              </a>
            </p>
          )}
          <p>
            {withProvider
              ? "¿Entras con un enlace de acceso? Pide uno nuevo a la persona que administra el portal."
              : "Pide a la persona que administra el portal un nuevo enlace de acceso."}
            {" "}
            Cada enlace sirve una sola vez y vence a los 15 minutos.
          </p>
        </>
      ),
    });
  });
}

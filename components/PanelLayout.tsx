import type { ComponentChildren } from "preact";
import type { StaffMember } from "@/lib/types/mod.ts";

/** A section of the staff console, to mark the current one in its menu. */
export type PanelSection =
  | "tablero"
  | "codigos"
  | "notas"
  | "preguntas"
  | "exportar"
  | "solicitudes"
  | "sesiones"
  | "auditoria";

const NAV: {
  section: PanelSection;
  href: string;
  label: string;
  adminOnly?: boolean;
}[] = [
  { section: "tablero", href: "/panel", label: "Tablero" },
  {
    section: "codigos",
    href: "/panel/codigos",
    label: "Códigos",
    adminOnly: true,
  },
  { section: "notas", href: "/panel/notas", label: "Notas", adminOnly: true },
  {
    section: "preguntas",
    href: "/panel/preguntas",
    label: "Preguntas sin respuesta",
    adminOnly: true,
  },
  {
    section: "exportar",
    href: "/panel/exportar",
    label: "Datos abiertos y exportaciones",
  },
  {
    section: "solicitudes",
    href: "/panel/solicitudes",
    label: "Solicitudes de datos personales",
    adminOnly: true,
  },
  {
    section: "sesiones",
    href: "/panel/sesiones",
    label: "Sesiones",
    adminOnly: true,
  },
  {
    section: "auditoria",
    href: "/panel/auditoria",
    label: "Auditoría",
    adminOnly: true,
  },
];

const ROLE_LABEL: Record<StaffMember["role"], string> = {
  admin: "Administración",
  viewer: "Consulta",
};

/**
 * The staff console's frame, inside the site's layout: who is signed in and
 * with what role, the console's menu (admin-only sections hidden from
 * viewers), the sign-out button, the page title and its content.
 */
export function PanelLayout(
  { title, staff, active, children }: {
    /** The page's `<h1>`. */
    title: string;
    staff: StaffMember;
    /** The section to mark as current in the menu; none for pages outside it. */
    active?: PanelSection;
    children?: ComponentChildren;
  },
) {
  return (
    <div class="container console">
      <div class="console__bar">
        <p class="console__who">
          Panel de la oficina de turismo ·{" "}
          <strong>{staff.email || staff.id}</strong> · {ROLE_LABEL[staff.role]}
        </p>
        <form class="console__signout" method="post" action="/panel/salir">
          <button class="button button--ghost" type="submit">Salir</button>
        </form>
      </div>
      <nav class="console-nav" aria-label="Panel">
        <ul>
          {NAV.filter((item) => !item.adminOnly || staff.role === "admin")
            .map((item) => (
              <li key={item.section}>
                <a
                  href={item.href}
                  aria-current={item.section === active ? "page" : undefined}
                >
                  {item.label}
                </a>
              </li>
            ))}
        </ul>
      </nav>
      <h1>{title}</h1>
      {children}
    </div>
  );
}

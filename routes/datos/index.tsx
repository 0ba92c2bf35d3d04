import type { AppDeps } from "@/deps.ts";
import {
  getOpenDataUpdatedAt,
  OPEN_DATA_FILES,
  SUPPRESS_BELOW,
} from "@/lib/open_data/open_data.ts";
import { formatDate } from "@/lib/format/format.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/page_cache.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/**
 * `/datos`: the open data for anyone (and a city's open-data portal) to
 * take: what each file holds, its licence, when it was last brought up to
 * date, and the rule that keeps anyone from being singled out.
 */
export default function openDataPage(deps: AppDeps) {
  return createPageRouter(deps).get(
    "/",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
        const { data } = deps.data.current();
        const { name, timeZone } = data.municipality;
        const license = deps.config.openDataLicense;
        const updated = getOpenDataUpdatedAt(deps.now(), timeZone).slice(0, 10);
        const title = `Datos abiertos del turismo en ${name}`;
        return renderPage(c, deps, {
          head: {
            title: `${title} · ${data.branding.name}`,
            description:
              `Visitas diarias y calificaciones mensuales de los atractivos de ${name} en CSV, con su descripción Frictionless (datapackage.json). Licencia ${license.name}.`,
            shareTitle: title,
            url: "/datos",
          },
          body: (
            <section class="page-head">
              <div class="container prose">
                <h1>{title}</h1>
                <p class="lead">
                  Cuántas personas visitan cada atractivo y cómo los califican,
                  para que cualquiera pueda estudiarlo, reutilizarlo o
                  publicarlo en el portal de datos abiertos de la ciudad.
                </p>
                {data.meta.demo && (
                  <p class="notice">
                    Son datos de demostración: el portal todavía no está en
                    servicio.
                  </p>
                )}
                <h2>Archivos</h2>
                <ul>
                  <li>
                    <a href={`/datos/${OPEN_DATA_FILES.visits}`}>
                      Visitas diarias por atractivo (CSV)
                    </a>: una fila por día y atractivo con visitas verificadas,
                    hasta el día anterior a la actualización.
                  </li>
                  <li>
                    <a href={`/datos/${OPEN_DATA_FILES.ratings}`}>
                      Calificaciones mensuales por atractivo (CSV)
                    </a>: cuántas calificaciones recibió cada atractivo en el
                    mes y su promedio de estrellas, sin notas.
                  </li>
                  <li>
                    <a href={`/datos/${OPEN_DATA_FILES.descriptor}`}>
                      Descripción de los archivos (datapackage.json)
                    </a>: los campos y sus tipos, en el formato Frictionless
                    Data Package que leen los portales de datos abiertos.
                  </li>
                </ul>
                <h2>Cómo están hechos</h2>
                <ul>
                  <li>
                    UTF-8, separados por comas, con una fila de encabezados.
                    Fechas en formato AAAA-MM-DD (meses AAAA-MM), en la hora
                    local de {name}.
                  </li>
                  <li>
                    Sin datos personales: ningún nombre, correo ni nota. Cuando
                    un número es menor que{" "}
                    {SUPPRESS_BELOW}, la celda queda vacía para que nadie pueda
                    ser identificado.
                  </li>
                  <li>
                    Última actualización:{" "}
                    {formatDate(updated, timeZone)}. Las visitas se publican por
                    días completos; se actualizan cada día.
                  </li>
                  <li>
                    Licencia: <a href={license.path}>{license.title}</a>{" "}
                    ({license.name}). Cita la fuente: {data.branding.name}.
                  </li>
                </ul>
              </div>
            </section>
          ),
        });
      }),
  );
}

import type { ComponentChildren } from "preact";
import {
  renderBarChart,
  renderColumnChart,
  renderDailyLines,
  renderHeatMap,
  renderStackedBars,
  renderSwatches,
} from "@/lib/charts/plot.ts";
import type { Dashboard, StoredNote } from "@/lib/db/stats.ts";
import type { RangeProblem } from "@/lib/stats/range.ts";

const WEEKDAYS = [
  "Lunes",
  "Martes",
  "Miércoles",
  "Jueves",
  "Viernes",
  "Sábado",
  "Domingo",
];
const STARS = [
  "1 estrella",
  "2 estrellas",
  "3 estrellas",
  "4 estrellas",
  "5 estrellas",
];
const PASSPORT_SERIES = ["Pasaportes de invitado", "Cuentas nuevas", "Boletos"];
const CHAT_SERIES = [
  "Preguntas",
  "Respondidas",
  "Rechazadas (429)",
  "Fallidas (502)",
];

const RANGE_PROBLEMS: Record<RangeProblem, string> = {
  invalid:
    "Las fechas no son válidas: escríbelas como AAAA-MM-DD. Mostramos los últimos 30 días.",
  reversed:
    "La fecha de inicio es posterior a la de fin. Mostramos los últimos 30 días.",
  too_long:
    "El periodo puede abarcar a lo más 366 días. Mostramos los últimos 30 días.",
};

const integer = new Intl.NumberFormat("es-MX");
const decimal = new Intl.NumberFormat("es-MX", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** The dashboard's charts as inline SVG, drawn by Plot (lib/charts). */
export interface DashboardCharts {
  visitsByAttraction: string;
  visitsByDay: string;
  visitsByHour: string;
  funnel: string;
  passports: string;
  ratings: string;
  ratingsLegend: string;
  chat: string;
}

function stampsLabel(stamps: number): string {
  return stamps === 1 ? "1 sello" : `${stamps} sellos`;
}

/** Awaits every promise of `promises` at once: the same keys, with their values. */
async function awaitAll<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(
    Object.entries(promises).map(async ([key, value]) => [key, await value]),
  );
  return Object.fromEntries(entries);
}

/**
 * Draws the dashboard's charts. `names` gives each attraction's name by
 * slug (a slug no longer in the data set shows as itself).
 */
export async function renderDashboardCharts(
  dashboard: Dashboard,
  names: ReadonlyMap<string, string>,
): Promise<DashboardCharts> {
  const name = (slug: string) => names.get(slug) ?? slug;
  const range = `del ${dashboard.from} al ${dashboard.to}`;
  const rated = dashboard.ratings.filter((row) => row.count > 0);
  return await awaitAll({
    visitsByAttraction: renderBarChart(
      dashboard.visitsByAttraction.map((row) => ({
        label: name(row.slug),
        value: row.visits,
      })),
      {
        text: {
          label: "Visitas por atractivo",
          description:
            `Barras: visitas verificadas de cada atractivo ${range}.`,
        },
        valueLabel: "Visitas",
      },
    ),
    visitsByDay: renderDailyLines(
      dashboard.visitsByDay.map((row) => ({
        day: row.day,
        series: "Visitas",
        value: row.visits,
      })),
      {
        text: {
          label: "Visitas por día",
          description: `Línea: visitas verificadas cada día ${range}.`,
        },
        valueLabel: "Visitas",
        series: ["Visitas"],
      },
    ),
    visitsByHour: renderHeatMap(
      dashboard.visitsByHour.map((cell) => ({
        column: cell.hour,
        row: WEEKDAYS[cell.weekday],
        value: cell.visits,
      })),
      {
        text: {
          label: "Visitas por hora y día de la semana",
          description:
            `Mapa de calor: visitas de cada hora (0 a 23) de cada día de la semana ${range}; más oscuro es más visitas.`,
        },
        rows: WEEKDAYS,
        columnLabel: "Hora del día",
      },
    ),
    funnel: renderColumnChart(
      dashboard.funnel.map((row) => ({
        label: stampsLabel(row.stamps),
        value: row.inRange,
      })),
      {
        text: {
          label: "Turistas por número de sellos",
          description:
            `Columnas: turistas que llegaron a 1, 5, 10 y 17 sellos ${range}.`,
        },
        valueLabel: "Turistas",
      },
    ),
    passports: renderDailyLines(
      dashboard.passportsByDay.flatMap((row, i) => [
        { day: row.day, series: PASSPORT_SERIES[0], value: row.guest },
        { day: row.day, series: PASSPORT_SERIES[1], value: row.account },
        {
          day: row.day,
          series: PASSPORT_SERIES[2],
          value: dashboard.ticketsByDay[i]?.tickets ?? 0,
        },
      ]),
      {
        text: {
          label: "Pasaportes abiertos y boletos por día",
          description:
            `Líneas: pasaportes de invitado abiertos, cuentas nuevas y boletos creados cada día ${range}.`,
        },
        valueLabel: "Cantidad",
        series: PASSPORT_SERIES,
      },
    ),
    ratings: renderStackedBars(
      rated.flatMap((row) =>
        row.distribution.map((value, i) => ({
          label: name(row.slug),
          part: STARS[i],
          value,
        }))
      ),
      {
        text: {
          label: "Calificaciones por atractivo",
          description:
            "Barras apiladas: cuántas calificaciones de 1 a 5 estrellas tiene cada atractivo, desde el inicio.",
        },
        parts: STARS,
        valueLabel: "Calificaciones",
      },
    ),
    ratingsLegend: renderSwatches(STARS, {
      label: "Colores de 1 a 5 estrellas",
    }),
    chat: renderDailyLines(
      dashboard.chatByDay.flatMap((row) => [
        { day: row.day, series: CHAT_SERIES[0], value: row.questions },
        { day: row.day, series: CHAT_SERIES[1], value: row.answered },
        { day: row.day, series: CHAT_SERIES[2], value: row.refused },
        { day: row.day, series: CHAT_SERIES[3], value: row.failed },
      ]),
      {
        text: {
          label: "Asistente: preguntas por día",
          description:
            `Líneas: preguntas al asistente cada día ${range}, respondidas, rechazadas por exceso (429) y fallidas (502).`,
        },
        valueLabel: "Preguntas",
        series: CHAT_SERIES,
      },
    ),
  });
}

/** A chart with its title and, for screen readers and anyone, its data. */
function ChartFigure(
  { id, title, svg, note, children }: {
    id: string;
    title: string;
    svg: string;
    note?: string;
    /** The data table. */
    children: ComponentChildren;
  },
) {
  return (
    <section class="chart" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {note && <p class="chart__note">{note}</p>}
      <figure class="chart__figure">
        <div class="chart__svg" dangerouslySetInnerHTML={{ __html: svg }} />
        <figcaption>
          <details>
            <summary>Ver los datos de «{title}»</summary>
            {children}
          </details>
        </figcaption>
      </figure>
    </section>
  );
}

function DataTable(
  { caption, head, rows }: {
    caption: string;
    head: string[];
    rows: (string | number)[][];
  },
) {
  return (
    <div class="table-scroll">
      <table class="console-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((cell, i) => <th key={i} scope="col">{cell}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) =>
                j === 0 ? <th key={j} scope="row">{cell}</th> : (
                  <td key={j}>
                    {typeof cell === "number" ? integer.format(cell) : cell}
                  </td>
                )
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The staff dashboard's body: the range form (with what was wrong with the
 * range asked for), the charts with their data, the latest notes.
 */
export function DashboardView(
  { dashboard, charts, names, problem }: {
    dashboard: Dashboard;
    charts: DashboardCharts;
    names: ReadonlyMap<string, string>;
    problem: RangeProblem | null;
  },
) {
  const name = (slug: string) => names.get(slug) ?? slug;
  const total = dashboard.visitsByDay.reduce((sum, row) => sum + row.visits, 0);
  return (
    <div class="dashboard">
      <form class="dashboard__range" method="get" action="/panel">
        <fieldset>
          <legend>Periodo (hora de la ciudad)</legend>
          <label>
            Desde{" "}
            <input type="date" name="desde" value={dashboard.from} required />
          </label>
          <label>
            Hasta{" "}
            <input type="date" name="hasta" value={dashboard.to} required />
          </label>
          <button class="button" type="submit">Ver</button>
        </fieldset>
        {problem && (
          <p class="form-error" role="alert">{RANGE_PROBLEMS[problem]}</p>
        )}
      </form>
      <p class="lead" role="status">
        Del {dashboard.from} al {dashboard.to}:{" "}
        <strong>{integer.format(total)}</strong>{" "}
        {total === 1 ? "visita verificada" : "visitas verificadas"}.
      </p>

      <ChartFigure
        id="grafica-atractivos"
        title="Visitas por atractivo"
        svg={charts.visitsByAttraction}
      >
        <DataTable
          caption="Visitas por atractivo en el periodo"
          head={["Atractivo", "Visitas"]}
          rows={[...dashboard.visitsByAttraction]
            .sort((a, b) => b.visits - a.visits)
            .map((row) => [name(row.slug), row.visits])}
        />
      </ChartFigure>

      <ChartFigure
        id="grafica-dias"
        title="Visitas por día"
        svg={charts.visitsByDay}
      >
        <DataTable
          caption="Visitas por día"
          head={["Día", "Visitas"]}
          rows={dashboard.visitsByDay.map((row) => [row.day, row.visits])}
        />
      </ChartFigure>

      <ChartFigure
        id="grafica-horas"
        title="Visitas por hora y día de la semana"
        svg={charts.visitsByHour}
      >
        <DataTable
          caption="Visitas por día de la semana (filas) y hora (columnas)"
          head={[
            "Día",
            ...Array.from({ length: 24 }, (_, hour) => `${hour} h`),
          ]}
          rows={WEEKDAYS.map((day, weekday) => [
            day,
            ...dashboard.visitsByHour
              .filter((cell) => cell.weekday === weekday)
              .map((cell) => cell.visits),
          ])}
        />
      </ChartFigure>

      <ChartFigure
        id="grafica-sellos"
        title="Turistas por número de sellos"
        svg={charts.funnel}
        note="Cuántos turistas llegaron a su primer sello y a los sellos de cada insignia (Explorador, Veterano, Leyenda) en el periodo."
      >
        <DataTable
          caption="Turistas por número de sellos"
          head={["Sellos", "En el periodo", "Desde el inicio"]}
          rows={dashboard.funnel.map((row) => [
            stampsLabel(row.stamps),
            row.inRange,
            row.allTime,
          ])}
        />
      </ChartFigure>

      <ChartFigure
        id="grafica-pasaportes"
        title="Pasaportes abiertos y boletos por día"
        svg={charts.passports}
      >
        <DataTable
          caption="Pasaportes y boletos por día"
          head={["Día", ...PASSPORT_SERIES]}
          rows={dashboard.passportsByDay.map((row, i) => [
            row.day,
            row.guest,
            row.account,
            dashboard.ticketsByDay[i]?.tickets ?? 0,
          ])}
        />
      </ChartFigure>

      <ChartFigure
        id="grafica-calificaciones"
        title="Calificaciones por atractivo"
        svg={charts.ratingsLegend + charts.ratings}
        note="Desde el inicio: las calificaciones vigentes de cada atractivo (una calificación cambiada cuenta una sola vez)."
      >
        <DataTable
          caption="Calificaciones por atractivo"
          head={["Atractivo", "Promedio", "Calificaciones", ...STARS]}
          rows={dashboard.ratings.map((row) => [
            name(row.slug),
            row.average === null ? "—" : decimal.format(row.average),
            row.count,
            ...row.distribution,
          ])}
        />
      </ChartFigure>

      <ChartFigure
        id="grafica-asistente"
        title="Asistente: preguntas por día"
        svg={charts.chat}
      >
        <DataTable
          caption="Preguntas al asistente por día"
          head={["Día", ...CHAT_SERIES]}
          rows={dashboard.chatByDay.map((row) => [
            row.day,
            row.questions,
            row.answered,
            row.refused,
            row.failed,
          ])}
        />
      </ChartFigure>

      <section class="chart" aria-labelledby="ultimas-notas">
        <h2 id="ultimas-notas">Últimas notas</h2>
        <LatestNotes notes={dashboard.latestNotes} name={name} />
      </section>
    </div>
  );
}

function LatestNotes(
  { notes, name }: { notes: StoredNote[]; name: (slug: string) => string },
) {
  if (notes.length === 0) {
    return <p>Todavía nadie ha dejado una nota.</p>;
  }
  return (
    <ol class="latest-notes">
      {notes.map((note) => (
        <li key={note.visitId}>
          <p class="latest-notes__meta">
            <strong>{name(note.slug)}</strong> · {note.rating === null
              ? "sin calificación"
              : `${note.rating} de 5 estrellas`} ·{" "}
            <time datetime={note.ratedAt}>{note.ratedAt.slice(0, 10)}</time>
          </p>
          <blockquote>{note.notes}</blockquote>
        </li>
      ))}
    </ol>
  );
}

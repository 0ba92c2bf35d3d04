import type { ComponentChildren } from "preact";
import type { DashboardView, DataTableView } from "@/lib/staff/mod.ts";

const integer = new Intl.NumberFormat("es-MX");

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

function DataTable({ caption, head, rows }: DataTableView) {
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
 * The staff dashboard's body, as its presenter (lib/staff/dashboard.ts)
 * lays it out: the range form (with what was wrong with the range asked
 * for), the charts with their data, the latest notes.
 */
export function DashboardPage({ view }: { view: DashboardView }) {
  return (
    <div class="dashboard">
      <form class="dashboard__range" method="get" action="/panel">
        <fieldset>
          <legend>Periodo (hora de la ciudad)</legend>
          <label>
            Desde <input type="date" name="desde" value={view.from} required />
          </label>
          <label>
            Hasta <input type="date" name="hasta" value={view.to} required />
          </label>
          <button class="button" type="submit">Ver</button>
        </fieldset>
        {view.problem && <p class="form-error" role="alert">{view.problem}</p>}
      </form>
      <p class="lead" role="status">
        Del {view.from} al {view.to}:{" "}
        <strong>{integer.format(view.total)}</strong>{" "}
        {view.total === 1 ? "visita verificada" : "visitas verificadas"}.
      </p>

      {view.charts.map((chart) => (
        <ChartFigure
          key={chart.id}
          id={chart.id}
          title={chart.title}
          svg={chart.svg}
          note={chart.note}
        >
          <DataTable {...chart.table} />
        </ChartFigure>
      ))}

      <section class="chart" aria-labelledby="ultimas-notas">
        <h2 id="ultimas-notas">Últimas notas</h2>
        <LatestNotes notes={view.latestNotes} />
      </section>
    </div>
  );
}

function LatestNotes({ notes }: { notes: DashboardView["latestNotes"] }) {
  if (notes.length === 0) {
    return <p>Todavía nadie ha dejado una nota.</p>;
  }
  return (
    <ol class="latest-notes">
      {notes.map((note) => (
        <li key={note.visitId}>
          <p class="latest-notes__meta">
            <strong>{note.name}</strong> · {note.rating} ·{" "}
            <time datetime={note.ratedAt}>{note.ratedAt.slice(0, 10)}</time>
          </p>
          <blockquote>{note.notes}</blockquote>
        </li>
      ))}
    </ol>
  );
}

import type { ComponentChildren } from "preact";
import type {
  ChartLinksView,
  DashboardView,
  DataTableView,
  HeadlineView,
  LegendItem,
} from "@/lib/staff/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import type { PrizeReport } from "@/lib/rewards/mod.ts";
import { PrizeFigures } from "@/components/PrizeFigures.tsx";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

const integer = new Intl.NumberFormat("es-MX");

/** A chart with its title and, for screen readers and anyone, its data. */
export function ChartFigure(
  { id, title, svg, note, legend, links, children }: {
    id: string;
    title: string;
    svg: string;
    note?: string;
    legend?: LegendItem[];
    /** Links beside the chart, one per bar, visible. */
    links?: ChartLinksView;
    /** The data table. */
    children: ComponentChildren;
  },
) {
  return (
    <section class="chart" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {note && <p class="chart__note">{note}</p>}
      {legend && <Legend items={legend} />}
      <figure class="chart__figure">
        <div class="chart__svg" dangerouslySetInnerHTML={{ __html: svg }} />
        <figcaption>
          <details>
            <summary>{t(LANG, "panel_figures.ui.showData", { title })}</summary>
            {children}
          </details>
        </figcaption>
      </figure>
      {links && (
        <nav class="chart__links" aria-label={links.label}>
          <p class="chart__note">
            {t(LANG, "panel_figures.ui.openAttraction")}
          </p>
          <ul>
            {links.items.map((item) => (
              <li key={item.href}>
                <a href={item.href}>{item.name}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </section>
  );
}

/** The names of a chart's series, each beside its colour and line pattern. */
function Legend({ items }: { items: LegendItem[] }) {
  return (
    <ul class="chart__legend" aria-label={t(LANG, "panel_figures.ui.legend")}>
      {items.map((item) => (
        <li key={item.name}>
          <svg
            class="chart__key"
            viewBox="0 0 28 12"
            width="28"
            height="12"
            aria-hidden="true"
          >
            {item.dash === undefined
              ? <rect x="6" y="0" width="12" height="12" fill={item.color} />
              : (
                <line
                  x1="0"
                  y1="6"
                  x2="28"
                  y2="6"
                  stroke={item.color}
                  stroke-width="3"
                  stroke-dasharray={item.dash || undefined}
                />
              )}
          </svg>
          {item.name}
        </li>
      ))}
    </ul>
  );
}

const TREND_ICONS: Record<HeadlineView["trend"], string> = {
  up: "▲",
  down: "▼",
  same: "=",
  none: "",
};

/** A headline figure: its value, what it counts, the comparison in words. */
export function Headline({ figure }: { figure: HeadlineView }) {
  const icon = TREND_ICONS[figure.trend];
  return (
    <li class={`headline headline--${figure.trend}`}>
      <h3 class="headline__label" id={`cifra-${figure.id}`}>
        {figure.label}
      </h3>
      <p class="headline__value">{figure.value}</p>
      <p class="headline__detail">{figure.detail}</p>
      <p class="headline__comparison">
        {icon && <span class="headline__icon" aria-hidden="true">{icon}</span>}
        {icon && " "}
        {figure.comparison}
      </p>
    </li>
  );
}

export function DataTable(
  { caption, head, rows, rowLinks }: DataTableView,
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
                j === 0
                  ? (
                    <th key={j} scope="row">
                      {rowLinks?.[i] ? <a href={rowLinks[i]}>{cell}</a> : cell}
                    </th>
                  )
                  : (
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
 * for) and the quick ranges, the headline figures against the period
 * before, the charts with their legends and data, the latest notes.
 */
/**
 * The period's dates (the municipality's days) and the quick ranges beside
 * them, sent back to `action` as `desde`/`hasta`: the dashboard's and an
 * attraction's page.
 */
export function PeriodForm({ action, view }: {
  action: string;
  view: Pick<DashboardView, "from" | "to" | "quickRanges" | "problem">;
}) {
  return (
    <form class="dashboard__range" method="get" action={action}>
      <fieldset>
        <legend>{t(LANG, "panel_figures.ui.period")}</legend>
        <label>
          {t(LANG, "panel_figures.ui.from")}{" "}
          <input type="date" name="desde" value={view.from} required />
        </label>
        <label>
          {t(LANG, "panel_figures.ui.to")}{" "}
          <input type="date" name="hasta" value={view.to} required />
        </label>
        <button class="button" type="submit">
          {t(LANG, "panel_figures.ui.show")}
        </button>
      </fieldset>
      <nav
        class="dashboard__quick"
        aria-label={t(LANG, "panel_figures.ui.quickRanges")}
      >
        <ul>
          {view.quickRanges.map((range) => (
            <li key={range.href}>
              <a
                href={range.href}
                aria-current={range.isCurrent ? "true" : undefined}
              >
                {range.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {view.problem && <p class="form-error" role="alert">{view.problem}</p>}
    </form>
  );
}

/** Charts with their legends and data tables, in columns on a wide screen. */
export function ChartGrid({ charts }: { charts: DashboardView["charts"] }) {
  return (
    <div class="dashboard__charts">
      {charts.map((chart) => (
        <ChartFigure
          key={chart.id}
          id={chart.id}
          title={chart.title}
          svg={chart.svg}
          note={chart.note}
          legend={chart.legend}
          links={chart.links}
        >
          <DataTable {...chart.table} />
        </ChartFigure>
      ))}
    </div>
  );
}

export function DashboardPage(
  { view, prizes }: { view: DashboardView; prizes: PrizeReport },
) {
  return (
    <div class="dashboard">
      <PeriodForm action="/panel" view={view} />

      <section class="headlines" aria-labelledby="cifras">
        <h2 id="cifras">
          {t(LANG, "panel_figures.ui.figures", { period: view.period })}
        </h2>
        <p class="headlines__note">
          {t(LANG, "panel_figures.ui.compareNote", {
            period: view.previousPeriod,
          })}
        </p>
        <ul class="headlines__list">
          {view.headlines.map((figure) => (
            <Headline key={figure.id} figure={figure} />
          ))}
        </ul>
      </section>

      <ChartGrid charts={view.charts} />

      <PrizeFigures
        report={prizes}
        heading={t(LANG, "panel_rewards.figures", { period: view.period })}
      />

      <section class="chart" aria-labelledby="ultimas-notas">
        <h2 id="ultimas-notas">{t(LANG, "panel_figures.ui.latestNotes")}</h2>
        <LatestNotes notes={view.latestNotes} />
      </section>
    </div>
  );
}

function LatestNotes({ notes }: { notes: DashboardView["latestNotes"] }) {
  if (notes.length === 0) {
    return <p>{t(LANG, "panel_figures.ui.noNotes")}</p>;
  }
  return (
    <ol class="latest-notes">
      {notes.map((note) => (
        <li key={note.visitId}>
          <p class="latest-notes__meta">
            <strong>{note.name}</strong> · {note.rating} ·{" "}
            <time datetime={note.ratedAt}>{note.ratedAtText}</time>
          </p>
          <blockquote>{note.notes}</blockquote>
        </li>
      ))}
    </ol>
  );
}

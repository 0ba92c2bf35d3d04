/**
 * Charts drawn on the server as SVG by Observable Plot (`@observablehq/plot`),
 * with `linkedom` as its DOM. Both are imported the first time a chart is
 * drawn (the staff dashboard), never at start: the public pages' cold start
 * does not pay for them. Plot was chosen over Vega-Lite + vega after trying
 * both on the dashboard's charts: about 2 ms a chart against about 10.
 *
 * The SVG is inline in the page, so its `<style>` element (which the pages'
 * Content-Security-Policy would block anyway) is dropped and the page's
 * stylesheet sizes `.chart` instead. Every chart carries its accessible name
 * (`aria-label`) and description; the page adds the data table.
 */
import type * as PlotModule from "@observablehq/plot";

type Plot = typeof PlotModule;

let loaded: Promise<{ Plot: Plot; document: Document }> | undefined;

/** Plot and a DOM document for it, imported once. */
function loadPlot(): Promise<{ Plot: Plot; document: Document }> {
  return loaded ??= (async () => {
    const [Plot, { parseHTML }] = await Promise.all([
      import("@observablehq/plot"),
      import("linkedom"),
    ]);
    const { document } = parseHTML("<!doctype html><html><body></body></html>");
    return { Plot, document: document as unknown as Document };
  })();
}

/** What every chart says of itself to a screen reader and a reader. */
export interface ChartText {
  /** The accessible name (`aria-label`). */
  label: string;
  /** A sentence on what it shows (`aria-description`). */
  description: string;
}

/**
 * A size a chart is drawn at. Every chart is drawn twice, narrow and wide,
 * and the page shows the one that fits its column (a container query in
 * static/styles.css): one SVG scaled from a phone to a wide screen would
 * have text either too small on the phone or huge on the desktop.
 */
interface Layout {
  name: "narrow" | "wide";
  /** The SVG's width in its own units (it scales to its column). */
  width: number;
  /** Text size in those units: at least 12 px where the layout shows. */
  fontSize: number;
  /** At most this many date ticks (fewer where labels would touch). */
  dateTicks: number;
}

/**
 * The narrow layout shows in columns under 34rem (544 px), where 340 units
 * become 300 to 544 px (text 10.6 to 19 px; 12 px at a 390 px phone's
 * column); the wide one from there (text 13 px and up).
 */
const LAYOUTS: readonly Layout[] = [
  { name: "narrow", width: 340, fontSize: 12, dateTicks: 4 },
  { name: "wide", width: 640, fontSize: 15, dateTicks: 7 },
];

const FONT = "system-ui, sans-serif";
/** The portal's palette for series, in order (high enough contrast on white). */
export const SERIES_COLORS = [
  "#0b6e4f",
  "#c2410c",
  "#1d4ed8",
  "#7c3aed",
  "#b91c1c",
];
/** Each series' line pattern, in order: lines told apart without colour. */
export const SERIES_DASHES = ["", "8 4", "2 3", "10 3 2 3", "4 4"];
/** The parts of a stacked bar, low to high (e.g. 1 to 5 stars). */
export const STACK_COLORS = [
  "#b91c1c",
  "#ea580c",
  "#ca8a04",
  "#65a30d",
  "#15803d",
];

function toSvg(element: Element, layout: Layout): string {
  for (const style of [...element.querySelectorAll("style")]) style.remove();
  for (const styled of [element, ...element.querySelectorAll("[style]")]) {
    styled.removeAttribute("style");
  }
  // Plot names each mark's group ("bar", "x-axis tick"): an aria-label on a
  // role-less <g> is not allowed (axe: aria-prohibited-attr), and the chart
  // is one picture with its name and description; its data table follows.
  for (const named of [...element.querySelectorAll("[aria-label]")]) {
    named.removeAttribute("aria-label");
    named.removeAttribute("aria-description");
  }
  element.setAttribute("role", "img");
  element.setAttribute("font-family", FONT);
  element.setAttribute("font-size", String(layout.fontSize));
  // The stylesheet sizes it: the width of its column, the height to match.
  element.removeAttribute("width");
  element.removeAttribute("height");
  return element.outerHTML;
}

/** The chart drawn in every layout, each in its own box for the stylesheet. */
async function drawEach(
  draw: (layout: Layout) => Promise<Element>,
): Promise<string> {
  const svgs = await Promise.all(
    LAYOUTS.map(async (layout) => toSvg(await draw(layout), layout)),
  );
  return LAYOUTS.map((layout, i) =>
    `<div class="chart__layout chart__layout--${layout.name}">${svgs[i]}</div>`
  ).join("");
}

/** Roughly how wide a label of `chars` characters is, in the layout's units. */
function textWidth(chars: number, layout: Layout): number {
  return Math.ceil(chars * layout.fontSize * 0.6);
}

/** Axis numbers in Spanish, short: "950", "12 mil", "1.2 M". */
const compact = new Intl.NumberFormat("es-MX", { notation: "compact" });

/**
 * A count axis from 0 to the largest value (1 when all are 0: Plot draws no
 * axis for [0, 0]), ticked at whole numbers (a count of 0.4 visits means
 * nothing), about `count` ticks.
 */
function countAxis(
  values: readonly number[],
  count: number,
): {
  domain: [number, number];
  ticks: number | number[];
  tickFormat: (n: number) => string;
} {
  const max = Math.max(1, ...values);
  // Below 10, d3 would tick at fractions; from there its ticks are whole.
  const step = Math.ceil((max + 1) / (count + 1));
  return {
    domain: [0, max],
    ticks: max < 10
      ? Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step)
      : count,
    tickFormat: (n: number) => compact.format(n),
  };
}

function upTo(rows: readonly { value: number }[], count: number) {
  return countAxis(rows.map((row) => row.value), count);
}

function common(text: ChartText, layout: Layout) {
  return {
    width: layout.width,
    ariaLabel: text.label,
    ariaDescription: text.description,
    className: "chart__plot",
  };
}

/** Horizontal bars, longest first: one bar per `label`. */
export function renderBarChart(
  rows: readonly { label: string; value: number }[],
  { text, valueLabel }: { text: ChartText; valueLabel: string },
): Promise<string> {
  return drawEach(async (layout) => {
    const { Plot, document } = await loadPlot();
    const { margin, lineWidth } = labelMargin(rows, layout);
    return Plot.plot({
      ...common(text, layout),
      document,
      height: Math.max(80, 40 + rows.length * layout.fontSize * 2.2),
      marginLeft: margin,
      marginRight: textWidth(6, layout),
      marginBottom: layout.fontSize * 3,
      x: {
        label: valueLabel,
        labelAnchor: "center",
        labelArrow: "none",
        grid: true,
        nice: true,
        ...upTo(rows, layout.name === "narrow" ? 4 : 8),
      },
      y: { label: null, tickSize: 0 },
      marks: [
        Plot.axisY({ lineWidth, textOverflow: "ellipsis", tickSize: 0 }),
        Plot.barX(rows, {
          x: "value",
          y: "label",
          fill: SERIES_COLORS[0],
          sort: { y: "-x" },
        }),
        Plot.text(rows, {
          x: "value",
          y: "label",
          text: (row: { value: number }) => integer.format(row.value),
          dx: 4,
          textAnchor: "start",
        }),
        Plot.ruleX([0]),
      ],
    }) as unknown as Element;
  });
}

/**
 * The left margin for labels such as attractions' names: as wide as the
 * longest, up to 45% of a narrow chart (a longer name ends in "…"; the
 * data table beside it has it whole). `lineWidth` is in ems, for Plot.
 */
function labelMargin(
  rows: readonly { label: string }[],
  layout: Layout,
): { margin: number; lineWidth: number } {
  const longest = Math.max(4, ...rows.map((row) => row.label.length));
  const margin = Math.min(
    Math.round(layout.width * (layout.name === "narrow" ? 0.45 : 0.36)),
    textWidth(longest, layout) + 10,
  );
  return { margin, lineWidth: (margin - 10) / layout.fontSize };
}

/** Vertical bars in the given order (e.g. the stamp funnel). */
export function renderColumnChart(
  rows: readonly { label: string; value: number }[],
  { text, valueLabel, fitLabels = false }: {
    text: ChartText;
    valueLabel: string;
    /**
     * Many columns (the 24 hours): label every second or third one where
     * the labels would touch, and leave the values over the columns out
     * where they would (the data table has them).
     */
    fitLabels?: boolean;
  },
): Promise<string> {
  return drawEach(async (layout) => {
    const { Plot, document } = await loadPlot();
    const marginLeft = textWidth(5, layout);
    const band = (layout.width - marginLeft) / Math.max(1, rows.length);
    const longest = Math.max(0, ...rows.map((row) => row.label.length));
    // Labels never touch: where they would, only every second (third, ...)
    // is written (the data table names every column).
    const every = Math.max(
      1,
      Math.ceil(
        (fitLabels
          ? textWidth(longest + 1, layout)
          : textWidth(longest, layout) + 4) / band,
      ),
    );
    const digits = Math.max(
      1,
      ...rows.map((row) => integer.format(row.value).length),
    );
    const showValues = !fitLabels || textWidth(digits + 1, layout) <= band;
    return Plot.plot({
      ...common(text, layout),
      document,
      height: layout.name === "narrow" ? 240 : 300,
      marginLeft,
      marginTop: layout.fontSize * 2,
      x: {
        label: null,
        domain: rows.map((row) => row.label),
        tickSize: 0,
        ...(every > 1
          ? {
            ticks: rows.filter((_, i) => i % every === 0).map((r) => r.label),
          }
          : {}),
      },
      y: {
        label: valueLabel,
        labelArrow: "none",
        grid: true,
        nice: true,
        ...upTo(rows, 5),
      },
      marks: [
        Plot.barY(rows, { x: "label", y: "value", fill: SERIES_COLORS[0] }),
        showValues
          ? Plot.text(rows, {
            x: "label",
            y: "value",
            text: (row: { value: number }) => integer.format(row.value),
            dy: -layout.fontSize * 0.6,
          })
          : null,
        Plot.ruleY([0]),
      ],
    }) as unknown as Element;
  });
}

const integer = new Intl.NumberFormat("es-MX");
/** Tick labels in Spanish; days are calendar labels, so formatted in UTC. */
const weekdayDay = new Intl.DateTimeFormat("es-MX", {
  weekday: "short",
  day: "numeric",
  timeZone: "UTC",
});
const dayMonth = new Intl.DateTimeFormat("es-MX", {
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});
const monthName = new Intl.DateTimeFormat("es-MX", {
  month: "short",
  timeZone: "UTC",
});
const monthYear = new Intl.DateTimeFormat("es-MX", {
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * The date ticks of `days` (in order) for a layout, with their Spanish
 * labels: a week or less ticks days ("mar 10"), up to four months ticks
 * evenly spaced days ("10 mar"), longer ranges first days of months ("mar",
 * "ene 2026" where a year starts or begins the axis), never more than the
 * layout's ticks, so no label touches the next.
 */
export function getDateTicks(
  days: readonly string[],
  layout: { dateTicks: number },
): { date: Date; label: string }[] {
  const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
  const spaced = <T>(items: readonly T[]) => {
    const step = Math.ceil(items.length / layout.dateTicks);
    return items.filter((_, i) => i % step === 0);
  };
  if (days.length <= 7) {
    return spaced(days).map((day) => {
      const date = toDate(day);
      return {
        date,
        label: (days.length <= layout.dateTicks ? weekdayDay : dayMonth).format(
          date,
        ),
      };
    });
  }
  if (days.length <= 122) {
    return spaced(days).map((day) => ({
      date: toDate(day),
      label: dayMonth.format(toDate(day)),
    }));
  }
  const firsts = days.filter((day) => day.endsWith("-01"));
  return spaced(firsts).map((day, i) => ({
    date: toDate(day),
    label: (i === 0 || day.endsWith("-01-01") ? monthYear : monthName)
      .format(toDate(day)),
  }));
}

/**
 * One line per series over days (`YYYY-MM-DD`), each in its own colour
 * and pattern ({@linkcode SERIES_COLORS}, {@linkcode SERIES_DASHES}); the
 * page names them in a legend beside the chart, in the same order (names
 * at the lines' ends would overlap where lines end close together).
 */
export function renderDailyLines(
  rows: readonly { day: string; series: string; value: number }[],
  { text, valueLabel, series }: {
    text: ChartText;
    valueLabel: string;
    /** The series' names, in order. */
    series: readonly string[];
  },
): Promise<string> {
  const data = rows.map((row) => ({
    ...row,
    date: new Date(`${row.day}T00:00:00Z`),
  }));
  const days = [...new Set(rows.map((row) => row.day))];
  return drawEach(async (layout) => {
    const { Plot, document } = await loadPlot();
    const ticks = getDateTicks(days, layout);
    const labels = new Map(ticks.map((tick) => [+tick.date, tick.label]));
    return Plot.plot({
      ...common(text, layout),
      document,
      height: layout.name === "narrow" ? 240 : 300,
      marginLeft: textWidth(5, layout),
      marginRight: textWidth(2, layout),
      marginTop: layout.fontSize * 2,
      marginBottom: layout.fontSize * 2.2,
      x: {
        label: null,
        type: "utc",
        // Room for the first and last dates' labels, clear of the count axis.
        insetLeft: textWidth(3, layout),
        insetRight: textWidth(3, layout),
        ticks: ticks.map((tick) => tick.date),
        tickFormat: (date: Date) => labels.get(+date) ?? "",
      },
      y: {
        label: valueLabel,
        labelArrow: "none",
        grid: true,
        nice: true,
        ...upTo(rows, 5),
      },
      marks: [
        Plot.ruleY([0]),
        ...series.flatMap((name, i) => {
          const own = data.filter((row) => row.series === name);
          const color = SERIES_COLORS[i % SERIES_COLORS.length];
          return [
            Plot.lineY(own, {
              x: "date",
              y: "value",
              stroke: color,
              strokeWidth: 2,
              strokeDasharray: SERIES_DASHES[i % SERIES_DASHES.length] ||
                undefined,
            }),
            ...(days.length <= 62
              ? [Plot.dot(own, { x: "date", y: "value", fill: color, r: 2 })]
              : []),
          ];
        }),
      ],
    }) as unknown as Element;
  });
}

/** A heat map: rows x columns of counts, darker is more. */
export function renderHeatMap(
  cells: readonly { column: number; row: string; value: number }[],
  { text, rows, columnLabel }: {
    text: ChartText;
    /** The rows' names, top to bottom. */
    rows: readonly string[];
    columnLabel: string;
  },
): Promise<string> {
  const longest = Math.max(...rows.map((row) => row.length));
  return drawEach(async (layout) => {
    const { Plot, document } = await loadPlot();
    const every = layout.name === "narrow" ? 4 : 2;
    return Plot.plot({
      ...common(text, layout),
      document,
      height: layout.fontSize * 5 + rows.length * layout.fontSize * 2.2,
      marginLeft: textWidth(longest, layout) + 8,
      marginBottom: layout.fontSize * 3,
      padding: 0.05,
      x: {
        label: columnLabel,
        labelAnchor: "center",
        labelArrow: "none",
        type: "band",
        ticks: Array.from({ length: 24 / every }, (_, i) => i * every),
      },
      y: { label: null, domain: [...rows], tickSize: 0 },
      color: { type: "linear", scheme: "greens", zero: true },
      marks: [
        Plot.cell(cells, { x: "column", y: "row", fill: "value", inset: 0.5 }),
      ],
    }) as unknown as Element;
  });
}

/**
 * Stacked horizontal bars: per `label`, the count of each part (e.g. 1 to
 * 5 stars), parts in the given order, each with its own colour
 * ({@linkcode STACK_COLORS}); the page names them in a legend.
 */
export function renderStackedBars(
  rows: readonly { label: string; part: string; value: number }[],
  { text, parts, valueLabel }: {
    text: ChartText;
    parts: readonly string[];
    valueLabel: string;
  },
): Promise<string> {
  const labels = [...new Set(rows.map((row) => row.label))];
  return drawEach(async (layout) => {
    const { Plot, document } = await loadPlot();
    const { margin, lineWidth } = labelMargin(
      labels.map((label) => ({ label })),
      layout,
    );
    return Plot.plot({
      ...common(text, layout),
      document,
      height: Math.max(80, 48 + labels.length * layout.fontSize * 2.2),
      marginLeft: margin,
      marginBottom: layout.fontSize * 3,
      x: {
        label: valueLabel,
        labelAnchor: "center",
        labelArrow: "none",
        grid: true,
        nice: true,
        ...countAxis(
          labels.map((label) =>
            rows.filter((row) => row.label === label)
              .reduce((sum, row) => sum + row.value, 0)
          ),
          layout.name === "narrow" ? 4 : 8,
        ),
      },
      y: { label: null, domain: labels, tickSize: 0 },
      color: {
        domain: [...parts],
        range: STACK_COLORS,
      },
      marks: [
        Plot.axisY({ lineWidth, textOverflow: "ellipsis", tickSize: 0 }),
        Plot.barX(rows, {
          x: "value",
          y: "label",
          fill: "part",
          order: [...parts],
        }),
        Plot.ruleX([0]),
      ],
    }) as unknown as Element;
  });
}

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

const WIDTH = 720;
const FONT = "system-ui, sans-serif";
/** The portal's palette for series, in order (high enough contrast on white). */
const SERIES_COLORS = ["#0b6e4f", "#c2410c", "#1d4ed8", "#7c3aed", "#b91c1c"];
/** The parts of a stacked bar, low to high (e.g. 1 to 5 stars). */
const STACK_COLORS = ["#b91c1c", "#ea580c", "#ca8a04", "#65a30d", "#15803d"];

function toSvg(element: Element): string {
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
  return element.outerHTML;
}

/**
 * A count axis from 0 to the largest value (1 when all are 0: Plot draws no
 * axis for [0, 0]), ticked at whole numbers: a count of 0.4 visits means
 * nothing.
 */
function countAxis(
  values: readonly number[],
): { domain: [number, number]; ticks?: number[]; tickFormat: string } {
  const max = Math.max(1, ...values);
  return {
    domain: [0, max],
    // Below 10, d3 would tick at fractions; from there its ticks are whole.
    ...(max < 10
      ? { ticks: Array.from({ length: max + 1 }, (_, i) => i) }
      : {}),
    tickFormat: "~s",
  };
}

function upTo(rows: readonly { value: number }[]) {
  return countAxis(rows.map((row) => row.value));
}

function common(text: ChartText) {
  return {
    width: WIDTH,
    ariaLabel: text.label,
    ariaDescription: text.description,
    className: "chart__plot",
  };
}

/** Horizontal bars, longest first: one bar per `label`. */
export async function renderBarChart(
  rows: readonly { label: string; value: number }[],
  { text, valueLabel }: { text: ChartText; valueLabel: string },
): Promise<string> {
  const { Plot, document } = await loadPlot();
  const longest = Math.max(0, ...rows.map((row) => row.label.length));
  return toSvg(Plot.plot({
    ...common(text),
    document,
    height: Math.max(80, 28 + rows.length * 24),
    marginLeft: Math.min(260, 12 + longest * 6),
    x: { label: valueLabel, grid: true, nice: true, ...upTo(rows) },
    y: { label: null },
    marks: [
      Plot.barX(rows, {
        x: "value",
        y: "label",
        fill: SERIES_COLORS[0],
        sort: { y: "-x" },
      }),
      Plot.text(rows, {
        x: "value",
        y: "label",
        text: (row: { value: number }) => String(row.value),
        dx: 4,
        textAnchor: "start",
      }),
      Plot.ruleX([0]),
    ],
  }) as unknown as Element);
}

/** Vertical bars in the given order (e.g. the stamp funnel). */
export async function renderColumnChart(
  rows: readonly { label: string; value: number }[],
  { text, valueLabel }: { text: ChartText; valueLabel: string },
): Promise<string> {
  const { Plot, document } = await loadPlot();
  return toSvg(Plot.plot({
    ...common(text),
    document,
    height: 260,
    x: { label: null, domain: rows.map((row) => row.label) },
    y: { label: valueLabel, grid: true, nice: true, ...upTo(rows) },
    marks: [
      Plot.barY(rows, { x: "label", y: "value", fill: SERIES_COLORS[0] }),
      Plot.text(rows, {
        x: "label",
        y: "value",
        text: (row: { value: number }) => String(row.value),
        dy: -6,
      }),
      Plot.ruleY([0]),
    ],
  }) as unknown as Element);
}

/**
 * One line per series over days (`YYYY-MM-DD`), with a dot per day and the
 * series' names at the lines' ends (no legend to match by colour).
 */
export async function renderDailyLines(
  rows: readonly { day: string; series: string; value: number }[],
  { text, valueLabel, series }: {
    text: ChartText;
    valueLabel: string;
    /** The series' names, in order. */
    series: readonly string[];
  },
): Promise<string> {
  const { Plot, document } = await loadPlot();
  const data = rows.map((row) => ({
    ...row,
    date: new Date(`${row.day}T00:00:00Z`),
  }));
  const last = data.length
    ? data.filter((row) => row.day === data[data.length - 1].day)
    : [];
  return toSvg(Plot.plot({
    ...common(text),
    document,
    height: 260,
    marginRight: series.length > 1 ? 150 : 20,
    x: { label: null, type: "utc" },
    y: { label: valueLabel, grid: true, nice: true, ...upTo(rows) },
    color: {
      domain: [...series],
      range: SERIES_COLORS.slice(0, series.length),
    },
    marks: [
      Plot.ruleY([0]),
      Plot.lineY(data, {
        x: "date",
        y: "value",
        stroke: "series",
        z: "series",
      }),
      Plot.dot(data, { x: "date", y: "value", fill: "series", r: 2 }),
      ...(series.length > 1
        ? [
          // One mark per series, each nudged to its own line: ends at the
          // same value (often 0) would print the names over each other.
          ...series.map((name, i) =>
            Plot.text(last.filter((row) => row.series === name), {
              x: "date",
              y: "value",
              text: "series",
              fill: "series",
              dx: 6,
              dy: (i - (series.length - 1) / 2) * 13,
              textAnchor: "start",
            })
          ),
        ]
        : []),
    ],
  }) as unknown as Element);
}

/** A heat map: rows x columns of counts, darker is more. */
export async function renderHeatMap(
  cells: readonly { column: number; row: string; value: number }[],
  { text, rows, columnLabel }: {
    text: ChartText;
    /** The rows' names, top to bottom. */
    rows: readonly string[];
    columnLabel: string;
  },
): Promise<string> {
  const { Plot, document } = await loadPlot();
  return toSvg(Plot.plot({
    ...common(text),
    document,
    height: 60 + rows.length * 28,
    marginLeft: 90,
    padding: 0.05,
    x: { label: columnLabel, type: "band" },
    y: { label: null, domain: [...rows] },
    color: { type: "linear", scheme: "greens", zero: true },
    marks: [
      Plot.cell(cells, { x: "column", y: "row", fill: "value", inset: 0.5 }),
    ],
  }) as unknown as Element);
}

/**
 * Stacked horizontal bars: per `label`, the count of each part (e.g. 1 to
 * 5 stars), parts in the given order, each with its own colour.
 */
export async function renderStackedBars(
  rows: readonly { label: string; part: string; value: number }[],
  { text, parts, valueLabel }: {
    text: ChartText;
    parts: readonly string[];
    valueLabel: string;
  },
): Promise<string> {
  const { Plot, document } = await loadPlot();
  const labels = [...new Set(rows.map((row) => row.label))];
  const longest = Math.max(0, ...labels.map((label) => label.length));
  return toSvg(Plot.plot({
    ...common(text),
    document,
    height: Math.max(80, 48 + labels.length * 24),
    marginLeft: Math.min(260, 12 + longest * 6),
    x: {
      label: valueLabel,
      grid: true,
      nice: true,
      ...countAxis(
        labels.map((label) =>
          rows.filter((row) => row.label === label)
            .reduce((sum, row) => sum + row.value, 0)
        ),
      ),
    },
    y: { label: null, domain: labels },
    color: {
      domain: [...parts],
      range: STACK_COLORS,
    },
    marks: [
      Plot.barX(rows, {
        x: "value",
        y: "label",
        fill: "part",
        order: [...parts],
      }),
      Plot.ruleX([0]),
    ],
  }) as unknown as Element);
}

/** A legend drawn by Plot too: one swatch and name per part, in order. */
export async function renderSwatches(
  parts: readonly string[],
  { label }: { label: string },
): Promise<string> {
  const { Plot, document } = await loadPlot();
  return toSvg(Plot.plot({
    document,
    width: WIDTH,
    height: 34,
    margin: 0,
    marginLeft: 10,
    ariaLabel: label,
    className: "chart__legend",
    x: { axis: null, domain: [...parts], padding: 0, range: [10, 600] },
    y: { axis: null },
    color: { domain: [...parts], range: STACK_COLORS },
    marks: [
      Plot.dot(parts, {
        x: (part: string) => part,
        fill: (part: string) => part,
        symbol: "square",
        r: 6,
        frameAnchor: "left",
      }),
      Plot.text(parts, {
        x: (part: string) => part,
        text: (part: string) => part,
        dx: 12,
        textAnchor: "start",
        frameAnchor: "left",
      }),
    ],
  }) as unknown as Element);
}

import assert from "node:assert/strict";
import type { Dashboard, PeriodTotals } from "@/lib/figures/mod.ts";
import { getDateTicks } from "./charts.ts";
import {
  compareCounts,
  type DashboardCharts,
  formatMonthRange,
  presentDashboard,
  presentHeadlines,
  renderDashboardCharts,
} from "./dashboard.ts";
import { formatDayRange, getPreviousRange, getQuickRanges } from "./range.ts";

const DAYS = ["2026-11-21", "2026-11-22"];

/** Two days of figures: 3 visits at the plaza, 1 at a slug no longer in the data set. */
function figures(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    from: DAYS[0],
    to: DAYS[1],
    days: DAYS,
    visitsByAttraction: [
      { slug: "plaza", visits: 1 },
      { slug: "antigua", visits: 3 },
    ],
    visitsByMethod: [{ method: "code", visits: 3 }, {
      method: "gps",
      visits: 1,
    }],
    visitsByDay: [{ day: DAYS[0], visits: 1 }, { day: DAYS[1], visits: 3 }],
    visitsByHour: Array.from({ length: 7 * 24 }, (_, i) => ({
      weekday: Math.floor(i / 24),
      hour: i % 24,
      visits: i === 5 * 24 + 12 ? 4 : 0,
    })),
    funnel: [
      { stamps: 1, inRange: 2, allTime: 5 },
      { stamps: 5, inRange: 0, allTime: 1 },
    ],
    passportsByDay: [
      { day: DAYS[0], guest: 2, account: 1 },
      { day: DAYS[1], guest: 0, account: 0 },
    ],
    ticketsByDay: [{ day: DAYS[0], tickets: 1 }, {
      day: DAYS[1],
      tickets: 2,
    }],
    ratings: [
      {
        slug: "plaza",
        count: 2,
        sum: 9,
        average: 4.5,
        distribution: [0, 0, 0, 1, 1],
      },
      {
        slug: "antigua",
        count: 0,
        sum: 0,
        average: null,
        distribution: [0, 0, 0, 0, 0],
      },
    ],
    chatByDay: [
      {
        day: DAYS[0],
        questions: 5,
        answered: 2,
        noData: 1,
        refused: 1,
        failed: 1,
      },
      {
        day: DAYS[1],
        questions: 0,
        answered: 0,
        noData: 0,
        refused: 0,
        failed: 0,
      },
    ],
    latestNotes: [
      {
        visitId: "v1",
        slug: "plaza",
        rating: 4,
        notes: "Muy bonita",
        ratedAt: "2026-11-22T18:00:00Z",
      },
      {
        visitId: "v2",
        slug: "antigua",
        rating: null,
        notes: "Cerrado",
        ratedAt: "2026-11-21T10:00:00Z",
      },
    ],
    ...overrides,
  };
}

const NAMES = new Map([["plaza", "Plaza Principal"]]);

const CHARTS: DashboardCharts = {
  visitsByAttraction: "<svg>a</svg>",
  visitsByDay: "<svg>d</svg>",
  visitsByHour: "<svg>h</svg>",
  funnel: "<svg>f</svg>",
  passports: "<svg>p</svg>",
  ratings: "<svg>r</svg>",
  chat: "<svg>c</svg>",
};

Deno.test("presentDashboard", async (t) => {
  const view = presentDashboard(figures(), {
    charts: CHARTS,
    names: NAMES,
    problem: null,
  });

  await t.step("the range, its total of visits, and no problem", () => {
    assert.equal(view.from, "2026-11-21");
    assert.equal(view.to, "2026-11-22");
    assert.equal(view.total, 4);
    assert.equal(view.problem, null);
  });

  await t.step(
    "seven charts in the page's order, each with its own SVG",
    () => {
      assert.deepEqual(view.charts.map((chart) => [chart.id, chart.svg]), [
        ["grafica-atractivos", "<svg>a</svg>"],
        ["grafica-dias", "<svg>d</svg>"],
        ["grafica-horas", "<svg>h</svg>"],
        ["grafica-sellos", "<svg>f</svg>"],
        ["grafica-pasaportes", "<svg>p</svg>"],
        ["grafica-calificaciones", "<svg>r</svg>"],
        ["grafica-asistente", "<svg>c</svg>"],
      ]);
      const notes = view.charts.filter((chart) => chart.note).map((c) => c.id);
      assert.deepEqual(notes, ["grafica-sellos", "grafica-calificaciones"]);
    },
  );

  await t.step(
    "series named in plain words in a legend, lines with their own pattern",
    () => {
      const legend = (id: string) =>
        view.charts.find((c) => c.id === id)!.legend!;
      assert.deepEqual(legend("grafica-asistente").map((item) => item.name), [
        "Preguntas recibidas",
        "Respondidas con datos",
        "Sin el dato en el portal",
        "Sin respuesta: demasiadas seguidas",
        "Sin respuesta: falló el asistente",
      ]);
      const dashes = legend("grafica-asistente").map((item) => item.dash);
      assert.equal(new Set(dashes).size, 5);
      assert.deepEqual(
        legend("grafica-calificaciones").map((item) => [item.name, item.dash]),
        [1, 2, 3, 4, 5].map((n) => [
          n === 1 ? "1 estrella" : `${n} estrellas`,
          undefined,
        ]),
      );
    },
  );

  const table = (id: string) => view.charts.find((c) => c.id === id)!.table;

  await t.step(
    "attractions: most visited first, unknown slugs as themselves",
    () => {
      assert.deepEqual(table("grafica-atractivos").rows, [
        ["antigua", 3],
        ["Plaza Principal", 1],
      ]);
    },
  );

  await t.step("hours: one row a weekday from Monday, a column an hour", () => {
    const { head, rows } = table("grafica-horas");
    assert.equal(head.length, 25);
    assert.equal(head[13], "12 h");
    assert.deepEqual(rows.map((row) => row[0]), [
      "Lunes",
      "Martes",
      "Miércoles",
      "Jueves",
      "Viernes",
      "Sábado",
      "Domingo",
    ]);
    assert.equal(rows[5][13], 4); // Saturday, 12:00
  });

  await t.step("funnel rows say stamps in Spanish, singular and plural", () => {
    assert.deepEqual(table("grafica-sellos").rows, [
      ["1 sello", 2, 5],
      ["5 sellos", 0, 1],
    ]);
  });

  await t.step("passports share rows with the same day's tickets", () => {
    assert.deepEqual(table("grafica-pasaportes").rows, [
      ["sáb 21 nov 2026", 2, 1, 1],
      ["dom 22 nov 2026", 0, 0, 2],
    ]);
  });

  await t.step(
    "ratings: the average to one decimal in es-MX, a dash for none",
    () => {
      assert.deepEqual(table("grafica-calificaciones").rows, [
        ["Plaza Principal", "4.5", 2, 0, 0, 0, 1, 1],
        ["antigua", "—", 0, 0, 0, 0, 0, 0],
      ]);
    },
  );

  await t.step(
    "latest notes: the attraction's name and the rating in words",
    () => {
      assert.deepEqual(
        view.latestNotes.map((note) => [note.name, note.rating, note.notes]),
        [
          ["Plaza Principal", "4 de 5 estrellas", "Muy bonita"],
          ["antigua", "sin calificación", "Cerrado"],
        ],
      );
    },
  );

  await t.step("a range not used says why, and what is shown instead", () => {
    const reversed = presentDashboard(figures(), {
      charts: CHARTS,
      names: NAMES,
      problem: "reversed",
    });
    assert.match(reversed.problem!, /posterior a la de fin/);
    assert.match(reversed.problem!, /últimos 30 días/);
  });
});

Deno.test("renderDashboardCharts: each chart names itself and its range", async () => {
  const charts = await renderDashboardCharts(figures(), NAMES);
  assert.deepEqual(Object.keys(charts).sort(), Object.keys(CHARTS).sort());
  for (const [key, svg] of Object.entries(charts)) {
    assert.match(svg, /^<(svg|div)/, key);
    assert.ok(!svg.includes("<style"), `${key}: no <style> (the page's CSP)`);
  }
  assert.match(charts.visitsByAttraction, /aria-label="Visitas por atractivo"/);
  assert.match(charts.visitsByDay, /del 21 al 22 de noviembre de 2026/);
  assert.match(charts.visitsByAttraction, /Plaza Principal/);
  // Drawn narrow and wide, each SVG sized by the page (a viewBox, no width).
  assert.equal(charts.chat.match(/<svg/g)?.length, 2);
  assert.match(charts.chat, /chart__layout--narrow.*chart__layout--wide/s);
  assert.doesNotMatch(charts.chat, /<svg[^>]* width=/);
  assert.match(charts.chat, /<svg[^>]* viewBox="0 0 340 /);
  assert.doesNotMatch(charts.chat, /Rechazadas|429|502/);
});

/** Headline totals: `overrides` over a period of nothing. */
function totals(
  from: string,
  to: string,
  overrides: Partial<Omit<PeriodTotals, "ratings">> & {
    ratings?: Partial<PeriodTotals["ratings"]>;
  } = {},
): PeriodTotals {
  return {
    from,
    to,
    visits: 0,
    visitsByMethod: [],
    firstStamps: 0,
    passports: 0,
    answered: 0,
    questions: 0,
    ...overrides,
    ratings: {
      fromMonth: from.slice(0, 7),
      toMonth: to.slice(0, 7),
      count: 0,
      sum: 0,
      ...overrides.ratings,
    },
  };
}

Deno.test("presentHeadlines: each figure against the period before", async (t) => {
  const current = totals("2026-10-29", "2026-11-27", {
    visits: 112,
    firstStamps: 40,
    passports: 3,
    answered: 9,
    ratings: { count: 4, sum: 18 },
  });
  const previous = totals("2026-09-29", "2026-10-28", {
    visits: 100,
    firstStamps: 50,
    passports: 0,
    answered: 9,
    ratings: { count: 2, sum: 8 },
  });
  const byId = Object.fromEntries(
    presentHeadlines(current, previous).map((h) => [h.id, h]),
  );

  await t.step("five figures, in order, written in es-MX", () => {
    assert.deepEqual(
      presentHeadlines(current, previous).map((h) => [h.label, h.value]),
      [
        ["Visitas", "112"],
        ["Turistas nuevos", "40"],
        ["Pasaportes nuevos", "3"],
        ["Calificación promedio", "4.5 de 5"],
        ["Preguntas respondidas", "9"],
      ],
    );
  });

  await t.step("up, down and the same, in words", () => {
    assert.deepEqual(
      [byId.visitas.trend, byId.visitas.comparison],
      ["up", "12% más que del 29 de septiembre al 28 de octubre"],
    );
    assert.deepEqual(
      [byId.turistas.trend, byId.turistas.comparison],
      ["down", "20% menos que del 29 de septiembre al 28 de octubre"],
    );
    assert.deepEqual(
      [byId.preguntas.trend, byId.preguntas.comparison],
      ["same", "igual que del 29 de septiembre al 28 de octubre"],
    );
  });

  await t.step("a previous period of none says so, with no percentage", () => {
    assert.deepEqual(
      [byId.pasaportes.trend, byId.pasaportes.comparison],
      ["up", "del 29 de septiembre al 28 de octubre no hubo ninguno"],
    );
  });

  await t.step(
    "the average rating compares whole months, in points",
    () => {
      assert.equal(byId.calificacion.trend, "up");
      assert.equal(
        byId.calificacion.comparison,
        "0.5 más que de septiembre a octubre (4.0)",
      );
      assert.match(
        byId.calificacion.detail,
        /^4 calificaciones dadas de octubre a noviembre de 2026/,
      );
      const sameMonth = presentHeadlines(
        totals("2026-11-27", "2026-11-27", { ratings: { count: 1, sum: 5 } }),
        totals("2026-11-26", "2026-11-26", { ratings: { count: 1, sum: 5 } }),
      ).find((h) => h.id === "calificacion")!;
      assert.equal(sameMonth.trend, "none");
      assert.match(sameMonth.comparison, /sin comparación/);
    },
  );
});

Deno.test("compareCounts: small changes and nothing at all", () => {
  const period = "el 26 de noviembre";
  assert.deepEqual(compareCounts(1001, 1000, { period, none: "ninguna" }), {
    trend: "up",
    comparison: "menos de 1% más que el 26 de noviembre",
  });
  assert.deepEqual(compareCounts(0, 0, { period, none: "ninguna" }), {
    trend: "same",
    comparison: "igual que el 26 de noviembre: ninguna",
  });
  assert.deepEqual(compareCounts(0, 4, { period, none: "ninguna" }), {
    trend: "down",
    comparison: "100% menos que el 26 de noviembre",
  });
});

Deno.test("formatDayRange and formatMonthRange: dates in Spanish words", () => {
  assert.equal(
    formatDayRange({ from: "2026-10-29", to: "2026-11-27" }),
    "del 29 de octubre al 27 de noviembre de 2026",
  );
  assert.equal(
    formatDayRange({ from: "2026-10-01", to: "2026-10-28" }, { year: false }),
    "del 1 al 28 de octubre",
  );
  assert.equal(
    formatDayRange({ from: "2025-12-29", to: "2026-01-03" }, { year: false }),
    "del 29 de diciembre de 2025 al 3 de enero de 2026",
  );
  assert.equal(
    formatDayRange({ from: "2026-11-27", to: "2026-11-27" }),
    "el 27 de noviembre de 2026",
  );
  assert.equal(formatMonthRange("2026-11", "2026-11"), "en noviembre de 2026");
  assert.equal(
    formatMonthRange("2025-12", "2026-01"),
    "de diciembre de 2025 a enero de 2026",
  );
});

Deno.test("getPreviousRange: as many days, ending the day before", () => {
  assert.deepEqual(getPreviousRange({ from: "2026-10-29", to: "2026-11-27" }), {
    from: "2026-09-29",
    to: "2026-10-28",
  });
  assert.deepEqual(getPreviousRange({ from: "2026-03-01", to: "2026-03-01" }), {
    from: "2026-02-28",
    to: "2026-02-28",
  });
});

Deno.test("getQuickRanges: today's, in the municipality's calendar", () => {
  // 5 January 2026, 23:00 in UTC: still the 4th in Mexico City.
  const ranges = getQuickRanges(
    new Date("2026-01-05T05:00:00Z"),
    "America/Mexico_City",
  );
  assert.deepEqual(ranges.map((r) => [r.label, r.from, r.to]), [
    ["Hoy", "2026-01-04", "2026-01-04"],
    ["7 días", "2025-12-29", "2026-01-04"],
    ["Este mes", "2026-01-01", "2026-01-04"],
    ["Mes pasado", "2025-12-01", "2025-12-31"],
    ["Este año", "2026-01-01", "2026-01-04"],
  ]);
});

Deno.test("getDateTicks: few enough Spanish labels for the width", () => {
  const days = (from: string, n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000)
          .toISOString().slice(0, 10),
    );
  const labels = (list: string[], dateTicks: number) =>
    getDateTicks(list, { dateTicks }).map((tick) => tick.label);
  assert.deepEqual(labels(days("2026-11-21", 7), 7), [
    "sáb 21",
    "dom 22",
    "lun 23",
    "mar 24",
    "mié 25",
    "jue 26",
    "vie 27",
  ]);
  assert.deepEqual(labels(days("2026-10-29", 30), 4), [
    "29 oct",
    "6 nov",
    "14 nov",
    "22 nov",
  ]);
  const year = labels(days("2026-01-01", 331), 4);
  assert.deepEqual(year, ["ene 2026", "abr", "jul", "oct"]);
});

import assert from "node:assert/strict";
import type { Dashboard } from "@/lib/db/stats.ts";
import {
  type DashboardCharts,
  presentDashboard,
  renderDashboardCharts,
} from "./dashboard.ts";

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
      { day: DAYS[0], questions: 4, answered: 2, refused: 1, failed: 1 },
      { day: DAYS[1], questions: 0, answered: 0, refused: 0, failed: 0 },
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
  ratingsLegend: "<svg>l</svg>",
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
        // The legend goes above the stacked bars.
        ["grafica-calificaciones", "<svg>l</svg><svg>r</svg>"],
        ["grafica-asistente", "<svg>c</svg>"],
      ]);
      const notes = view.charts.filter((chart) => chart.note).map((c) => c.id);
      assert.deepEqual(notes, ["grafica-sellos", "grafica-calificaciones"]);
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
      ["2026-11-21", 2, 1, 1],
      ["2026-11-22", 0, 0, 2],
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
  assert.match(charts.visitsByDay, /del 2026-11-21 al 2026-11-22/);
  assert.match(charts.visitsByAttraction, /Plaza Principal/);
});

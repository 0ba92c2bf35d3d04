import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import {
  type MonthFigures,
  type MonthlyReport,
  renderMonthlyReportPdf,
} from "./report.ts";

const FIGURES: MonthFigures = {
  visits: 120,
  newTourists: 40,
  passports: 12,
  tickets: 3,
  ratings: 10,
  averageRating: 4.25,
  questions: 30,
  answered: 27,
};

/** A November report with `questions` long questions, drawn and read back page by page. */
async function readReport(
  { questions, words }: { questions: number; words: number },
): Promise<string[]> {
  const report: MonthlyReport = {
    month: "2026-11",
    previousMonth: "2026-10",
    municipality: "Tequila, Jalisco",
    town: "Tequila",
    timeZone: "America/Mexico_City",
    brand: "Visita Tequila",
    issuedAt: "2026-12-02T16:15:00.000Z",
    runningUntil: null,
    current: FIGURES,
    previous: FIGURES,
    visitsByDay: Array.from({ length: 30 }, (_, i) => ({
      day: `2026-11-${String(i + 1).padStart(2, "0")}`,
      visits: i % 7,
    })),
    topAttractions: Array.from(
      { length: 10 },
      (_, i) => [`Atractivo número ${i + 1}`, 50 - i],
    ),
    questions: Array.from({ length: questions }, (_, i) => ({
      text: `Pregunta ${i + 1}: ${"palabra ".repeat(words)}fin ${i + 1}`,
      count: 20 - i,
      lastAskedAt: "2026-11-20T18:00:00.000Z",
      resolved: i % 2 === 1,
    })),
    questionsGone: false,
    questionRetentionDays: 90,
    prizes: [],
  };
  const bytes = await renderMonthlyReportPdf(report, {
    colors: { primary: "#1f5c63", accent: "#e0a526" },
  });
  const pdf = await getDocumentProxy(bytes);
  const { text } = await extractText(pdf, { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, " "));
}

const HEAD = /Pregunta Veces Última vez Estado/;

Deno.test("renderMonthlyReportPdf: tables kept together, pages numbered", async (t) => {
  await t.step(
    "a table that fits on a page starts on one with its heading, never at a foot",
    async () => {
      const pages = await readReport({ questions: 10, words: 12 });
      const at = pages.findIndex((page) =>
        page.includes("Lo que preguntaron y los datos no respondieron")
      );
      assert.ok(at >= 0, pages.join("\n---\n"));
      // The heading, the table's head and every row on one page.
      assert.match(pages[at], HEAD);
      for (let i = 1; i <= 10; i++) {
        assert.ok(pages[at].includes(`fin ${i}`), `row ${i} on page ${at + 1}`);
      }
      pages.forEach((page, i) =>
        assert.ok(page.includes(`Página ${i + 1} de ${pages.length}`), page)
      );
    },
  );

  await t.step(
    "a table longer than a page repeats its head on the next",
    async () => {
      const pages = await readReport({ questions: 10, words: 120 });
      const withRows = pages.filter((page) => /Pregunta \d+:/.test(page));
      assert.ok(withRows.length >= 2, `${withRows.length} pages of questions`);
      for (const page of withRows) assert.match(page, HEAD);
      // Every row is there, once.
      const all = pages.join(" ");
      for (let i = 1; i <= 10; i++) {
        assert.equal(all.split(`fin ${i} `).length - 1, 1, `row ${i}`);
      }
      assert.ok(
        pages.at(-1)!.includes(`Página ${pages.length} de ${pages.length}`),
      );
    },
  );

  await t.step("a finished month carries no running mark", async () => {
    const pages = await readReport({ questions: 1, words: 3 });
    assert.doesNotMatch(pages.join(" "), /Mes en curso/);
    assert.match(
      pages[0],
      /Emitido el 2 de diciembre de 2026 a las 10:15, hora local de Tequila/,
    );
  });
});

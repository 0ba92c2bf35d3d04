/**
 * CSV formula injection: every CSV the portal writes opens in a spreadsheet
 * as text. A tourist's note or an attraction's name that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return comes out prefixed with `'`
 * (OWASP's rule), in each file, public and staff.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import {
  createTestContext,
  mutateShipped,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const [PLAZA] = SHIPPED.attractions;
/** An operator's slip (or a hostile data-set edit) in an attraction's name. */
const FORMULA_NAME = '=HYPERLINK("http://127.0.0.1/x","Plaza")';
/** What tourists write in their notes, one per starting character. */
const FORMULA_NOTES = [
  '=HYPERLINK("http://127.0.0.1/?d="&A1,"ver")',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "\uFF1D1+1",
];
/** Noon in Tequila (UTC-6) on 10 March 2026. */
const VISIT_DAY = new Date("2026-03-10T18:00:00Z");
const MONTH_LATER = 32 * 24 * 60 * 60 * 1000;

/** True where a spreadsheet would read `cell` as a formula. */
function isFormula(cell: string): boolean {
  return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell);
}

async function getCsvRows(
  ctx: TestContext,
  path: string,
  cookie?: string,
): Promise<string[][]> {
  const res = await ctx.app.request(path, {
    headers: cookie ? { cookie } : {},
  });
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
  return parse(await res.text());
}

Deno.test("CSV files: no cell starts a formula", async (t) => {
  const data = await parseTourismData(
    mutateShipped((d) => d.attractions[0].name = FORMULA_NAME),
  );
  await using ctx = await createTestContext({
    clockStart: VISIT_DAY,
    data: new DataStore(data, { onWarning: () => {} }),
  });
  for (const notes of FORMULA_NOTES) {
    const userId = randomUserId();
    const visit = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
      code: PLAZA.guideCode,
      userId,
    });
    assert.equal(visit.status, 200, await visit.text());
    const rated = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
      userId,
      atractivoSlug: PLAZA.slug,
      rating: 4,
      notes,
    });
    assert.equal(rated.status, 200, await rated.text());
  }
  ctx.clock.advance(MONTH_LATER);

  await t.step(
    "calificaciones-con-notas.csv: tourists' notes are text",
    async () => {
      const rows = await getCsvRows(
        ctx,
        "/panel/exportar/calificaciones-con-notas.csv",
        await signInStaff(ctx),
      );
      const notes = rows.slice(1).map((row) => row[4]).sort();
      assert.deepEqual(notes, FORMULA_NOTES.map((n) => `'${n}`).sort());
      assert.deepEqual(rows.flat().filter(isFormula), []);
    },
  );

  for (const file of ["visitas-diarias.csv", "calificaciones-mensuales.csv"]) {
    await t.step(`${file}: attraction names are text`, async () => {
      const rows = await getCsvRows(ctx, `/datos/${file}`);
      const names = rows.slice(1).map((row) => row[2]);
      assert.ok(names.length > 0, "the file has rows");
      assert.ok(names.includes(`'${FORMULA_NAME}`), names.join());
      assert.deepEqual(rows.flat().filter(isFormula), []);
    });
  }
});

Deno.test("CSV files: one writer, csv.ts, escapes formulas for all", async () => {
  const writers: string[] = [];
  for (const folder of ["lib", "routes", "scripts"]) {
    for await (
      const path of listSourceFiles(
        new URL(`../../${folder}/`, import.meta.url),
      )
    ) {
      const text = await Deno.readTextFile(path);
      if (/from "csv-stringify/.test(text)) {
        writers.push(
          path.pathname.replace(/.*\/(lib|routes|scripts)\//, "$1/"),
        );
      }
    }
  }
  assert.deepEqual(writers, ["lib/open_data/csv.ts"]);
});

async function* listSourceFiles(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* listSourceFiles(url);
    else if (/\.tsx?$/.test(entry.name)) yield url;
  }
}

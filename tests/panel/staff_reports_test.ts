/**
 * The staff's reports to hand on, parsed back as a reader would: the
 * monthly PDF report (`/panel/informe?mes=`) to its text, the workbook
 * (`/panel/exportar/libro.xlsx`) to its sheets and cells, and the posters
 * (`/panel/carteles.pdf`) to their pages. The seeded history has a count
 * under 5 that the public files blank: the staff's files show it exactly.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { extractText, getDocumentProxy } from "unpdf";
import { createStaffSession } from "@/lib/db/staff_sessions.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import { recordUnansweredQuestion } from "@/lib/db/unanswered_questions.ts";
import { createTestContext, type TestContext } from "../test_utils.ts";

const TZ = "America/Mexico_City";
const HOUR = 3_600_000;
/** Monday 5 October 2026, 12:00 in the municipality (UTC-6 since 2022). */
const OCTOBER = new Date("2026-10-05T18:00:00Z");
/** Tuesday 6 October 2026, 23:30 local: already the 7th in UTC. */
const LATE = new Date("2026-10-07T05:30:00Z");
/** 15 September 2026, 12:00 local. */
const SEPTEMBER = new Date("2026-09-15T18:00:00Z");
/** When the staff download: November, October is over. */
const NOW = new Date("2026-11-10T18:00:00Z");
const QUESTION = "¿Hay estacionamiento para autobuses en el centro?";

async function staffCookie(ctx: TestContext, role: "admin" | "viewer") {
  const { sessionId } = await createStaffSession(ctx.deps.kv, {
    staff: {
      id: `${role}@municipio.gob.mx`,
      email: `${role}@municipio.gob.mx`,
      role,
    },
    now: ctx.clock.now(),
  });
  return `staff=${sessionId}`;
}

function get(ctx: TestContext, path: string, cookie?: string) {
  return Promise.resolve(ctx.app.request(path, {
    headers: cookie ? { cookie } : {},
  }));
}

/** October: 7 visits at the first attraction, 2 (under 5) at the second; September: 3 at the first. */
async function seed(ctx: TestContext) {
  const { kv } = ctx.deps;
  const { data } = ctx.deps.data.current();
  const [first, second] = data.attractions;
  const visit = (userId: string, slug: string, now: Date) =>
    recordVisit(kv, { userId, slug, now, totalAttractions: 17, timeZone: TZ });
  const users = Array.from({ length: 12 }, () => crypto.randomUUID());
  for (const userId of users.slice(0, 7)) {
    await visit(userId, first.slug, OCTOBER);
  }
  for (const userId of users.slice(7, 9)) {
    await visit(userId, second.slug, LATE);
  }
  for (const userId of users.slice(9)) {
    await visit(userId, first.slug, SEPTEMBER);
  }
  // Rated at 14:30 local on 5 October (20:30 UTC).
  await rateVisit(kv, {
    userId: users[0],
    slug: first.slug,
    rating: 4,
    notes: "Muy bonita la plaza",
    now: new Date(OCTOBER.getTime() + 2.5 * HOUR),
    timeZone: TZ,
  });
  await recordUnansweredQuestion(kv, {
    key: "estacionamiento autobuses centro",
    text: QUESTION,
    now: new Date(NOW.getTime() - 24 * HOUR),
  });
  return { first, second };
}

async function readPdf(res: Response) {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const pdf = await getDocumentProxy(bytes);
  return await extractText(pdf, { mergePages: false });
}

Deno.test("GET /panel/informe: the month's PDF report", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });
  const { first, second } = await seed(ctx);
  const admin = await staffCookie(ctx, "admin");
  const viewer = await staffCookie(ctx, "viewer");

  await t.step(
    "mes=2026-10 answers a PDF attachment, kept by no cache",
    async () => {
      const res = await get(ctx, "/panel/informe?mes=2026-10", admin);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.equal(
        res.headers.get("content-disposition"),
        'attachment; filename="informe-turismo-2026-10.pdf"',
      );
      assert.match(res.headers.get("cache-control") ?? "", /no-store/);
      const { text } = await readPdf(res);
      const all = text.join("\n");
      assert.match(all, /octubre de 2026/);
      assert.match(all, /Tequila/);
      // October's 9 visits beside September's 3.
      assert.match(all, /Visitas verificadas\s*9\s*3/);
      // The month's one rating: 4.0.
      assert.match(
        all,
        /Calificación promedio \(calificaciones\)\s*4\.0 \(1\)/,
      );
      // The most visited first, the small count exact.
      const top = all.indexOf("Atractivos más visitados");
      assert.ok(top > 0, all);
      const firstAt = all.indexOf(first.name, top);
      const secondAt = all.indexOf(second.name, top);
      assert.ok(firstAt > 0 && secondAt > firstAt, all);
      assert.match(all.slice(secondAt), /^[^\n]*?\s*2\b/);
      assert.ok(all.includes(QUESTION), all);
    },
  );

  await t.step(
    "a viewer may download it too; no mes means last month",
    async () => {
      const res = await get(ctx, "/panel/informe", viewer);
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get("content-disposition"),
        'attachment; filename="informe-turismo-2026-10.pdf"',
      );
      await res.body?.cancel();
    },
  );

  await t.step(
    "a month that is not one answers 400 in the console",
    async () => {
      const res = await get(ctx, "/panel/informe?mes=2026-13", admin);
      assert.equal(res.status, 400);
      assert.match(await res.text(), /AAAA-MM/);
    },
  );

  await t.step("no staff cookie: the ordinary 404", async () => {
    const res = await get(ctx, "/panel/informe?mes=2026-10");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  });
});

Deno.test("GET /panel/exportar/libro.xlsx: the staff's exact figures", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });
  const { first, second } = await seed(ctx);
  const viewer = await staffCookie(ctx, "viewer");

  await t.step(
    "a workbook attachment, one sheet a table, exact counts",
    async () => {
      const res = await get(ctx, "/panel/exportar/libro.xlsx", viewer);
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get("content-type"),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      );
      assert.match(
        res.headers.get("content-disposition") ?? "",
        /^attachment; filename="[^"]+\.xlsx"$/,
      );
      assert.match(res.headers.get("cache-control") ?? "", /no-store/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await res.arrayBuffer());
      assert.deepEqual(book.worksheets.map((sheet) => sheet.name), [
        "Visitas por día",
        "Calificaciones por mes",
        "Notas",
        "Pasaportes y boletos",
        "Asistente",
      ]);

      const visits = book.getWorksheet("Visitas por día")!;
      const header = visits.getRow(1);
      assert.deepEqual((header.values as unknown[]).slice(1), [
        "Día",
        "Atractivo",
        "Nombre",
        "Visitas",
      ]);
      assert.equal(header.font?.bold, true);
      const rows = visits.getSheetValues().slice(2).map((row) =>
        (row as unknown[]).slice(1)
      );
      assert.deepEqual(rows, [
        [new Date("2026-09-15T00:00:00Z"), first.slug, first.name, 3],
        [new Date("2026-10-05T00:00:00Z"), first.slug, first.name, 7],
        // 23:30 local on the 6th: the 6th, and 2 (the public file blanks it).
        [new Date("2026-10-06T00:00:00Z"), second.slug, second.name, 2],
      ]);

      const ratings = book.getWorksheet("Calificaciones por mes")!;
      assert.deepEqual((ratings.getRow(2).values as unknown[]).slice(1), [
        new Date("2026-10-01T00:00:00Z"),
        first.slug,
        first.name,
        1,
        4,
      ]);

      const notes = book.getWorksheet("Notas")!;
      const note = (notes.getRow(2).values as unknown[]).slice(1);
      // 14:30 on the municipality's clock, as a date Excel shows as such.
      assert.deepEqual(note, [
        new Date("2026-10-05T14:30:00Z"),
        first.slug,
        first.name,
        4,
        "Muy bonita la plaza",
      ]);
      assert.equal(notes.getCell("A2").numFmt, "yyyy-mm-dd hh:mm");
    },
  );

  await t.step("the public file of the same visits blanks the 2", async () => {
    const res = await get(ctx, "/datos/visitas-diarias.csv");
    assert.equal(res.status, 200);
    const csv = await res.text();
    assert.match(csv, new RegExp(`2026-10-06,${second.slug},[^\\n]*,\\r?\\n`));
  });

  await t.step("no staff cookie: the ordinary 404", async () => {
    const res = await get(ctx, "/panel/exportar/libro.xlsx");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  });
});

Deno.test("GET /panel/carteles.pdf: every poster, one page each", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });
  const admin = await staffCookie(ctx, "admin");
  const viewer = await staffCookie(ctx, "viewer");
  const { data } = ctx.deps.data.current();

  await t.step(
    "17 pages, each with its attraction and guide code",
    async () => {
      const res = await get(ctx, "/panel/carteles.pdf", admin);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.equal(
        res.headers.get("content-disposition"),
        'attachment; filename="carteles.pdf"',
      );
      assert.match(res.headers.get("cache-control") ?? "", /no-store/);
      const { totalPages, text } = await readPdf(res);
      assert.equal(totalPages, 17);
      assert.equal(data.attractions.length, 17);
      data.attractions.forEach((attraction, i) => {
        const words = attraction.name.split(/\s+/);
        for (const word of words) {
          assert.ok(text[i].includes(word), `${word} in ${text[i]}`);
        }
        // Its QR's link, with the attraction's current code.
        assert.match(
          text[i],
          new RegExp(
            `/turismo/atractivos/${attraction.slug}\\?codigo=[A-Z0-9]{4,}`,
          ),
        );
      });
    },
  );

  await t.step("a viewer may not: the posters carry the codes", async () => {
    const res = await get(ctx, "/panel/carteles.pdf", viewer);
    assert.equal(res.status, 403);
    await res.body?.cancel();
  });

  await t.step("no staff cookie: the ordinary 404", async () => {
    const res = await get(ctx, "/panel/carteles.pdf");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  });
});

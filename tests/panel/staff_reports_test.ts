/**
 * The staff's reports to hand on, parsed back as a reader would: the
 * monthly PDF report (`/panel/informe?mes=`) to its text, page by page,
 * the workbook (`/panel/exportar/libro.xlsx?mes=`) to its sheets and
 * cells, and the posters (`/panel/carteles.pdf`, all or one) to their
 * pages; and the exports page's month pickers. The seeded history has a
 * count under 5 that the public files blank: the staff's files show it
 * exactly; a question asked in October and one asked in November show
 * each in its own month's report only.
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
/** Asked on 9 November: in November's report, never in October's. */
const LATER_QUESTION = "¿A qué hora cierra el mirador del volcán?";
/** 20 October 2026, 12:00 local. */
const OCTOBER_20 = new Date("2026-10-20T18:00:00Z");

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
    now: OCTOBER_20,
  });
  await recordUnansweredQuestion(kv, {
    key: "hora cierra mirador volcan",
    text: LATER_QUESTION,
    now: new Date(NOW.getTime() - 24 * HOUR),
  });
  return { first, second };
}

async function readPdf(res: Response) {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const pdf = await getDocumentProxy(bytes);
  return await extractText(pdf, { mergePages: false });
}

/** A PDF's text as one line: a table's cell wraps where its column ends. */
async function readPdfLine(res: Response): Promise<string> {
  return (await readPdf(res)).text.join(" ").replace(/\s+/g, " ");
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
      // October's question, never November's.
      const line = all.replace(/\s+/g, " ");
      assert.ok(line.includes(QUESTION), all);
      assert.ok(!line.includes(LATER_QUESTION), all);
      assert.doesNotMatch(all, /Mes en curso/);
    },
  );

  await t.step(
    "every page is numbered, the first says when it was issued",
    async () => {
      const res = await get(ctx, "/panel/informe?mes=2026-10", admin);
      const { totalPages, text } = await readPdf(res);
      assert.ok(totalPages >= 1);
      text.forEach((page, i) => {
        assert.ok(
          page.includes(`Página ${i + 1} de ${totalPages}`),
          `page ${i + 1}: ${page}`,
        );
      });
      // 18:00 UTC on 10 November is noon in Tequila.
      assert.match(
        text[0],
        /Emitido el 10 de noviembre de 2026 a las 12:00, hora local de Tequila/,
      );
    },
  );

  await t.step(
    "the month still running says so, and up to which day",
    async () => {
      const res = await get(ctx, "/panel/informe?mes=2026-11", admin);
      assert.equal(res.status, 200);
      const all = await readPdfLine(res);
      assert.match(all, /Mes en curso: datos hasta el 10 de noviembre de 2026/);
      assert.match(all, /Noviembre de 2026 \(hasta el 10 de noviembre\)/);
      assert.ok(all.includes(LATER_QUESTION), all);
      assert.ok(!all.includes(QUESTION), "October's question stays October's");
    },
  );

  await t.step(
    "an empty month lists no question of another month",
    async () => {
      const res = await get(ctx, "/panel/informe?mes=2026-08", admin);
      const all = await readPdfLine(res);
      assert.ok(!all.includes(QUESTION) && !all.includes(LATER_QUESTION), all);
      assert.match(
        all,
        /En agosto de 2026 nadie hizo una pregunta que los datos no respondieran/,
      );
      assert.match(all, /Visitas verificadas\s*0\s*0/);
    },
  );

  await t.step(
    "a month past the questions' keeping says they are gone",
    async () => {
      const res = await get(ctx, "/panel/informe?mes=2026-06", admin);
      const all = await readPdfLine(res);
      assert.match(all, /Las preguntas se guardan 90 días/);
    },
  );

  await t.step("a month not begun answers 400 in the console", async () => {
    const res = await get(ctx, "/panel/informe?mes=2026-12", admin);
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Ese mes todavía no empieza/);
  });

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

/** A sheet's rows under its header, each row's cells from column A. */
function readRows(sheet: ExcelJS.Worksheet): unknown[][] {
  return sheet.getSheetValues().slice(2).map((row) =>
    (row as unknown[]).slice(1)
  );
}

function readHeader(sheet: ExcelJS.Worksheet): unknown[] {
  return (sheet.getRow(1).values as unknown[]).slice(1);
}

async function readBook(res: Response): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await res.arrayBuffer());
  return book;
}

/** Every day of a month, as the spreadsheet dates of its rows. */
function listSheetDays(from: string, count: number): Date[] {
  return Array.from(
    { length: count },
    (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000),
  );
}

Deno.test("GET /panel/exportar/libro.xlsx: the staff's exact figures", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });
  const { first, second } = await seed(ctx);
  const viewer = await staffCookie(ctx, "viewer");
  const { data } = ctx.deps.data.current();
  const slugs = new Set(data.attractions.map((a) => a.slug));

  await t.step(
    "mes=2026-10: a workbook of October, one sheet a table, exact counts",
    async () => {
      const res = await get(
        ctx,
        "/panel/exportar/libro.xlsx?mes=2026-10",
        viewer,
      );
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get("content-type"),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      );
      assert.equal(
        res.headers.get("content-disposition"),
        'attachment; filename="turismo-cifras-2026-10.xlsx"',
      );
      assert.match(res.headers.get("cache-control") ?? "", /no-store/);
      const book = await readBook(res);
      assert.deepEqual(book.worksheets.map((sheet) => sheet.name), [
        "Visitas por día",
        "Calificaciones del mes",
        "Notas",
        "Pasaportes y boletos",
        "Asistente",
        "Premios",
        "Premios por día",
      ]);

      const visits = book.getWorksheet("Visitas por día")!;
      assert.deepEqual(readHeader(visits), [
        "Día",
        "Total",
        ...data.attractions.map((a) => a.name),
      ]);
      assert.equal(visits.getRow(1).font?.bold, true);
      const rows = readRows(visits);
      const column = (slug: string) =>
        2 + data.attractions.findIndex((a) => a.slug === slug);
      const fifth = rows[4];
      assert.deepEqual(fifth[0], new Date("2026-10-05T00:00:00Z"));
      assert.equal(fifth[1], 7);
      assert.equal(fifth[column(first.slug)], 7);
      // 23:30 local on the 6th: the 6th, and 2 (the public file blanks it).
      const sixth = rows[5];
      assert.equal(sixth[1], 2);
      assert.equal(sixth[column(second.slug)], 2);
      assert.equal(rows[0][1], 0, "a day without visits has its row, zero");

      const ratings = book.getWorksheet("Calificaciones del mes")!;
      assert.deepEqual(readHeader(ratings), [
        "Atractivo",
        "Calificaciones",
        "Promedio",
      ]);
      assert.deepEqual(readRows(ratings)[0], [first.name, 1, 4]);

      const notes = book.getWorksheet("Notas")!;
      assert.deepEqual(readHeader(notes), [
        "Fecha y hora",
        "Atractivo",
        "Calificación",
        "Notas",
      ]);
      // 14:30 on the municipality's clock, as a date Excel shows as such.
      assert.deepEqual(readRows(notes), [[
        new Date("2026-10-05T14:30:00Z"),
        first.name,
        4,
        "Muy bonita la plaza",
      ]]);
      assert.equal(notes.getCell("A2").numFmt, "yyyy-mm-dd hh:mm");

      assert.deepEqual(readHeader(book.getWorksheet("Asistente")!), [
        "Día",
        "Preguntas recibidas",
        "Respondidas",
        "Sin respuesta: demasiadas seguidas",
        "Sin respuesta: falló el asistente",
      ]);
      assert.deepEqual(readHeader(book.getWorksheet("Pasaportes y boletos")!), [
        "Día",
        "Pasaportes de invitado",
        "Cuentas nuevas",
        "Boletos",
      ]);
    },
  );

  await t.step(
    "every sheet by day lists the same days, all of the month",
    async () => {
      const res = await get(
        ctx,
        "/panel/exportar/libro.xlsx?mes=2026-10",
        viewer,
      );
      const book = await readBook(res);
      const october = listSheetDays("2026-10-01", 31);
      for (
        const name of ["Visitas por día", "Pasaportes y boletos", "Asistente"]
      ) {
        const days = readRows(book.getWorksheet(name)!).map((row) => row[0]);
        assert.deepEqual(days, october, name);
      }
    },
  );

  await t.step(
    "no column names a status code and no cell holds an id",
    async () => {
      const res = await get(
        ctx,
        "/panel/exportar/libro.xlsx?mes=2026-10",
        viewer,
      );
      const book = await readBook(res);
      book.eachSheet((sheet) => {
        for (const header of readHeader(sheet)) {
          assert.doesNotMatch(String(header), /\(\d{3}\)|\d{3}/, sheet.name);
        }
        sheet.eachRow((row) =>
          row.eachCell((cell) => {
            assert.ok(
              !slugs.has(String(cell.value)),
              `${sheet.name}: ${cell.value}`,
            );
          })
        );
      });
    },
  );

  await t.step(
    "no mes: the month now running, up to today",
    async () => {
      const res = await get(ctx, "/panel/exportar/libro.xlsx", viewer);
      assert.equal(
        res.headers.get("content-disposition"),
        'attachment; filename="turismo-cifras-2026-11.xlsx"',
      );
      const book = await readBook(res);
      const november = listSheetDays("2026-11-01", 10);
      for (
        const name of ["Visitas por día", "Pasaportes y boletos", "Asistente"]
      ) {
        const days = readRows(book.getWorksheet(name)!).map((row) => row[0]);
        assert.deepEqual(days, november, name);
      }
      assert.deepEqual(readRows(book.getWorksheet("Notas")!), []);
    },
  );

  await t.step("a month not begun, or not one: 400", async () => {
    for (const mes of ["2026-12", "2026-13", "octubre"]) {
      const res = await get(
        ctx,
        `/panel/exportar/libro.xlsx?mes=${mes}`,
        viewer,
      );
      assert.equal(res.status, 400, mes);
      assert.match(res.headers.get("content-type") ?? "", /text\/html/);
      await res.body?.cancel();
    }
  });

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

Deno.test("GET /panel/exportar: a month picker for the report and the workbook", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });
  await seed(ctx);
  const admin = await staffCookie(ctx, "admin");

  await t.step(
    "each form offers the months with data, the running one first",
    async () => {
      const res = await get(ctx, "/panel/exportar", admin);
      assert.equal(res.status, 200);
      const html = await res.text();
      for (const action of ["/panel/informe", "/panel/exportar/libro.xlsx"]) {
        const form = html.match(
          new RegExp(`<form[^>]*action="${action}"[\\s\\S]*?</form>`),
        )?.[0];
        assert.ok(form, action);
        assert.match(form, /method="get"/);
        const options = [
          ...form.matchAll(/<option[^>]*value="([^"]+)"[^>]*>([^<]*)/g),
        ]
          .map((m) => [m[1], m[2]]);
        // September (the first visit) to November (now), newest first.
        assert.deepEqual(options, [
          ["2026-11", "noviembre de 2026 (en curso)"],
          ["2026-10", "octubre de 2026"],
          ["2026-09", "septiembre de 2026"],
        ]);
        assert.match(form, /<option[^>]*selected[^>]*>noviembre/);
      }
    },
  );

  await t.step(
    "plain words: no address to type, no time zone's id",
    async () => {
      const res = await get(ctx, "/panel/exportar", admin);
      const html = await res.text();
      assert.ok(!html.includes("AAAA-MM"), "no address to type");
      assert.ok(!html.includes("America/Mexico_City"), "no zone id");
      assert.match(html, /hora local de Tequila/);
    },
  );

  await t.step("an admin finds each attraction's poster as a PDF", async () => {
    const res = await get(ctx, "/panel/exportar", admin);
    const html = await res.text();
    const { data } = ctx.deps.data.current();
    for (const a of data.attractions) {
      assert.ok(
        html.includes(`href="/panel/carteles.pdf?atractivo=${a.slug}"`),
        a.slug,
      );
    }
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

  await t.step(
    "?atractivo=: that attraction's poster alone, with its code",
    async () => {
      const attraction = data.attractions[3];
      const res = await get(
        ctx,
        `/panel/carteles.pdf?atractivo=${attraction.slug}`,
        admin,
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="cartel-${attraction.slug}.pdf"`,
      );
      const { totalPages, text } = await readPdf(res);
      assert.equal(totalPages, 1);
      for (const word of attraction.name.split(/\s+/)) {
        assert.ok(text[0].includes(word), `${word} in ${text[0]}`);
      }
      assert.match(
        text[0],
        new RegExp(
          `/turismo/atractivos/${attraction.slug}\\?codigo=[A-Z0-9]{4,}`,
        ),
      );
    },
  );

  await t.step("an attraction that does not exist: 404", async () => {
    const res = await get(
      ctx,
      "/panel/carteles.pdf?atractivo=no-existe",
      admin,
    );
    assert.equal(res.status, 404);
    await res.body?.cancel();
  });

  await t.step("a viewer may not: the posters carry the codes", async () => {
    for (
      const path of [
        "/panel/carteles.pdf",
        `/panel/carteles.pdf?atractivo=${data.attractions[0].slug}`,
      ]
    ) {
      const res = await get(ctx, path, viewer);
      assert.equal(res.status, 403, path);
      await res.body?.cancel();
    }
  });

  await t.step("no staff cookie: the ordinary 404", async () => {
    const res = await get(ctx, "/panel/carteles.pdf");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  });
});

/**
 * The partners' prizes in the staff's reports, parsed back as a reader
 * would: the council's PDF report to its text and the workbook to its
 * cells, each matching the figures the console reads
 * (lib/rewards/report.ts). Six passports reach five stamps in October,
 * three claim the prize, one is redeemed at the counter. The dashboard
 * shows the same row; the partner's own monthly PDF its part of it.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { parseHTML } from "linkedom";
import { extractText, getDocumentProxy } from "unpdf";
import { createStaffSession } from "@/lib/db/staff_sessions.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import { claimPrize, redeemPrizeClaim } from "@/lib/db/rewards.ts";
import { counterCode } from "@/lib/prizes/counter_code.ts";
import { loadPrizeReport } from "@/lib/rewards/report.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { createTestContext, type TestContext } from "../test_utils.ts";
import { storePartnerWithPrizes } from "../rewards_fixtures.ts";

const TZ = "America/Mexico_City";
/** Monday 5 October 2026, 12:00 in the municipality. */
const OCTOBER = new Date("2026-10-05T18:00:00Z");
const NOW = new Date("2026-11-10T18:00:00Z");
const ADMIN: StaffMember = {
  id: "admin@municipio.gob.mx",
  email: "admin@municipio.gob.mx",
  role: "admin",
};

async function seed(ctx: TestContext) {
  const { kv } = ctx.deps;
  const { data } = ctx.deps.data.current();
  const total = data.attractions.length;
  await storePartnerWithPrizes(kv, OCTOBER, {
    partner: {
      id: "cafe-central",
      name: "Café Central",
      address: "Portal Hidalgo 4",
      hours: "De 8:00 a 20:00",
    },
    prizes: [{
      id: "cafe-de-olla",
      name: { es: "Café de olla de regalo", en: "A free café de olla" },
      description: { es: "Con cinco sellos", en: "With five stamps" },
      validFrom: "2026-10-01",
      validUntil: "2026-12-31",
    }],
  });
  const users = Array.from({ length: 6 }, () => crypto.randomUUID());
  for (const userId of users) {
    for (const attraction of data.attractions.slice(0, 5)) {
      await recordVisit(kv, {
        userId,
        slug: attraction.slug,
        now: OCTOBER,
        totalAttractions: total,
        timeZone: TZ,
      });
    }
  }
  const rewardsData = { attractionCount: total, routes: new Map() };
  const claims = [];
  for (const userId of users.slice(0, 3)) {
    claims.push(
      (await claimPrize(kv, {
        userId,
        prizeId: "cafe-de-olla",
        guest: true,
        data: rewardsData,
        now: OCTOBER,
        timeZone: TZ,
      })).claim,
    );
  }
  const { digits } = await counterCode(claims[0], OCTOBER.getTime());
  await redeemPrizeClaim(kv, {
    partnerId: "cafe-central",
    reference: claims[0].reference,
    digits,
    requestId: "phone-1",
    now: OCTOBER,
    timeZone: TZ,
  });
}

async function adminCookie(ctx: TestContext) {
  const { sessionId } = await createStaffSession(ctx.deps.kv, {
    staff: ADMIN,
    now: ctx.clock.now(),
  });
  return `staff=${sessionId}`;
}

/** The rows of the page's table `name` (`data-table`), each cell's text. */
function tableRows(html: string, name: string): string[][] {
  const { document } = parseHTML(html);
  return [...document.querySelectorAll(`[data-table="${name}"] tbody tr`)]
    .map((row) =>
      [...row.querySelectorAll("th, td")].map((cell) =>
        cell.textContent!.trim()
      )
    );
}

Deno.test("the partners' prizes in the dashboard, the PDF report and the workbook", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });
  await seed(ctx);
  const cookie = await adminCookie(ctx);
  const { data } = ctx.deps.data.current();
  const figures = await loadPrizeReport(ctx.deps.kv, {
    from: "2026-10-01",
    to: "2026-10-31",
    attractionCount: data.attractions.length,
  });
  const [row] = figures.prizes;
  assert.deepEqual(
    [row.unlocked, row.claimed, row.redeemed, row.stockLeft],
    [6, 3, 1, 7],
  );

  await t.step("the dashboard shows the loader's figures", async () => {
    const res = await ctx.app.request(
      "/panel?desde=2026-10-01&hasta=2026-10-31",
      { headers: { cookie } },
    );
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.deepEqual(tableRows(html, "prize-figures"), [
      ["Café de olla de regalo", "Café Central", "6", "3", "1", "7"],
    ]);
    assert.deepEqual(tableRows(html, "prize-days"), [
      ["lunes 5 de octubre", "Café de olla de regalo", "6", "3", "1"],
    ]);
    // A span without them: the counts are zero, the units left stay.
    const before = await ctx.app.request(
      "/panel?desde=2026-09-01&hasta=2026-09-30",
      { headers: { cookie } },
    );
    assert.deepEqual(tableRows(await before.text(), "prize-figures"), [
      ["Café de olla de regalo", "Café Central", "0", "0", "0", "7"],
    ]);
  });

  await t.step("the PDF's prize table says what the console does", async () => {
    const res = await ctx.app.request("/panel/informe?mes=2026-10", {
      headers: { cookie },
    });
    assert.equal(res.status, 200);
    const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
    const text = (await extractText(pdf, { mergePages: true })).text
      .replace(/\s+/g, " ");
    assert.match(text, /Premios de los comercios adheridos/);
    assert.match(text, /Café Central Café de olla de regalo 6 3 1 7/);
  });

  await t.step(
    "the partner's own PDF: its prizes and days, no tourist",
    async () => {
      const res = await ctx.app.request(
        "/panel/premios/cafe-central/informe.pdf?mes=2026-10",
        { headers: { cookie } },
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      const pdf = await getDocumentProxy(
        new Uint8Array(await res.arrayBuffer()),
      );
      const text = (await extractText(pdf, { mergePages: true })).text
        .replace(/\s+/g, " ");
      assert.match(text, /Café Central/);
      assert.match(text, /Café de olla de regalo 3 1 7/);
      assert.match(text, /5 de octubre de 2026 Café de olla de regalo 1/);
      assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-/, "no user id");
      const unknown = await ctx.app.request(
        "/panel/premios/nadie/informe.pdf?mes=2026-10",
        { headers: { cookie } },
      );
      assert.equal(unknown.status, 404);
    },
  );

  await t.step("the workbook's sheets hold the same cells", async () => {
    const res = await ctx.app.request(
      "/panel/exportar/libro.xlsx?mes=2026-10",
      { headers: { cookie } },
    );
    assert.equal(res.status, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.getWorksheet("Premios")!;
    assert.deepEqual(
      (sheet.getRow(2).values as unknown[]).slice(1),
      ["Café Central", "Café de olla de regalo", 6, 3, 1, 7, 10],
    );
    const byDay = book.getWorksheet("Premios por día")!;
    const days = byDay.getRows(2, byDay.rowCount - 1)!.map((r) =>
      (r.values as unknown[]).slice(1)
    );
    assert.deepEqual(days, [[
      new Date("2026-10-05T00:00:00Z"),
      "Café Central",
      "Café de olla de regalo",
      6,
      3,
      1,
    ]]);
  });
});

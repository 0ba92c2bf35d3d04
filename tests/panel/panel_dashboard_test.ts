/**
 * The staff dashboard (`GET /panel`) in process: known visits, ratings,
 * tickets and chat outcomes written through the service's own writers, read
 * back as inline SVG charts (drawn by Plot) and their data tables.
 */
import assert from "node:assert/strict";
import { createStaffSession } from "@/lib/db/staff_sessions.ts";
import { createSession } from "@/lib/db/sessions.ts";
import { recordChatOutcome } from "@/lib/db/stats.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import {
  createTestContext,
  randomTicket,
  type TestContext,
} from "../test_utils.ts";

const TZ = "America/Mexico_City";
/** Monday 10 March 2025, 12:00 in the municipality (UTC-6). */
const NOW = new Date("2025-03-10T18:00:00Z");
const HOUR = 3_600_000;

async function staffCookie(ctx: TestContext, role: "admin" | "viewer") {
  const { sessionId } = await createStaffSession(ctx.deps.kv, {
    staff: { id: "ana@municipio.gob.mx", email: "ana@municipio.gob.mx", role },
    now: ctx.clock.now(),
  });
  return `staff=${sessionId}`;
}

function get(ctx: TestContext, path: string, cookie?: string) {
  return Promise.resolve(ctx.app.request(path, {
    headers: cookie ? { cookie } : {},
  }));
}

/** The rows of the data table whose caption is `caption`, as text cells. */
function readTable(html: string, caption: string): string[][] {
  const start = html.indexOf(`<caption>${caption}</caption>`);
  assert.ok(start > 0, `table "${caption}"`);
  const body = html.slice(start, html.indexOf("</table>", start));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].slice(1).map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((cell) =>
      cell[1].replace(/<[^>]+>/g, "").replace(/&nbsp;/g, " ").trim()
    )
  );
}

async function seed(ctx: TestContext) {
  const { kv } = ctx.deps;
  const { data } = ctx.deps.data.current();
  const [plaza, mercado, third] = data.attractions.map((a) => a.slug);
  const users = Array.from({ length: 5 }, () => crypto.randomUUID());
  // Monday: 3 visits at the plaza at 12:00; Tuesday: 2 at the market at 23:30.
  for (const userId of users.slice(0, 3)) {
    await recordVisit(kv, {
      userId,
      slug: plaza,
      now: NOW,
      totalAttractions: 17,
      timeZone: TZ,
    });
  }
  for (const userId of users.slice(3)) {
    await recordVisit(kv, {
      userId,
      slug: mercado,
      now: new Date(NOW.getTime() + 35.5 * HOUR),
      totalAttractions: 17,
      timeZone: TZ,
    });
  }
  await recordVisit(kv, {
    userId: users[0],
    slug: third,
    now: new Date(NOW.getTime() + HOUR),
    totalAttractions: 17,
    timeZone: TZ,
  });
  await rateVisit(kv, {
    userId: users[0],
    slug: plaza,
    rating: 5,
    notes: "Muy bonita de noche",
    now: new Date(NOW.getTime() + 2 * HOUR),
    timeZone: TZ,
  });
  await rateVisit(kv, {
    userId: users[1],
    slug: plaza,
    rating: 4,
    notes: "Mucha gente <script>",
    now: new Date(NOW.getTime() + 3 * HOUR),
    timeZone: TZ,
  });
  await saveTicket(
    kv,
    { ...randomTicket(), createdAt: NOW.toISOString() },
    { timeZone: TZ },
  );
  await createSession(kv, {
    userId: users[4],
    name: null,
    now: NOW,
    ttlMs: 365 * 24 * HOUR,
    guest: true,
    timeZone: TZ,
  });
  for (
    const outcome of ["answered", "answered", "refused", "failed"] as const
  ) {
    await recordChatOutcome(kv, { outcome, at: NOW, timeZone: TZ });
  }
  return { plaza, mercado, third };
}

Deno.test("GET /panel", async (t) => {
  await using ctx = await createTestContext({
    clockStart: new Date(NOW.getTime() + 3 * 24 * HOUR),
  });
  const names = new Map(
    ctx.deps.data.current().data.attractions.map((a) => [a.slug, a.name]),
  );
  const { plaza, mercado } = await seed(ctx);
  const viewer = await staffCookie(ctx, "viewer");

  await t.step(
    "a staff member sees the last 30 days drawn as inline SVG charts with their data",
    async () => {
      const res = await get(ctx, "/panel", viewer);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type")!, /^text\/html/);
      assert.equal(res.headers.get("cache-control"), "private, no-store");
      const html = await res.text();
      assert.match(html, /<meta name="robots" content="noindex/);
      // Today is Thursday 13 March in the municipality: 12 Feb to 13 Mar.
      assert.match(html, /name="desde" value="2025-02-12"/);
      assert.match(html, /name="hasta" value="2025-03-13"/);
      for (
        const label of [
          "Visitas por atractivo",
          "Visitas por día",
          "Visitas por hora y día de la semana",
          "Turistas por número de sellos",
          "Pasaportes abiertos y boletos por día",
          "Calificaciones por atractivo",
          "Asistente: preguntas por día",
        ]
      ) {
        assert.match(
          html,
          new RegExp(`<svg[^>]*aria-label="${label}"`),
          `chart "${label}"`,
        );
      }
      // No inline <style> (the CSP would block it): the stylesheet sizes charts.
      assert.doesNotMatch(html, /<svg[^>]*>\s*<style/);

      const byAttraction = readTable(
        html,
        "Visitas por atractivo en el periodo",
      );
      assert.equal(byAttraction.length, 17);
      assert.deepEqual(byAttraction[0], [names.get(plaza), "3"]);
      assert.deepEqual(byAttraction[1], [names.get(mercado), "2"]);

      const byDay = readTable(html, "Visitas por día");
      assert.equal(byDay.length, 30);
      assert.deepEqual(byDay.find((row) => row[0] === "lun 10 mar 2025"), [
        "lun 10 mar 2025",
        "4",
      ]);
      // 23:30 on Tuesday in the municipality, not Wednesday in UTC.
      assert.deepEqual(byDay.find((row) => row[0] === "mar 11 mar 2025"), [
        "mar 11 mar 2025",
        "2",
      ]);

      const byHour = readTable(
        html,
        "Visitas por día de la semana (filas) y hora (columnas)",
      );
      assert.equal(byHour[0][0], "Lunes");
      assert.equal(byHour[0][1 + 12], "3");
      assert.equal(byHour[0][1 + 13], "1");
      assert.equal(byHour[1][1 + 23], "2");

      assert.deepEqual(readTable(html, "Turistas por número de sellos"), [
        ["1 sello", "5", "5"],
        ["5 sellos", "0", "0"],
        ["10 sellos", "0", "0"],
        ["17 sellos", "0", "0"],
      ]);
      assert.deepEqual(
        readTable(html, "Pasaportes y boletos por día").find((row) =>
          row[0] === "lun 10 mar 2025"
        ),
        ["lun 10 mar 2025", "1", "0", "1"],
      );
      assert.deepEqual(
        readTable(html, "Calificaciones por atractivo").find((row) =>
          row[0] === names.get(plaza)
        ),
        [names.get(plaza), "4.5", "2", "0", "0", "0", "1", "1"],
      );
      assert.deepEqual(
        readTable(html, "Preguntas al asistente por día").find((row) =>
          row[0] === "lun 10 mar 2025"
        ),
        ["lun 10 mar 2025", "4", "2", "0", "1", "1"],
      );

      // The latest notes, newest first, escaped.
      const notes = html.slice(html.indexOf('id="ultimas-notas"'));
      assert.ok(
        notes.indexOf("Mucha gente &lt;script&gt;") <
          notes.indexOf("Muy bonita de noche"),
      );
      assert.ok(notes.indexOf("Muy bonita de noche") > 0);
      // On the municipality's clock, in words.
      assert.match(notes, /10 de marzo de 2025, 2:00 p\.m\./);
    },
  );

  await t.step("a range asked for is the one shown", async () => {
    const res = await get(
      ctx,
      "/panel?desde=2025-03-11&hasta=2025-03-11",
      viewer,
    );
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.deepEqual(readTable(html, "Visitas por día"), [[
      "mar 11 mar 2025",
      "2",
    ]]);
    assert.deepEqual(
      readTable(html, "Visitas por atractivo en el periodo")[0],
      [names.get(mercado), "2"],
    );
  });

  await t.step(
    "headline figures against the days before, and quick ranges as plain links",
    async () => {
      const res = await get(
        ctx,
        "/panel?desde=2025-03-10&hasta=2025-03-11",
        viewer,
      );
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /Cifras del 10 al 11 de marzo de 2025/);
      const visits = html.slice(html.indexOf('id="cifra-visitas"'));
      assert.match(visits, /headline__value">6</);
      assert.match(visits, /del 8 al 9 de marzo no hubo ninguna/);
      // Links that work without JavaScript; today is 13 March.
      for (
        const [label, from, to] of [
          ["Hoy", "2025-03-13", "2025-03-13"],
          ["7 días", "2025-03-07", "2025-03-13"],
          ["Este mes", "2025-03-01", "2025-03-13"],
          ["Mes pasado", "2025-02-01", "2025-02-28"],
          ["Este año", "2025-01-01", "2025-03-13"],
        ]
      ) {
        assert.match(
          html,
          new RegExp(
            `<a href="/panel\\?desde=${from}&amp;hasta=${to}">${label}</a>`,
          ),
          label,
        );
      }
      assert.doesNotMatch(html, /Rechazadas \(429\)|Fallidas \(502\)/);
    },
  );

  await t.step(
    "a reversed or malformed range answers 400 with a Spanish message and the default range",
    async () => {
      for (
        const [query, message] of [
          ["desde=2025-03-11&hasta=2025-03-01", "posterior a la de fin"],
          ["desde=2025-02-30&hasta=2025-03-01", "no son válidas"],
          ["desde=ayer&hasta=hoy", "no son válidas"],
          ["desde=2020-01-01&hasta=2025-03-01", "a lo más 366 días"],
        ]
      ) {
        const res = await get(ctx, `/panel?${query}`, viewer);
        assert.equal(res.status, 400, query);
        const html = await res.text();
        assert.match(html, new RegExp(`role="alert">[^<]*${message}`));
        assert.match(html, /name="desde" value="2025-02-12"/);
        assert.equal(readTable(html, "Visitas por día").length, 30);
      }
    },
  );

  await t.step("without a staff session it is the site's 404", async () => {
    const res = await get(ctx, "/panel");
    assert.equal(res.status, 404);
    assert.doesNotMatch(await res.text(), /Tablero/);
  });

  await t.step("chat requests are counted by outcome", async () => {
    // No model configured: 503, counted as a question, no outcome.
    const res = await ctx.app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "¿Dónde como birria?" }),
    });
    assert.equal(res.status, 503);
    await res.body?.cancel();
    const html = await (await get(ctx, "/panel", viewer)).text();
    assert.deepEqual(
      readTable(html, "Preguntas al asistente por día").find((row) =>
        row[0] === "jue 13 mar 2025"
      ),
      ["jue 13 mar 2025", "1", "0", "0", "0", "0"],
    );
  });
});

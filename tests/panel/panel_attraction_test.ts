/**
 * The console's page of one attraction (`GET /panel/atractivos/:slug`) in
 * process: a known history written through the service's own writers
 * (visits, ratings, a note, a hidden note), read back as its figures, its
 * rating distribution, its notes (never the hidden one) and, for admins only, its code and poster.
 */
import assert from "node:assert/strict";
import { setNotesHidden } from "@/lib/db/moderation.ts";
import { createStaffSession } from "@/lib/db/staff_sessions.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import { createTestContext, type TestContext } from "../test_utils.ts";

const TZ = "America/Mexico_City";
/** Monday 10 March 2025, 12:00 in the municipality (UTC-6). */
const NOW = new Date("2025-03-10T18:00:00Z");
const HOUR = 3_600_000;

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

/** The page without its collapsed parts (`<details>`: "Ver los datos"). */
function withoutCollapsed(html: string): string {
  return html.replace(/<details\b.*?<\/details>/gs, "");
}

/** Whether `html` has a link to a path starting with `href`, named `name`. */
function linksTo(html: string, href: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gs)].some(
    (m) =>
      m[1].startsWith(href) && new RegExp(`^\\s*${escaped}\\s*$`).test(m[2]),
  );
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
  const [plaza, mercado] = data.attractions.map((a) => a.slug);
  const users = Array.from({ length: 5 }, () => crypto.randomUUID());
  // Monday: 3 visits at the plaza; Tuesday: 1 more; the market: 1 on Monday.
  for (const userId of users.slice(0, 3)) {
    await recordVisit(kv, {
      userId,
      slug: plaza,
      now: NOW,
      totalAttractions: 17,
      timeZone: TZ,
    });
  }
  await recordVisit(kv, {
    userId: users[3],
    slug: plaza,
    now: new Date(NOW.getTime() + 24 * HOUR),
    totalAttractions: 17,
    timeZone: TZ,
  });
  await recordVisit(kv, {
    userId: users[4],
    slug: mercado,
    now: NOW,
    totalAttractions: 17,
    timeZone: TZ,
  });
  const rate = (i: number, slug: string, rating: number, notes: string) =>
    rateVisit(kv, {
      userId: users[i],
      slug,
      rating,
      notes,
      now: new Date(NOW.getTime() + (2 + i) * HOUR),
      timeZone: TZ,
    });
  await rate(0, plaza, 5, "Muy bonita de noche");
  const hidden = await rate(1, plaza, 5, "Nota que se ocultó");
  await rate(2, plaza, 2, "");
  await rate(4, mercado, 1, "Nota de otro atractivo");
  const visitId = hidden?.visitId;
  assert.ok(visitId, "the rated visit's id");
  await setNotesHidden(kv, {
    visitId,
    hidden: true,
    staff: {
      id: "admin@municipio.gob.mx",
      email: "admin@municipio.gob.mx",
      role: "admin",
    },
    now: new Date(NOW.getTime() + 10 * HOUR),
  });
  return { plaza, mercado };
}

Deno.test("GET /panel/atractivos/:slug", async (t) => {
  await using ctx = await createTestContext({
    clockStart: new Date(NOW.getTime() + 3 * 24 * HOUR),
  });
  const { plaza } = await seed(ctx);
  const loaded = ctx.deps.data.current();
  const name = loaded.attractionsBySlug.get(plaza)!.name;
  const admin = await staffCookie(ctx, "admin");
  const viewer = await staffCookie(ctx, "viewer");
  const path = `/panel/atractivos/${plaza}?desde=2025-03-09&hasta=2025-03-12`;

  await t.step(
    "the dashboard links every attraction's page in sight, not only in its collapsed tables",
    async () => {
      const html = await (await get(ctx, "/panel", viewer)).text();
      const inSight = withoutCollapsed(html);
      for (const { slug, name } of loaded.data.attractions) {
        assert.ok(
          linksTo(inSight, `/panel/atractivos/${slug}?desde=`, name),
          `a visible link to ${slug}'s page`,
        );
      }
    },
  );

  await t.step("its visits by day and weekday, and its ratings", async () => {
    const res = await get(ctx, path, viewer);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "private, no-store");
    const html = await res.text();
    assert.ok(html.includes(`<h1>${name}</h1>`), "its name as the title");
    assert.match(html, /<svg[^>]*role="img"/);
    assert.deepEqual(readTable(html, "Visitas por día"), [
      ["dom 9 mar 2025", "0"],
      ["lun 10 mar 2025", "3"],
      ["mar 11 mar 2025", "1"],
      ["mié 12 mar 2025", "0"],
    ]);
    const week = readTable(html, "Visitas por día de la semana");
    assert.deepEqual(week.slice(0, 2), [["Lunes", "3"], ["Martes", "1"]]);
    assert.deepEqual(readTable(html, "Calificaciones por estrellas"), [
      ["1 estrella", "0"],
      ["2 estrellas", "1"],
      ["3 estrellas", "0"],
      ["4 estrellas", "0"],
      ["5 estrellas", "2"],
    ]);
    assert.match(html, /4[.,]0 de 5/);
    // The same quick ranges as the dashboard, on this page.
    assert.ok(
      html.includes(
        `href="/panel/atractivos/${plaza}?desde=2025-03-07&amp;hasta=2025-03-13"`,
      ),
    );
  });

  await t.step(
    "its notes, not a hidden one (for an admin neither), no other attraction's",
    async () => {
      for (const cookie of [viewer, admin]) {
        const html = await (await get(ctx, path, cookie)).text();
        assert.ok(html.includes("Muy bonita de noche"));
        assert.ok(!html.includes("Nota que se ocultó"));
        assert.ok(!html.includes("Oculta"));
        assert.ok(!html.includes("Nota de otro atractivo"));
      }
    },
  );

  await t.step(
    "an admin sees its code and poster, a viewer does not",
    async () => {
      const code = (await import("@/lib/passport/mod.ts"))
        .listCurrentGuideCodes;
      const current = (await code(ctx.deps.kv, loaded, ctx.clock.now()))
        .find((a) => a.slug === plaza)!;
      const asAdmin = await (await get(ctx, path, admin)).text();
      assert.ok(asAdmin.includes(`>${current.code}</code>`), "the code");
      assert.ok(asAdmin.includes(`/panel/codigos/${plaza}/cartel.svg`));
      const asViewer = await (await get(ctx, path, viewer)).text();
      assert.ok(!asViewer.includes(current.code), "no code for a viewer");
      assert.ok(!asViewer.includes("cartel.svg"), "no poster for a viewer");
    },
  );

  await t.step("an unknown slug is a 404 in the console's frame", async () => {
    const res = await get(ctx, "/panel/atractivos/no-existe", viewer);
    assert.equal(res.status, 404);
    const html = await res.text();
    assert.match(html, /Ese atractivo no existe/);
    assert.match(html, /href="\/panel\/salir"|action="\/panel\/salir"/);
  });

  await t.step("without a staff cookie, the site's 404", async () => {
    const res = await get(ctx, path);
    assert.equal(res.status, 404);
    const html = await res.text();
    assert.ok(
      !html.includes(name + "</h1>") ||
        !html.includes("Calificaciones por estrellas"),
    );
    assert.ok(!html.includes("Calificaciones por estrellas"));
  });
});

Deno.test("GET /panel/atractivos", async (t) => {
  await using ctx = await createTestContext({
    clockStart: new Date(NOW.getTime() + 3 * 24 * HOUR),
  });
  const { plaza } = await seed(ctx);
  const { attractions } = ctx.deps.data.current().data;
  const viewer = await staffCookie(ctx, "viewer");

  await t.step(
    "the console's menu has an Atractivos section, for a viewer too",
    async () => {
      const html = await (await get(ctx, "/panel", viewer)).text();
      const menu = html.match(/<nav class="staff-nav"[^>]*>(.*?)<\/nav>/s);
      assert.ok(menu, "the console's menu");
      assert.ok(linksTo(menu[1], "/panel/atractivos", "Atractivos"));
    },
  );

  await t.step(
    "it lists every attraction with a link to its page and its figures",
    async () => {
      const res = await get(
        ctx,
        "/panel/atractivos?desde=2025-03-09&hasta=2025-03-12",
        viewer,
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "private, no-store");
      const html = await res.text();
      assert.ok(html.includes("<h1>Atractivos</h1>"));
      assert.match(
        html,
        /<a href="\/panel\/atractivos" aria-current="page">Atractivos<\/a>/,
      );
      const rows = readTable(
        html,
        "Atractivos: visitas del 9 al 12 de marzo de 2025 y calificaciones",
      );
      assert.equal(rows.length, attractions.length);
      assert.equal(attractions.length, 17);
      for (const { slug, name } of attractions) {
        assert.ok(
          linksTo(
            html,
            `/panel/atractivos/${slug}?desde=2025-03-09&amp;hasta=2025-03-12`,
            name,
          ),
          slug,
        );
      }
      const name = attractions.find((a) => a.slug === plaza)!.name;
      assert.deepEqual(rows.find((row) => row[0] === name), [
        name,
        "4",
        "4.0 de 5",
        "3",
      ]);
    },
  );

  await t.step("a range that is not valid is a 400 with the list", async () => {
    const res = await get(ctx, "/panel/atractivos?desde=ayer", viewer);
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /role="alert"/);
    assert.ok(html.includes(`/panel/atractivos/${plaza}?desde=`));
  });
});

/**
 * The staff console's paged lists (`/panel/notas`, `/panel/auditoria`) take
 * `?antes=` from the address bar: the cursor of their own "Ver anteriores"
 * link goes on to older entries, and anything else (edited by hand, from
 * another list, too long for KV, not base64) is the first page, never a 500.
 */
import assert from "node:assert/strict";
import { recordStaffAction } from "@/lib/db/audit.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
  verifyVisits,
} from "../test_utils.ts";

/** Cursors a person can type or paste that KV did not hand out for this list. */
const BAD_CURSORS = [
  "junk",
  "AgA",
  "%%%",
  "%00",
  "\u0000",
  "x".repeat(3_000),
  "A".repeat(5_000),
  "💥",
  "../../",
  "-1",
  "1e308",
];

async function getHtml(ctx: TestContext, path: string, cookie: string) {
  const res = await ctx.app.request(path, { headers: { cookie } });
  assert.equal(res.status, 200, path.slice(0, 80));
  assert.match(res.headers.get("content-type")!, /^text\/html/);
  return await res.text();
}

/** The list's rows and the cursor of its "Ver anteriores" link. */
function readPage(html: string, item: RegExp) {
  const cursor = /href="\/panel\/\w+\?antes=([^"]+)"/.exec(html)?.[1];
  return {
    items: [...html.matchAll(item)].map((m) => m[1]),
    cursor: cursor && decodeURIComponent(cursor.replaceAll("&amp;", "&")),
  };
}

Deno.test("GET /panel/notas and /panel/auditoria ?antes=", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx);
  // 51 notes (a page is 50): three tourists, each at all 17 attractions.
  for (let i = 0; i < 3; i++) {
    const userId = randomUserId();
    await verifyVisits(ctx, userId, 17, 60_000);
    for (const { slug } of SHIPPED.attractions) {
      await assertJson(
        await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
          userId,
          atractivoSlug: slug,
          rating: 4,
          notes: `Nota ${i} de ${slug}`,
        }),
        200,
      );
      ctx.clock.advance(1_000);
    }
  }
  // 60 staff actions (a page is 50), besides the sign-in.
  for (let i = 0; i < 60; i++) {
    await recordStaffAction(ctx.deps.kv, {
      staff: {
        id: "ana@municipio.gob.mx",
        email: "ana@municipio.gob.mx",
        role: "admin",
      },
      action: "note_hidden",
      target: `visita-${i}`,
      at: new Date(ctx.clock.now().getTime() + i),
    });
  }
  const lists = [
    { path: "/panel/notas", item: /data-visit-id="([^"]+)"/g, total: 51 },
    {
      path: "/panel/auditoria",
      // The fake visits' notes are not in KV: "una nota que ya se borró".
      item: /<td>(una nota que ya se borró|—)<\/td>/g,
      total: 61,
    },
  ];

  for (const { path, item, total } of lists) {
    const first = readPage(await getHtml(ctx, path, admin), item);

    await t.step(
      `${path}: its own cursor goes on to the older entries`,
      async () => {
        assert.equal(first.items.length, 50);
        assert.ok(first.cursor, "a link to older entries");
        const second = readPage(
          await getHtml(
            ctx,
            `${path}?antes=${encodeURIComponent(first.cursor)}`,
            admin,
          ),
          item,
        );
        assert.equal(second.items.length, total - 50);
        assert.equal(second.cursor, undefined);
      },
    );

    await t.step(`${path}: a cursor KV refuses is the first page`, async () => {
      const others = lists.filter((other) => other.path !== path);
      const foreign = readPage(
        await getHtml(ctx, others[0].path, admin),
        others[0].item,
      ).cursor!;
      // Well-formed for KV, though not handed out for this list.
      for (const cursor of [foreign, "AgA="]) {
        const page = readPage(
          await getHtml(
            ctx,
            `${path}?antes=${encodeURIComponent(cursor)}`,
            admin,
          ),
          item,
        );
        assert.ok(page.items.length <= 50);
      }
      for (const cursor of BAD_CURSORS) {
        const page = readPage(
          await getHtml(
            ctx,
            `${path}?antes=${encodeURIComponent(cursor)}`,
            admin,
          ),
          item,
        );
        assert.deepEqual(page.items, first.items, cursor.slice(0, 20));
      }
    });
  }
});

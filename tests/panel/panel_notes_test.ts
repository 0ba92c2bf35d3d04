/**
 * Moderation (`/panel/notas`): an admin hides a tourist's note from every
 * public page, with the page cache on as the service runs it; the tourist's
 * own passport still shows it; showing it again brings it back.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import { createSession } from "@/lib/db/sessions.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { getVisit } from "@/lib/db/visits.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  randomTicket,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
  verifyVisits,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const PLAZA = SHIPPED.attractions[0];

async function text(ctx: TestContext, path: string, cookie?: string) {
  const res = await ctx.app.request(path, {
    headers: cookie ? { cookie } : {},
  });
  assert.equal(res.status, 200, path);
  return await res.text();
}

Deno.test("GET/POST /panel/notas", async (t) => {
  await using ctx = await createTestContext({ cachePages: true });
  const admin = await signInStaff(ctx);
  const userId = randomUserId();
  await verifyVisits(ctx, userId, 1);
  const note = `La visita guiada fue excelente ${crypto.randomUUID()}`;
  await assertJson(
    await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
      userId,
      atractivoSlug: PLAZA.slug,
      rating: 5,
      notes: note,
    }),
    200,
  );
  const { shareCode } = await saveTicket(ctx.deps.kv, randomTicket({ userId }));
  const route = `/ruta/${shareCode}`;
  const { sessionId } = await createSession(ctx.deps.kv, {
    userId,
    name: null,
    now: ctx.clock.now(),
    ttlMs: 60 * 60_000,
    guest: true,
  });
  const tourist = `session=${sessionId}`;
  const visitId = (await getVisit(ctx.deps.kv, userId, PLAZA.slug))!.visitId;

  await t.step(
    "the note shows on the route page and in the panel",
    async () => {
      assert.ok((await text(ctx, route)).includes(note));
      const panel = await text(ctx, "/panel/notas", admin);
      assert.ok(panel.includes(note));
      assert.ok(panel.includes(`/panel/notas/${visitId}/ocultar`));
    },
  );

  await t.step(
    "Ocultar removes it from /ruta/<code> (cached) and the attraction page at once, not from /mi-pasaporte",
    async () => {
      const res = await ctx.app.request(`/panel/notas/${visitId}/ocultar`, {
        method: "POST",
        headers: {
          cookie: admin,
          origin: ORIGIN,
          referer: `${ORIGIN}/panel/notas`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "",
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/panel/notas");
      const page = await text(ctx, route);
      assert.ok(!page.includes(note));
      assert.match(page, /1 de 17 atractivos visitados/);
      assert.ok(
        !(await text(ctx, `/turismo/atractivos/${PLAZA.slug}`)).includes(note),
      );
      assert.ok((await text(ctx, "/mi-pasaporte", tourist)).includes(note));
      const panel = await text(ctx, "/panel/notas", admin);
      assert.ok(panel.includes(`/panel/notas/${visitId}/mostrar`));
      assert.equal(
        (await getVisit(ctx.deps.kv, userId, PLAZA.slug))!.notes,
        note,
      );
    },
  );

  await t.step("Mostrar brings it back, and both are audited", async () => {
    ctx.clock.advance(1_000);
    const res = await ctx.app.request(`/panel/notas/${visitId}/mostrar`, {
      method: "POST",
      headers: {
        cookie: admin,
        origin: ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    assert.equal(res.status, 303);
    assert.ok((await text(ctx, route)).includes(note));
    const { values } = await listStaffActions(ctx.deps.kv);
    assert.deepEqual(
      values.filter((v) => v.target === visitId).map((v) => v.action),
      ["note_shown", "note_hidden"],
    );
  });

  await t.step(
    "an unknown visit is a 404, and a cross-site form a 403 that changes nothing",
    async () => {
      const post = (path: string, headers: Record<string, string>) =>
        ctx.app.request(path, { method: "POST", headers, body: "" });
      const unknown = await post(
        `/panel/notas/${crypto.randomUUID()}/ocultar`,
        { cookie: admin, origin: ORIGIN },
      );
      assert.equal(unknown.status, 404);
      const crossSite = await post(`/panel/notas/${visitId}/ocultar`, {
        cookie: admin,
        origin: "https://malicioso.example",
        "content-type": "application/x-www-form-urlencoded",
      });
      assert.equal(crossSite.status, 403);
      assert.equal(
        (await getVisit(ctx.deps.kv, userId, PLAZA.slug))!.notesHiddenAt,
        null,
      );
    },
  );
});

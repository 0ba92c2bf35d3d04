/**
 * A note an admin hid reaches no viewer: not on the dashboard's latest
 * notes, not in the moderation list, not in the export of ratings with
 * notes. The app runs in process on `:memory:` KV.
 */
import assert from "node:assert/strict";
import { getVisit } from "@/lib/db/visits.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  verifyVisits,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const PLAZA = SHIPPED.attractions[0];

Deno.test("hidden notes and viewers", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx, { role: "admin" });
  const viewer = await signInStaff(ctx, {
    email: "luis@municipio.gob.mx",
    role: "viewer",
  });
  const userId = randomUserId();
  await verifyVisits(ctx, userId, 1);
  const note = `Nota para ocultar ${crypto.randomUUID()}`;
  await assertJson(
    await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
      userId,
      atractivoSlug: PLAZA.slug,
      rating: 2,
      notes: note,
    }),
    200,
  );
  const visitId = (await getVisit(ctx.deps.kv, userId, PLAZA.slug))!.visitId;
  const get = async (path: string, cookie: string) => {
    const res = await ctx.app.request(path, { headers: { cookie } });
    return { status: res.status, body: await res.text() };
  };

  await t.step(
    "before it is hidden, the viewer's dashboard shows it",
    async () => {
      const { status, body } = await get("/panel", viewer);
      assert.equal(status, 200);
      assert.ok(body.includes(note));
    },
  );

  await t.step(
    "once an admin hides it, the viewer's dashboard no longer shows it",
    async () => {
      const hide = await ctx.app.request(`/panel/notas/${visitId}/ocultar`, {
        method: "POST",
        headers: {
          cookie: admin,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "",
      });
      assert.equal(hide.status, 303, await hide.text());
      const { status, body } = await get("/panel", viewer);
      assert.equal(status, 200);
      assert.ok(!body.includes(note), "the hidden note is on the dashboard");
      // Nor on the admin's dashboard: hidden notes are for /panel/notas.
      assert.ok(!(await get("/panel", admin)).body.includes(note));
    },
  );

  await t.step(
    "the viewer cannot reach it through moderation or the export",
    async () => {
      for (
        const path of [
          "/panel/notas",
          "/panel/exportar/calificaciones-con-notas.csv",
        ]
      ) {
        const { status, body } = await get(path, viewer);
        assert.equal(status, 403, path);
        assert.ok(!body.includes(note), path);
      }
      const exportPage = await get("/panel/exportar", viewer);
      assert.ok(!exportPage.body.includes("calificaciones-con-notas"));
    },
  );
});

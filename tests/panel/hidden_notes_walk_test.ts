/**
 * The rule of hidden notes, tried on every console page: a note an admin
 * hid reaches no viewer on any page or download of `/panel`, and an admin
 * only on the moderation list (`/panel/notas`), where it can be shown
 * again. The pages are not listed by hand: they are the route table's GET
 * routes under `/panel` (`:slug` as every attraction of the data set), and
 * every console link those pages hold (quick ranges, downloads), so a page
 * added later is walked too. PDFs and workbooks are read as their text.
 * The app runs in process on `:memory:` KV.
 */
import assert from "node:assert/strict";
import { getVisit } from "@/lib/db/visits.ts";
import { findIn, walkConsole } from "../console_walk.ts";
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

Deno.test("hidden notes on every console page", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx, { role: "admin" });
  const viewer = await signInStaff(ctx, {
    email: "luis@municipio.gob.mx",
    role: "viewer",
  });
  const rate = async (notes: string) => {
    const userId = randomUserId();
    await verifyVisits(ctx, userId, 1);
    await assertJson(
      await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
        userId,
        atractivoSlug: PLAZA.slug,
        rating: 4,
        notes,
      }),
      200,
    );
    return (await getVisit(ctx.deps.kv, userId, PLAZA.slug))!.visitId;
  };
  const shown = `Nota que se ve ${crypto.randomUUID()}`;
  const hidden = `Nota que se oculta ${crypto.randomUUID()}`;
  await rate(shown);
  const hiddenId = await rate(hidden);
  const hide = await ctx.app.request(`/panel/notas/${hiddenId}/ocultar`, {
    method: "POST",
    headers: {
      cookie: admin,
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "",
  });
  assert.equal(hide.status, 303, await hide.text());

  await t.step(
    "a viewer finds the hidden note on no console page or download",
    async () => {
      const pages = await walkConsole(ctx, viewer);
      const plazaPage = `/panel/atractivos/${PLAZA.slug}`;
      assert.ok(pages.get(plazaPage)?.status === 200, plazaPage);
      assert.ok(pages.get("/panel/exportar/libro.xlsx")?.status === 200);
      // The control: the visible note is found where notes are listed.
      const withShown = findIn(pages, shown);
      assert.ok(withShown.includes("/panel"), "the dashboard's notes");
      assert.ok(withShown.includes(plazaPage), "the attraction's notes");
      assert.ok(withShown.includes("/panel/exportar/libro.xlsx"));
      assert.deepEqual(findIn(pages, hidden), []);
    },
  );

  await t.step(
    "an admin finds it only on the moderation list, marked hidden",
    async () => {
      const pages = await walkConsole(ctx, admin);
      assert.ok(
        findIn(pages, shown).includes(`/panel/atractivos/${PLAZA.slug}`),
      );
      assert.deepEqual(findIn(pages, hidden), ["/panel/notas"]);
      assert.match(pages.get("/panel/notas")!.text, /Oculta/);
    },
  );
});

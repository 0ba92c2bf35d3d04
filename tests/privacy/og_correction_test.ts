/**
 * A corrected or erased name is never shown again by any card URL, on any
 * instance, at once: two apps on one KV file, as two instances behind a
 * load balancer. The old versioned URL (the one already in shared posts)
 * is the one an attacker, or a forgetful cache, would keep asking.
 */
import assert from "node:assert/strict";
import {
  assertJson,
  createTestContext,
  getLinkedCard,
  postAsUser,
  randomEmail,
  randomShareCode,
  randomUserId,
  type TestContext,
} from "../test_utils.ts";

async function getCard(ctx: TestContext, path: string) {
  const res = await ctx.app.request(path);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers.get("content-type"), "image/png");
  return {
    etag: res.headers.get("etag")!,
    png: new Uint8Array(await res.arrayBuffer()),
  };
}

Deno.test("share cards after a correction or an erasure on another instance", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-og-" });
  const kvPath = `${dir}/turismo.kv`;
  try {
    // The route pages cached in memory as the service does.
    await using a = await createTestContext({ kvPath, cachePages: true });
    await using b = await createTestContext({ kvPath, cachePages: true });
    const userId = randomUserId();
    const code = randomShareCode();
    const ticket = await postAsUser(a, "/api/turismo/ticket", userId, {
      name: "Nombre Anterior",
      email: randomEmail(),
      shareCode: code,
    });
    await assertJson(ticket, 200);
    const oldUrl = await getLinkedCard(b, code);
    assert.equal(oldUrl, `/api/turismo/og/${code}?v=0-0`);
    // Instance B remembers both URLs (the linked one and the spec's).
    const old = await getCard(b, oldUrl);
    assert.deepEqual(await getCard(b, oldUrl), old);
    assert.deepEqual(await getCard(b, `/api/turismo/og/${code}`), old);
    const page = await (await b.app.request(`/ruta/${code}`)).text();
    assert.ok(page.includes("Nombre Anterior"), "B's route page, cached");

    await t.step(
      "a rename on A: B's old versioned card URL, the spec's URL and the route page show the new name at once",
      async () => {
        const res = await postAsUser(
          a,
          `/api/turismo/users/${userId}/name`,
          userId,
          { name: "Nombre Corregido" },
        );
        assert.equal((await assertJson(res, 200)).name, "Nombre Corregido");
        const newUrl = await getLinkedCard(a, code);
        assert.equal(newUrl, `/api/turismo/og/${code}?v=0-0-1`);
        const current = await getCard(a, newUrl);
        assert.notEqual(current.etag, old.etag);

        const again = await getCard(b, oldUrl);
        assert.notEqual(again.etag, old.etag, "not the old card's ETag");
        assert.notDeepEqual(again.png, old.png, "not the old picture");
        assert.deepEqual(again, current, "the corrected card");
        assert.deepEqual(await getCard(b, `/api/turismo/og/${code}`), current);
        const page = await (await b.app.request(`/ruta/${code}`)).text();
        assert.ok(page.includes("Nombre Corregido"), "B's route page");
        assert.ok(!page.includes("Nombre Anterior"));
        // A cache holding the old ETag is told it changed.
        const revalidated = await b.app.request(oldUrl, {
          headers: { "if-none-match": old.etag },
        });
        assert.equal(revalidated.status, 200);
        assert.equal(revalidated.headers.get("etag"), current.etag);
        await revalidated.body?.cancel();
      },
    );

    await t.step(
      "an erasure on A: every card URL and the route page on B are a 404 at once",
      async () => {
        const newUrl = `/api/turismo/og/${code}?v=0-0-1`;
        await getCard(b, newUrl); // remembered on B
        const res = await postAsUser(
          a,
          `/api/turismo/users/${userId}/erase`,
          userId,
          {},
        );
        assert.equal(res.status, 202, await res.text());
        const page = await b.app.request(`/ruta/${code}`);
        assert.equal(page.status, 404, "B's route page");
        assert.ok(!(await page.text()).includes("Nombre Corregido"));
        for (const path of [oldUrl, newUrl, `/api/turismo/og/${code}`]) {
          const gone = await b.app.request(path);
          const body = await assertJson(gone, 404);
          assert.deepEqual(Object.keys(body).sort(), ["details", "error"]);
          assert.equal(gone.headers.get("cache-control"), "no-store", path);
        }
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Two attractions never share a guide code, whichever way it is tried: a
 * data-set edit that gives one attraction the code the staff console gave
 * another (at start: the service does not start; at a reload: the edit is
 * refused), and a replacement in the console that would leave a clash made
 * elsewhere standing. Each refusal names both attractions, never the code.
 */
import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { DataError, parseTourismData } from "@/lib/data/tourism_data.ts";
import { saveGuideCode } from "@/lib/db/guide_codes.ts";
import { openKv } from "@/lib/db/kv.ts";
import { replaceGuideCode } from "@/lib/passport/guide_codes.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { getFreePort, startService, waitForExit } from "../service_process.ts";
import {
  assertJson,
  createTestContext,
  loadShippedData,
  mutateShipped,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ADMIN: StaffMember = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
};
const [PLAZA, SECOND] = SHIPPED.attractions;
/** The code the console gives the plaza; a data-set edit then gives it to SECOND. */
const CODE = "QWERTY23";

/** The shipped data set with SECOND's code set to {@linkcode CODE}. */
const CLASHING = mutateShipped((d) => d.attractions[1].guideCode = CODE);

async function verify(ctx: TestContext, code: string) {
  const userId = randomUserId();
  return await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
    code,
    userId,
  });
}

function assertNamesBoth(message: string) {
  assert.ok(message.includes(SECOND.name), message);
  assert.ok(message.includes(PLAZA.name), message);
  assert.ok(!message.includes(CODE), "never the code");
}

Deno.test("guide codes: a data set that clashes with the console", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-clash-" });
  const kvPath = `${dir}/turismo.kv`;
  const dataPath = `${dir}/turismo.json`;
  const shipped = await loadShippedData();
  try {
    {
      // The console gives the plaza CODE (the old code kept 30 days).
      await using kv = await openKv(kvPath);
      await replaceGuideCode({
        kv,
        data: { current: () => shipped },
        now: () => new Date(),
      }, { slug: PLAZA.slug, graceDays: 30, staff: ADMIN, code: CODE });
    }

    await t.step(
      "at start: the service refuses it, naming both attractions",
      async () => {
        const data = new DataStore(await parseTourismData(CLASHING));
        await assert.rejects(
          createTestContext({ kvPath, data }),
          (error: Error) => {
            assert.ok(error instanceof DataError, error.name);
            assertNamesBoth(error.message);
            assert.match(error.message, /attractions\[1\]/);
            return true;
          },
        );
        await Deno.writeTextFile(dataPath, CLASHING);
        const service = startService({
          env: { KV_PATH: kvPath, TOURISM_DATA: dataPath },
          port: await getFreePort(),
        });
        const status = await waitForExit(service);
        assert.equal(status.code, 1);
        assertNamesBoth(service.output());
      },
    );

    await t.step(
      "at a reload: the edit is refused and the last good data set stays",
      async () => {
        await Deno.writeTextFile(dataPath, JSON.stringify(SHIPPED));
        const data = await DataStore.open(dataPath, { onError: () => {} });
        await using ctx = await createTestContext({ kvPath, data });
        await Deno.writeTextFile(dataPath, CLASHING);
        assert.equal(await data.reload(), false);
        assertNamesBoth(data.status().reloadError ?? "");
        // CODE still opens the plaza only; SECOND keeps its code.
        assert.equal(
          (await assertJson(await verify(ctx, CODE), 200)).atractivo,
          PLAZA.slug,
        );
        assert.equal(
          (await assertJson(await verify(ctx, SECOND.guideCode), 200))
            .atractivo,
          SECOND.slug,
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("guide codes: the console shows a clash made elsewhere and never keeps one", async (t) => {
  // This instance took the edited data set before the console, on another
  // instance still serving the old one, gave the plaza the same code.
  const data = new DataStore(await parseTourismData(CLASHING));
  await using ctx = await createTestContext({ data });
  await saveGuideCode(ctx.deps.kv, {
    slug: PLAZA.slug,
    current: PLAZA.guideCode.toUpperCase(),
    code: CODE,
    graceMs: 0,
    staff: ADMIN,
    now: ctx.clock.now(),
    auditTarget: PLAZA.slug,
  });
  const admin = await signInStaff(ctx);
  const post = (form: Record<string, string>) =>
    ctx.app.request(`/panel/codigos/${PLAZA.slug}`, {
      method: "POST",
      headers: {
        cookie: admin,
        origin: "http://localhost",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(form).toString(),
    });

  await t.step("the page says which two attractions share a code", async () => {
    const res = await ctx.app.request("/panel/codigos", {
      headers: { cookie: admin },
    });
    const html = await res.text();
    const alert = html.match(/<p class="form-error" role="alert">(.*?)<\/p>/s)
      ?.[1];
    assert.ok(alert, "an alert");
    assertNamesBoth(alert.replaceAll(/<[^>]+>/g, ""));
  });

  await t.step(
    "a replacement that keeps the shared code in its grace period is refused, naming both",
    async () => {
      const res = await post({ gracia: "30" });
      assert.equal(res.status, 409);
      const html = await res.text();
      const alert = html.match(/<p class="form-error" role="alert">(.*?)<\/p>/s)
        ?.[1];
      assert.ok(alert);
      assertNamesBoth(alert.replaceAll(/<[^>]+>/g, ""));
      assert.equal(
        (await assertJson(await verify(ctx, CODE), 200)).atractivo,
        PLAZA.slug,
        "nothing changed",
      );
    },
  );

  await t.step(
    "the code leaked: stopping it at once ends the clash",
    async () => {
      const res = await post({ motivo: "filtrado" });
      assert.equal(res.status, 200);
      const page = await (await ctx.app.request("/panel/codigos", {
        headers: { cookie: admin },
      })).text();
      assert.ok(!page.includes('role="alert"'), "no alert left");
      assert.equal(
        (await assertJson(await verify(ctx, CODE), 200)).atractivo,
        SECOND.slug,
        "the code is the data set's again: SECOND's",
      );
    },
  );
});

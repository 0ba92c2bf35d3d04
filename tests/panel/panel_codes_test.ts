/**
 * Guide codes replaced in the staff console (`/panel/codigos`): the new code
 * verifies at once (also in a second service process on the same KV file),
 * the old one only during its grace period, a collision changes nothing,
 * posters and the poster download follow, and the chat prompt never holds a
 * code.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import { openKv } from "@/lib/db/kv.ts";
import { buildStablePrompt } from "@/lib/chat/prompt.ts";
import {
  GUIDE_CODE_ALPHABET,
  listCurrentGuideCodes,
  replaceGuideCode,
} from "@/lib/passport/guide_codes.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import {
  getFreePort,
  postJsonTo,
  ROOT,
  serviceEnv,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import {
  assertJson,
  createTestContext,
  DATA_PATH,
  loadShippedData,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const VERIFY = "/api/turismo/verify-visit";
const DAY_MS = 24 * 60 * 60 * 1000;
const ADMIN: StaffMember = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
};
const [PLAZA, SECOND, THIRD] = SHIPPED.attractions;

async function verify(ctx: TestContext, code: string) {
  const userId = randomUserId();
  return await postAsUser(ctx, VERIFY, userId, { code, userId });
}

function postForm(
  ctx: TestContext,
  cookie: string,
  path: string,
  form: Record<string, string>,
) {
  return Promise.resolve(ctx.app.request(path, {
    method: "POST",
    headers: {
      cookie,
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(form).toString(),
  }));
}

Deno.test("guide codes: replacing one", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "a new code is 6 unambiguous characters, verifies at once, and the old one is refused without grace",
    async () => {
      const { code } = await replaceGuideCode(ctx.deps, {
        slug: PLAZA.slug,
        graceDays: 0,
        staff: ADMIN,
      });
      assert.match(code, new RegExp(`^[${GUIDE_CODE_ALPHABET}]{6}$`));
      assert.doesNotMatch(code, /[01OI]/);
      const ok = await assertJson(await verify(ctx, code.toLowerCase()), 200);
      assert.equal(ok.atractivo, PLAZA.slug);
      await assertJson(await verify(ctx, PLAZA.guideCode), 404);
    },
  );

  await t.step(
    "with 7 days of grace the old code still verifies until the 7th day, then it is a 404",
    async () => {
      const before = (await listCurrentGuideCodes(
        ctx.deps.kv,
        ctx.deps.data.current(),
        ctx.clock.now(),
      )).find((a) => a.slug === SECOND.slug)!;
      assert.equal(before.code, SECOND.guideCode.toUpperCase());
      const { code } = await replaceGuideCode(ctx.deps, {
        slug: SECOND.slug,
        graceDays: 7,
        staff: ADMIN,
      });
      await assertJson(await verify(ctx, code), 200);
      ctx.clock.advance(7 * DAY_MS - 60_000);
      const old = await assertJson(await verify(ctx, SECOND.guideCode), 200);
      assert.equal(old.atractivo, SECOND.slug);
      ctx.clock.advance(120_000);
      await assertJson(await verify(ctx, SECOND.guideCode), 404);
      await assertJson(await verify(ctx, code), 200);
    },
  );

  await t.step(
    "replacing again cuts off the code of the first replacement's grace period",
    async () => {
      const first = await replaceGuideCode(ctx.deps, {
        slug: THIRD.slug,
        graceDays: 30,
        staff: ADMIN,
      });
      const second = await replaceGuideCode(ctx.deps, {
        slug: THIRD.slug,
        graceDays: 14,
        staff: ADMIN,
      });
      await assertJson(await verify(ctx, THIRD.guideCode), 404);
      await assertJson(await verify(ctx, first.code), 200);
      await assertJson(await verify(ctx, second.code), 200);
    },
  );

  await t.step(
    "a code another attraction uses is refused with a 409 and nothing changes",
    async () => {
      const taken = (await listCurrentGuideCodes(
        ctx.deps.kv,
        ctx.deps.data.current(),
        ctx.clock.now(),
      )).find((a) => a.slug === PLAZA.slug)!.code;
      const before = await listCurrentGuideCodes(
        ctx.deps.kv,
        ctx.deps.data.current(),
        ctx.clock.now(),
      );
      for (const code of [taken, SHIPPED.attractions[5].guideCode]) {
        await assert.rejects(
          replaceGuideCode(ctx.deps, {
            slug: SHIPPED.attractions[4].slug,
            graceDays: 0,
            staff: ADMIN,
            code,
          }),
          (error: Error & { status?: number }) => error.status === 409,
        );
      }
      assert.deepEqual(
        await listCurrentGuideCodes(
          ctx.deps.kv,
          ctx.deps.data.current(),
          ctx.clock.now(),
        ),
        before,
      );
    },
  );

  await t.step("the chat's prompt holds no code, old or new", async () => {
    const current = await listCurrentGuideCodes(
      ctx.deps.kv,
      ctx.deps.data.current(),
      ctx.clock.now(),
    );
    const prompt = buildStablePrompt(
      ctx.deps.data.current().data,
      ctx.clock.now(),
    );
    for (const { code } of current) assert.ok(!prompt.includes(code), code);
    for (const { guideCode } of SHIPPED.attractions) {
      assert.ok(!prompt.includes(guideCode.toUpperCase()), guideCode);
    }
  });
});

Deno.test("GET/POST /panel/codigos", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx, {
    email: "admin@municipio.gob.mx",
    role: "admin",
  });

  await t.step("an admin sees every attraction's current code", async () => {
    const res = await ctx.app.request("/panel/codigos", {
      headers: { cookie: admin },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "private, no-store");
    const html = await res.text();
    assert.match(html, /noindex/);
    for (const { guideCode } of SHIPPED.attractions) {
      assert.ok(html.includes(`>${guideCode.toUpperCase()}</code>`));
    }
  });

  await t.step(
    "Reemplazar código shows the new code once, audits without the code",
    async () => {
      const res = await postForm(ctx, admin, `/panel/codigos/${PLAZA.slug}`, {
        gracia: "14",
      });
      assert.equal(res.status, 200);
      const html = await res.text();
      const code = html.match(/id="nuevo-codigo">([A-Z2-9]+)</)?.[1];
      assert.ok(code, "the new code is shown");
      await assertJson(await verify(ctx, code), 200);
      await assertJson(await verify(ctx, PLAZA.guideCode), 200);
      const { values } = await listStaffActions(ctx.deps.kv);
      const entry = values.find((v) => v.action === "code_replaced")!;
      assert.equal(entry.target, `${PLAZA.slug} (grace_days: 14)`);
      assert.ok(!JSON.stringify(values).includes(code));
      const again = await ctx.app.request("/panel/codigos", {
        headers: { cookie: admin },
      });
      assert.ok(!(await again.text()).includes('id="nuevo-codigo"'));
    },
  );

  await t.step(
    "a bad grace period is a 400 with a Spanish message and changes nothing",
    async () => {
      const before = await listCurrentGuideCodes(
        ctx.deps.kv,
        ctx.deps.data.current(),
        ctx.clock.now(),
      );
      // 0 included: stopping a code at once is only the "leaked" button.
      for (const gracia of ["31", "-1", "siete", "0"]) {
        const res = await postForm(
          ctx,
          admin,
          `/panel/codigos/${SECOND.slug}`,
          { gracia },
        );
        assert.equal(res.status, 400, gracia);
        assert.match(await res.text(), /Elige un periodo de gracia/);
      }
      const unknown = await postForm(ctx, admin, "/panel/codigos/no-existe", {
        gracia: "7",
      });
      assert.equal(unknown.status, 404);
      assert.deepEqual(
        await listCurrentGuideCodes(
          ctx.deps.kv,
          ctx.deps.data.current(),
          ctx.clock.now(),
        ),
        before,
      );
    },
  );

  await t.step(
    "the form offers a 30-day grace period by default; the leak only inside the confirmation",
    async () => {
      const html = await (await ctx.app.request("/panel/codigos", {
        headers: { cookie: admin },
      })).text();
      const form = html.match(
        new RegExp(
          `<form[^>]*action="/panel/codigos/${THIRD.slug}/confirmar".*?</form>`,
          "s",
        ),
      )?.[0];
      assert.ok(form, "the row's form");
      assert.match(
        form,
        /<option selected value="30">|<option value="30" selected/,
      );
      assert.doesNotMatch(
        form,
        /value="0"/,
        "no grace period is not an option",
      );
      assert.doesNotMatch(html, /name="motivo"/, "no leak button on a row");
      const confirm = await (await postForm(
        ctx,
        admin,
        `/panel/codigos/${THIRD.slug}/confirmar`,
        { gracia: "30" },
      )).text();
      const folded = confirm.match(/<details class="code-leak">.*?<\/details>/s)
        ?.[0];
      assert.ok(folded, "the leak choice, folded in the confirmation");
      assert.match(folded, /<summary>El código se filtró<\/summary>/);
      assert.match(
        folded,
        /<input type="hidden" name="motivo" value="filtrado"\/><button class="button button--danger" type="submit">Sí, anular el código ya<\/button>/,
      );
      assert.equal(
        confirm.match(/name="motivo"/g)?.length,
        1,
        "the leak is posted from the folded form only",
      );
    },
  );

  await t.step(
    "El código se filtró: the old code stops at once, whatever period is selected",
    async () => {
      const before = (await listCurrentGuideCodes(
        ctx.deps.kv,
        ctx.deps.data.current(),
        ctx.clock.now(),
      )).find((a) => a.slug === SECOND.slug)!.code;
      const res = await postForm(ctx, admin, `/panel/codigos/${SECOND.slug}`, {
        gracia: "30",
        motivo: "filtrado",
      });
      assert.equal(res.status, 200);
      await assertJson(await verify(ctx, before), 404);
      const { values } = await listStaffActions(ctx.deps.kv);
      assert.ok(
        values.some((v) => v.target === `${SECOND.slug} (grace_days: 0)`),
      );
    },
  );

  await t.step(
    "the poster download holds the current code, for admins only",
    async () => {
      const current = (await listCurrentGuideCodes(
        ctx.deps.kv,
        ctx.deps.data.current(),
        ctx.clock.now(),
      )).find((a) => a.slug === PLAZA.slug)!.code;
      const res = await ctx.app.request(
        `/panel/codigos/${PLAZA.slug}/cartel.svg`,
        { headers: { cookie: admin } },
      );
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get("content-type"),
        "image/svg+xml; charset=utf-8",
      );
      assert.match(res.headers.get("content-disposition")!, /attachment/);
      const svg = await res.text();
      assert.ok(svg.includes(`>${current}</text>`));
      assert.ok(svg.includes(`?codigo=${current}`));
      const viewer = await signInStaff(ctx, {
        email: "viewer@municipio.gob.mx",
        role: "viewer",
      });
      for (const cookie of [viewer, ""]) {
        const refused = await ctx.app.request(
          `/panel/codigos/${PLAZA.slug}/cartel.svg`,
          { headers: cookie ? { cookie } : {} },
        );
        assert.equal(refused.status, cookie ? 403 : 404);
        assert.ok(!(await refused.text()).includes(current));
      }
    },
  );
  await t.step(
    "each row offers its attraction's poster as a PDF, and the PDF answers",
    async () => {
      const res = await ctx.app.request("/panel/codigos", {
        headers: { cookie: admin },
      });
      const html = await res.text();
      const href = `/panel/carteles.pdf?atractivo=${PLAZA.slug}`;
      assert.ok(html.includes(`href="${href}"`), "the PDF link");
      assert.match(html, /Descargar cartel \(PDF\)/);
      const pdf = await ctx.app.request(href, { headers: { cookie: admin } });
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get("content-type"), "application/pdf");
      await pdf.body?.cancel();
    },
  );
  // Last: a month later the staff session has ended.
  await t.step(
    "a replacement that names no period keeps the old code for 30 days",
    async () => {
      const res = await postForm(
        ctx,
        admin,
        `/panel/codigos/${THIRD.slug}`,
        {},
      );
      assert.equal(res.status, 200);
      const code = (await res.text()).match(/id="nuevo-codigo">([A-Z2-9]+)</)
        ?.[1];
      assert.ok(code);
      ctx.clock.advance(30 * DAY_MS - 60_000);
      await assertJson(await verify(ctx, THIRD.guideCode), 200);
      ctx.clock.advance(120_000);
      await assertJson(await verify(ctx, THIRD.guideCode), 404);
      await assertJson(await verify(ctx, code), 200);
    },
  );
});

Deno.test("guide codes: two service processes on one KV file, and the posters task", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-codes-" });
  const kvPath = `${dir}/turismo.kv`;
  const shipped = await loadShippedData();
  const kv = await openKv(kvPath);
  const { secret } = await getOrCreateSigningSecret(kv);
  const env = { KV_PATH: kvPath, TOURISM_DATA: DATA_PATH };
  const services = [
    startService({ env, port: await getFreePort() }),
    startService({ env, port: await getFreePort() }),
  ];
  try {
    await Promise.all(services.map(waitUntilHealthy));
    const verifyAt = async (url: string, code: string) => {
      const userId = randomUserId();
      return await postJsonTo(`${url}/api/turismo/verify-visit`, {
        code,
        userId,
      }, { authorization: `Bearer ${await signOwnToken(secret, userId)}` });
    };
    let code = "";

    await t.step(
      "a replacement is seen at once by both processes: the new code verifies, the leaked one is a 404",
      async () => {
        // Both processes have verified with the old code before.
        for (const { url } of services) {
          await assertJson(await verifyAt(url, PLAZA.guideCode), 200);
        }
        ({ code } = await replaceGuideCode({
          kv,
          data: { current: () => shipped },
          now: () => new Date(),
        }, { slug: PLAZA.slug, graceDays: 0, staff: ADMIN }));
        for (const { url } of services) {
          await assertJson(await verifyAt(url, code), 200);
          await assertJson(await verifyAt(url, PLAZA.guideCode), 404);
        }
      },
    );

    await t.step("deno task posters prints the current code", async () => {
      const out = `${dir}/posters`;
      const run = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "scripts/posters.ts",
          "--base-url",
          "https://turismo.ejemplo.gob.mx",
          "--out",
          out,
        ],
        cwd: ROOT,
        clearEnv: true,
        env: serviceEnv({ KV_PATH: kvPath }),
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(run.stdout);
      assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
      assert.match(stdout, /codes from KV/);
      const plaza = await Deno.readTextFile(`${out}/${PLAZA.slug}.svg`);
      assert.ok(plaza.includes(`>${code}</text>`));
      assert.ok(!plaza.includes(PLAZA.guideCode.toUpperCase()));
      const second = await Deno.readTextFile(`${out}/${SECOND.slug}.svg`);
      assert.ok(second.includes(`>${SECOND.guideCode.toUpperCase()}</text>`));
    });
  } finally {
    await stopServices(services);
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

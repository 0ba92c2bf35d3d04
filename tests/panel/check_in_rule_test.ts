/**
 * How visits are checked in at an attraction, set on its console page
 * (`POST /panel/atractivos/:slug/registro`): an admin's change is stored
 * and audited in words (and the tourists' page, cached in memory, shows it
 * at once), a viewer sees the rule but may not change it, a
 * bad radius or method is a 400 that writes nothing, and a form from
 * another site is refused.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import { getCheckInMethodRecord } from "@/lib/db/check_in_methods.ts";
import {
  createTestContext,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const PLAZA = SHIPPED.attractions[0];
const PAGE = `/panel/atractivos/${PLAZA.slug}`;

function post(
  ctx: TestContext,
  cookie: string,
  form: Record<string, string>,
  headers: Record<string, string> = { origin: ORIGIN },
) {
  return Promise.resolve(ctx.app.request(`${PAGE}/registro`, {
    method: "POST",
    headers: {
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  }));
}

async function get(ctx: TestContext, cookie: string, path = PAGE) {
  const res = await ctx.app.request(path, { headers: { cookie } });
  return { status: res.status, html: await res.text() };
}

/** The check-in actions in the audit log, oldest first. */
async function checkInActions(ctx: TestContext) {
  const { values } = await listStaffActions(ctx.deps.kv, { limit: 100 });
  return values.filter((entry) => entry.action === "check_in_method_set")
    .reverse();
}

Deno.test("the check-in rule on an attraction's console page", async (t) => {
  await using ctx = await createTestContext({ cachePages: true });
  const admin = await signInStaff(ctx, { role: "admin" });
  const viewer = await signInStaff(ctx, {
    email: "vero@municipio.gob.mx",
    role: "viewer",
  });

  await t.step(
    "the page shows the catalogue's rule and, to admins, a form",
    async () => {
      const { status, html } = await get(ctx, admin);
      assert.equal(status, 200);
      assert.match(html, /Cómo se registra la visita/);
      assert.match(html, /data-check-in-method="code">con código</);
      assert.match(html, /Es lo que indica el catálogo de atractivos/);
      assert.match(html, /Radio para la ubicación, si la activas: 150 m/);
      assert.ok(html.includes(`action="${PAGE}/registro"`), "the form");
    },
  );

  await t.step(
    "a viewer sees the rule read-only and gets 403 on a change",
    async () => {
      const { html } = await get(ctx, viewer);
      assert.match(html, /data-check-in-method="code">con código</);
      assert.ok(!html.includes(`action="${PAGE}/registro"`), "no form");
      const res = await post(ctx, viewer, { metodo: "gps", radio: "200" });
      assert.equal(res.status, 403);
      assert.match(
        await res.text(),
        /Esta acción requiere permisos de administración/,
      );
      assert.equal(await getCheckInMethodRecord(ctx.deps.kv, PLAZA.slug), null);
      assert.deepEqual(await checkInActions(ctx), []);
    },
  );

  await t.step(
    "a bad radius or method is a 400 that writes nothing",
    async () => {
      for (
        const [form, message] of [
          [{ metodo: "gps", radio: "10" }, /de 25 a 2000.*escribiste «10»/],
          [{ metodo: "gps", radio: "5000" }, /de 25 a 2000/],
          [{ metodo: "gps", radio: "cien" }, /número entero de metros/],
          [{ metodo: "gps", radio: "" }, /número entero de metros/],
          [{ metodo: "gps", radio: "150.5" }, /número entero de metros/],
          [{ metodo: "qr", radio: "150" }, /Elige cómo se registra la visita/],
        ] as const
      ) {
        const res = await post(ctx, admin, form);
        assert.equal(res.status, 400, JSON.stringify(form));
        const html = await res.text();
        assert.match(html, message);
        assert.match(html, /role="alert"/);
        assert.match(html, /Cómo se registra la visita/, "the page again");
      }
      assert.equal(await getCheckInMethodRecord(ctx.deps.kv, PLAZA.slug), null);
      assert.deepEqual(await checkInActions(ctx), []);
    },
  );

  await t.step(
    "a form from another site is refused and writes nothing",
    async () => {
      const res = await post(ctx, admin, { metodo: "gps", radio: "200" }, {
        origin: "https://malo.example",
        "sec-fetch-site": "cross-site",
      });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /La solicitud no vino del panel/);
      assert.equal(await getCheckInMethodRecord(ctx.deps.kv, PLAZA.slug), null);
      assert.deepEqual(await checkInActions(ctx), []);
    },
  );

  await t.step(
    "an admin sets position only: stored, audited, shown",
    async () => {
      // The tourists' page, served from the page cache before the change.
      const publicPage = `/turismo/atractivos/${PLAZA.slug}`;
      const before = await (await ctx.app.request(publicPage)).text();
      assert.ok(before.includes('"method":"code"'), "the island's rule");
      const res = await post(ctx, admin, { metodo: "gps", radio: "300" });
      const after = await (await ctx.app.request(publicPage)).text();
      assert.ok(
        after.includes('"method":"gps"') &&
          after.includes("<p>¿Estás aquí? Toca «Estoy aquí» y suma un sello"),
        "the cached page is dropped at once",
      );
      assert.equal(res.status, 303);
      assert.equal(
        res.headers.get("location"),
        `${PAGE}?registro=listo#registro`,
      );
      const record = await getCheckInMethodRecord(ctx.deps.kv, PLAZA.slug);
      assert.equal(record?.method, "gps");
      assert.equal(record?.radiusM, 300);
      assert.equal(record?.setBy, "ana@municipio.gob.mx");
      const actions = await checkInActions(ctx);
      assert.equal(actions.length, 1);
      assert.equal(actions[0].staff.email, "ana@municipio.gob.mx");
      assert.equal(
        actions[0].target,
        `${PLAZA.slug} (method: gps, radius_m: 300)`,
      );
      const { html } = await get(ctx, admin, `${PAGE}?registro=listo`);
      assert.match(html, /Listo: desde ahora la visita se registra solo con/);
      assert.match(
        html,
        /data-check-in-method="gps">solo con ubicación<\/strong> dentro de <strong>300 m/,
      );
      assert.match(html, /Lo cambió una persona administradora el/);
      assert.match(html, /<option value="gps" selected>/);
      // The audit log says it in words, naming the attraction.
      const audit = await get(ctx, admin, "/panel/auditoria");
      assert.ok(
        audit.html.includes(
          `el registro de visitas de ${PLAZA.name} (solo con ubicación, 300 m)`,
        ),
        "the audit log's line",
      );
      // The codes page names each attraction's rule.
      const codes = await get(ctx, admin, "/panel/codigos");
      assert.match(
        codes.html,
        new RegExp(
          `href="${PAGE}#registro" data-check-in-method="gps">Registro: solo con ubicación \\(300 m\\)`,
        ),
      );
      // The viewer sees the new rule.
      const seen = await get(ctx, viewer);
      assert.match(seen.html, /data-check-in-method="gps">solo con ubicación</);
    },
  );

  await t.step(
    "an unknown attraction is a 404 that writes nothing",
    async () => {
      const res = await ctx.app.request(
        "/panel/atractivos/no-existe/registro",
        {
          method: "POST",
          headers: {
            cookie: admin,
            origin: ORIGIN,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "metodo=gps&radio=100",
        },
      );
      assert.equal(res.status, 404);
      await res.body?.cancel();
      assert.equal((await checkInActions(ctx)).length, 1);
    },
  );
});

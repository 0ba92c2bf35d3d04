/**
 * The console's partners and prizes (`/panel/premios`), used as the office
 * would: an admin adds a business and a prize and sees them listed; a form
 * with mistakes comes back with each error beside its field and nothing
 * stored; two admins saving the same version: the second is refused with
 * what is stored now, nothing lost; a new PIN is shown once and opens the
 * partner's page; a prize under a tenth of its units is flagged; a viewer
 * reads and cannot change. Every change is in the audit log.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import { keys } from "@/lib/db/keys.ts";
import {
  claimPrize,
  listPartners,
  listPrizes,
  openPartnerSession,
  type Prize,
} from "@/lib/db/rewards.ts";
import {
  createTestContext,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";

function post(
  ctx: TestContext,
  path: string,
  cookie: string,
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

async function page(ctx: TestContext, path: string, cookie: string) {
  const res = await ctx.app.request(path, { headers: { cookie } });
  return { status: res.status, html: await res.text() };
}

/** The error shown beside `field` in a form page, or null. */
function errorOf(html: string, field: string): string | null {
  const match = new RegExp(
    `<span class="field-error" id="${field}-error">([^<]*)</span>`,
  ).exec(html);
  return match?.[1] ?? null;
}

const PRIZE_FORM = {
  nombre_es: "Café de olla de regalo",
  nombre_en: "A free café de olla",
  descripcion_es: "En la barra, con tu pasaporte",
  descripcion_en: "At the bar, with your passport",
  requisito: "stamps",
  sellos: "5",
  desde: "2026-01-01",
  hasta: "2026-12-31",
  unidades: "20",
  per_day: "",
  per_passport: "1",
  activo: "on",
};

Deno.test("/panel/premios: the office's partners and prizes", async (t) => {
  await using ctx = await createTestContext({
    clockStart: new Date("2026-06-10T18:00:00Z"),
  });
  const admin = await signInStaff(ctx);
  const other = await signInStaff(ctx, { email: "luis@municipio.gob.mx" });
  const viewer = await signInStaff(ctx, {
    email: "vera@municipio.gob.mx",
    role: "viewer",
  });

  await t.step(
    "an admin adds a business from the portal's providers",
    async () => {
      const provider = SHIPPED.providers[0];
      const res = await post(ctx, "/panel/premios/comercio", admin, {
        proveedor: provider.slug,
        nombre: "",
        direccion: "",
        horario: "De 9:00 a 21:00",
        activo: "on",
      });
      assert.equal(res.status, 303, await res.text());
      const [partner] = await listPartners(ctx.deps.kv);
      assert.equal(partner.name, provider.name);
      assert.equal(partner.address, provider.address);
      assert.equal(partner.providerSlug, provider.slug);
      const { html } = await page(ctx, "/panel/premios", admin);
      assert.match(html, new RegExp(`data-partner="${partner.id}"`));
    },
  );

  await t.step(
    "a prize form with mistakes: errors beside each field, nothing stored",
    async () => {
      const [partner] = await listPartners(ctx.deps.kv);
      const res = await post(ctx, "/panel/premios/premio", admin, {
        ...PRIZE_FORM,
        comercio: partner.id,
        nombre_es: "",
        sellos: "99",
        hasta: "2025-12-31",
        unidades: "cero",
      });
      assert.equal(res.status, 422);
      const html = await res.text();
      assert.equal(errorOf(html, "nombre_es"), "Este campo es obligatorio.");
      assert.match(errorOf(html, "sellos")!, /entero entre 1 y 17/);
      assert.equal(
        errorOf(html, "hasta"),
        "La fecha final no puede ser anterior a la inicial.",
      );
      assert.match(errorOf(html, "unidades")!, /entero/);
      // What was typed is kept.
      assert.match(html, /value="2025-12-31"/);
      assert.deepEqual(await listPrizes(ctx.deps.kv), []);
    },
  );

  await t.step(
    "a prize is saved, listed with its stock, and an English gap is marked",
    async () => {
      const [partner] = await listPartners(ctx.deps.kv);
      const res = await post(ctx, "/panel/premios/premio", admin, {
        ...PRIZE_FORM,
        comercio: partner.id,
        nombre_en: "",
      });
      assert.equal(res.status, 303, await res.text());
      const [prize] = await listPrizes(ctx.deps.kv);
      assert.deepEqual(prize.requirement, { kind: "stamps", count: 5 });
      assert.equal(prize.stockTotal, 20);
      const { html } = await page(ctx, "/panel/premios", admin);
      assert.match(html, /5 sellos/);
      assert.match(html, /20 de 20/);
      const form = await page(ctx, `/panel/premios/premio/${prize.id}`, admin);
      assert.match(form.html, /falta la traducción/);
    },
  );

  await t.step(
    "two admins save the same version: the second is refused, nothing lost",
    async () => {
      const [prize] = await listPrizes(ctx.deps.kv);
      const entry = await ctx.deps.kv.get<Prize>(keys.prize(prize.id));
      const form = {
        ...PRIZE_FORM,
        id: prize.id,
        version: entry.versionstamp!,
        comercio: prize.partnerId,
      };
      const [first, second] = [
        await post(ctx, "/panel/premios/premio", admin, {
          ...form,
          unidades: "30",
        }),
        await post(ctx, "/panel/premios/premio", other, {
          ...form,
          unidades: "40",
        }),
      ];
      assert.equal(first.status, 303);
      assert.equal(second.status, 409);
      const html = await second.text();
      assert.match(html, /Otra persona guardó este registro/);
      // The form shows what is stored now: the first admin's 30.
      assert.match(html, /name="unidades"[^>]*value="30"/);
      assert.equal((await listPrizes(ctx.deps.kv))[0].stockTotal, 30);
    },
  );

  await t.step(
    "a new PIN is shown once and opens the partner's page",
    async () => {
      const [partner] = await listPartners(ctx.deps.kv);
      const res = await post(
        ctx,
        `/panel/premios/comercio/${partner.id}/pin`,
        admin,
        {},
      );
      assert.equal(res.status, 200);
      const html = await res.text();
      const pin = /data-pin[^>]*>(\d{4}) (\d{4})</.exec(html);
      assert.ok(pin, "the PIN is on the page");
      assert.match(html, /No se volverá a mostrar/);
      const opened = await openPartnerSession(ctx.deps.kv, {
        pin: pin[1] + pin[2],
        now: ctx.clock.now(),
      });
      assert.equal(opened?.partner.id, partner.id);
      const { html: list } = await page(ctx, "/panel/premios", admin);
      assert.ok(!list.includes(pin[1] + " " + pin[2]), "never on the list");
    },
  );

  await t.step("a prize under a tenth of its units is flagged", async () => {
    const [prize] = await listPrizes(ctx.deps.kv);
    // 30 units: 28 claimed leaves 2, under 3.
    await ctx.deps.kv.set(keys.prizeStock(prize.id), { claimed: 27 });
    let { html } = await page(ctx, "/panel/premios", admin);
    assert.doesNotMatch(html, /Quedan \d+ de 30 unidades/);
    const userId = crypto.randomUUID();
    await ctx.deps.kv.set(keys.userStats(userId), {
      visitCount: 5,
      badgeCount: 0,
      badges: [],
      visited: SHIPPED.attractions.slice(0, 5).map((a, i) => [
        a.slug,
        ctx.clock.now().toISOString(),
        null,
        i + 1,
      ]),
    });
    await claimPrize(ctx.deps.kv, {
      userId,
      prizeId: prize.id,
      guest: true,
      data: {
        attractionCount: SHIPPED.attractions.length,
        routes: new Map(),
      },
      now: ctx.clock.now(),
      timeZone: SHIPPED.municipality.timeZone,
    });
    ({ html } = await page(ctx, "/panel/premios", admin));
    assert.match(
      html,
      /Quedan 2 de 30 unidades de «Café de olla de regalo» en /,
    );
  });

  await t.step("a viewer reads, sees no form, and cannot change", async () => {
    const { status, html } = await page(ctx, "/panel/premios", viewer);
    assert.equal(status, 200);
    assert.match(html, /Café de olla de regalo/);
    assert.doesNotMatch(html, /action="\/panel\/premios/);
    assert.doesNotMatch(html, /Añadir un/);
    const [partner] = await listPartners(ctx.deps.kv);
    for (
      const path of [
        "/panel/premios/premio",
        "/panel/premios/comercio",
        `/panel/premios/comercio/${partner.id}/pin`,
      ]
    ) {
      const res = await post(ctx, path, viewer, { ...PRIZE_FORM });
      assert.equal(res.status, 403, path);
      await res.body?.cancel();
    }
    assert.equal(
      (await page(ctx, "/panel/premios/premio/nuevo", viewer)).status,
      403,
    );
  });

  await t.step("every change is in the audit log", async () => {
    const actions = (await listStaffActions(ctx.deps.kv, { limit: 200 })).values
      .map((entry) => entry.action);
    assert.equal(actions.filter((a) => a === "partner_saved").length, 1);
    assert.equal(actions.filter((a) => a === "prize_saved").length, 2);
    assert.equal(actions.filter((a) => a === "partner_pin_issued").length, 1);
  });
});

/**
 * Staff managed on the console (`/panel/personal`, routes/panel/personal.tsx):
 * an admin invites someone by e-mail (a single-use sign-in link is shown,
 * nothing sent), changes their role and removes them, whose sessions end
 * at once on every instance sharing the KV file; `STAFF` stays the
 * bootstrap the console cannot change; viewers and other sites are
 * refused. And the audit log in words, filtered and exported
 * (`/panel/auditoria`).
 */
import assert from "node:assert/strict";
import { listStaffActions, recordStaffAction } from "@/lib/db/audit.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import {
  createTestContext,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const ANA = "ana@municipio.gob.mx";
const LUIS = "luis@municipio.gob.mx";
const NOT_FOUND = "No encontramos esta página";

/** A provider that is never called, and `STAFF` with Ana as its one admin. */
const STAFF_ENV = {
  BASE_URL: ORIGIN,
  OIDC_ISSUER: "https://id.municipio.example",
  OIDC_CLIENT_ID: "portal",
  OIDC_CLIENT_SECRET: "secreto",
  STAFF: `admin:${ANA}`,
};

function post(
  ctx: TestContext,
  path: string,
  cookie: string,
  form: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(ctx.app.request(path, {
    method: "POST",
    headers: {
      cookie,
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  }));
}

async function get(ctx: TestContext, path: string, cookie: string) {
  const res = await ctx.app.request(path, { headers: { cookie } });
  return { res, html: await res.text() };
}

/** Invites `email` as `role`; the sign-in link the page shows. */
async function invite(
  ctx: TestContext,
  admin: string,
  email: string,
  role: "admin" | "viewer",
): Promise<string> {
  const res = await post(ctx, "/panel/personal/invitar", admin, {
    correo: email,
    rol: role,
  });
  const html = await res.text();
  assert.equal(res.status, 200, html);
  const link = /<code id="enlace-acceso"[^>]*>([^<]+)<\/code>/.exec(html)?.[1];
  assert.ok(link, "the link is shown");
  return link;
}

/** Opens a link as its button does; the new session's `Cookie` header. */
async function redeem(ctx: TestContext, link: string): Promise<string> {
  const res = await post(ctx, new URL(link).pathname, "");
  assert.equal(res.status, 303, await res.text());
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("staff="));
  assert.ok(cookie);
  return cookie.split(";")[0];
}

async function countSessionsOf(kv: Deno.Kv, email: string): Promise<number> {
  let count = 0;
  for await (
    const entry of kv.list<{ staff: { email: string } }>({
      prefix: ["staff_sessions"],
    })
  ) {
    if (entry.value.staff.email === email) count++;
  }
  return count;
}

async function withKvFile(fn: (kvPath: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "turismo-personal-" });
  try {
    await fn(`${dir}/turismo.kv`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("/panel/personal: invite, change a role, remove", async (t) => {
  await withKvFile(async (kvPath) => {
    await using a = await createTestContext({ kvPath, env: STAFF_ENV });
    await using b = await createTestContext({ kvPath, env: STAFF_ENV });
    const ana = await signInStaff(a, { email: ANA, role: "admin" });

    let luis = "";
    await t.step(
      "an invitation shows a single-use link that signs the new member in as a viewer",
      async () => {
        const link = await invite(a, ana, LUIS, "viewer");
        assert.match(link, /^http:\/\/localhost\/auth\/personal\/[\w-]{43}$/);
        luis = await redeem(a, link);
        const home = await get(b, "/panel", luis);
        assert.equal(home.res.status, 200);
        assert.match(home.html, /luis@municipio\.gob\.mx/);
        assert.match(home.html, /Consulta/);
        const refused = await get(b, "/panel/personal", luis);
        assert.equal(refused.res.status, 403);
        // Used once: a second time it is gone.
        const again = await post(a, new URL(link).pathname, "");
        assert.equal(again.status, 410);
        await again.body?.cancel();
      },
    );

    await t.step(
      "the list says who is in STAFF and who was invited",
      async () => {
        const { res, html } = await get(a, "/panel/personal", ana);
        assert.equal(res.status, 200);
        assert.match(html, /Configuración del servidor/);
        assert.match(html, /Invitación de ana@municipio\.gob\.mx/);
        assert.doesNotMatch(
          html,
          /auth\/personal\/[\w-]{43}/,
          "no link listed",
        );
      },
    );

    await t.step(
      "inviting someone again or someone in STAFF is refused",
      async () => {
        const twice = await post(a, "/panel/personal/invitar", ana, {
          correo: LUIS,
          rol: "admin",
        });
        assert.equal(twice.status, 409);
        assert.match(await twice.text(), /ya está en el personal/);
        const bootstrap = await post(a, "/panel/personal/invitar", ana, {
          correo: ANA,
          rol: "viewer",
        });
        assert.equal(bootstrap.status, 409);
        assert.match(await bootstrap.text(), /solo se cambian ahí/);
        const bad = await post(a, "/panel/personal/invitar", ana, {
          correo: "no es un correo",
          rol: "viewer",
        });
        assert.equal(bad.status, 400);
        await bad.body?.cancel();
      },
    );

    await t.step(
      "a new role applies at the member's next request on another instance",
      async () => {
        const res = await post(a, "/panel/personal/rol", ana, {
          correo: LUIS,
          rol: "admin",
        });
        assert.equal(res.status, 303);
        assert.equal(res.headers.get("location"), "/panel/personal?aviso=rol");
        const page = await get(b, "/panel/personal", luis);
        assert.equal(page.res.status, 200);
      },
    );

    await t.step("the STAFF member cannot be removed or demoted", async () => {
      for (
        const [path, form] of [
          ["/panel/personal/quitar/confirmar", { correo: ANA }],
          ["/panel/personal/quitar", { correo: ANA }],
          ["/panel/personal/rol", { correo: ANA, rol: "viewer" }],
        ] as const
      ) {
        const res = await post(a, path, luis, form);
        assert.equal(res.status, 409, path);
        assert.match(
          await res.text(),
          /viene de la configuración del servidor/,
        );
      }
      assert.equal((await get(a, "/panel/personal", ana)).res.status, 200);
    });

    await t.step("a removal on A ends the session on B at once", async () => {
      assert.equal(await countSessionsOf(a.deps.kv, LUIS), 1);
      const res = await post(a, "/panel/personal/quitar", ana, {
        correo: LUIS,
      });
      assert.equal(res.status, 303);
      const after = await get(b, "/panel", luis);
      assert.equal(after.res.status, 404);
      assert.match(after.html, new RegExp(NOT_FOUND));
      assert.equal(await countSessionsOf(b.deps.kv, LUIS), 0);
    });

    await t.step(
      "each change is audited with who did it and to whom",
      async () => {
        const { values } = await listStaffActions(a.deps.kv, { limit: 50 });
        const did = values.map((e) =>
          `${e.staff.email} ${e.action} ${e.target ?? ""}`
        );
        for (
          const line of [
            `${ANA} staff_invited ${LUIS}`,
            `${ANA} staff_role_changed ${LUIS}`,
            `${ANA} staff_removed ${LUIS}`,
            `${LUIS} access_removed `,
          ]
        ) {
          assert.ok(did.includes(line), `${line} in ${did.join("\n")}`);
        }
        const log = await get(a, "/panel/auditoria", ana);
        assert.match(log.html, /Invitó a una persona al panel/);
        assert.match(log.html, /luis@municipio\.gob\.mx \(rol: Consulta\)/);
        assert.match(log.html, /Quitó a una persona del panel/);
      },
    );
  });
});

Deno.test("/panel/personal: viewers and other sites are refused", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx, { email: ANA, role: "admin" });
  const viewer = await signInStaff(ctx, { email: LUIS, role: "viewer" });
  const paths = ["invitar", "enlace", "rol", "quitar/confirmar", "quitar"].map((
    p,
  ) => `/panel/personal/${p}`);

  await t.step(
    "a viewer gets the 403 page on every action, nothing changes",
    async () => {
      for (const path of paths) {
        const res = await post(ctx, path, viewer, {
          correo: "pepe@municipio.gob.mx",
          rol: "admin",
        });
        assert.equal(res.status, 403, path);
        assert.match(await res.text(), /requiere permisos de administración/);
      }
      assert.equal((await get(ctx, "/panel/personal", viewer)).res.status, 403);
      assert.equal(
        (await ctx.deps.kv.get(["staff_members", "roster"])).value,
        null,
      );
    },
  );

  await t.step("an invitation from another site is refused", async () => {
    const res = await post(
      ctx,
      "/panel/personal/invitar",
      admin,
      { correo: "pepe@municipio.gob.mx", rol: "admin" },
      { origin: "https://malo.example", "sec-fetch-site": "cross-site" },
    );
    assert.equal(res.status, 403);
    await res.body?.cancel();
    assert.equal(
      (await ctx.deps.kv.get(["staff_members", "roster"])).value,
      null,
    );
  });

  const PEPE = "pepe@municipio.gob.mx";
  let pepe = "";

  await t.step(
    "removing asks first: the confirmation changes nothing, cancel keeps the member",
    async () => {
      const link = await invite(ctx, admin, PEPE, "viewer");
      pepe = await redeem(ctx, link);
      const list = await get(ctx, "/panel/personal", admin);
      assert.match(
        list.html,
        /<form method="post" action="\/panel\/personal\/quitar\/confirmar"><input type="hidden" name="correo" value="pepe@municipio\.gob\.mx"\/><button[^>]*>Quitar del panel/,
      );
      const res = await post(ctx, "/panel/personal/quitar/confirmar", admin, {
        correo: PEPE,
      });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(
        html,
        /<h1>¿Quitar a pepe@municipio\.gob\.mx del panel\?<\/h1>/,
      );
      assert.match(
        html,
        /Sus sesiones terminan en cuanto confirmes y sus enlaces dejan de\s+funcionar\./,
      );
      assert.match(
        html,
        /<form[^>]*method="post" action="\/panel\/personal\/quitar"><input type="hidden" name="correo" value="pepe@municipio\.gob\.mx"\/><button class="button button--danger" type="submit">\s*Sí, quitar del panel/,
      );
      assert.match(
        html,
        /<a class="button button--ghost" href="\/panel\/personal">Cancelar<\/a>/,
      );
      // Nothing changed: the session works, the member is listed, no audit.
      assert.equal((await get(ctx, "/panel", pepe)).res.status, 200);
      const cancelled = await get(ctx, "/panel/personal", admin);
      assert.match(cancelled.html, /data-person="pepe@municipio\.gob\.mx"/);
      const { values } = await listStaffActions(ctx.deps.kv, { limit: 50 });
      assert.ok(!values.some((e) => e.action === "staff_removed"));
    },
  );

  await t.step(
    "the confirmation of someone not removable says why, changes nothing",
    async () => {
      for (
        const [correo, status, why] of [
          ["nadie@municipio.gob.mx", 404, /ya no está en la lista/],
          [ANA, 409, /No puedes quitarte a ti del panel/],
          ["no-es-correo", 400, /Escribe un correo electrónico válido/],
        ] as const
      ) {
        const res = await post(ctx, "/panel/personal/quitar/confirmar", admin, {
          correo,
        });
        assert.equal(res.status, status, correo);
        const html = await res.text();
        assert.match(html, why, correo);
        assert.doesNotMatch(html, /Sí, quitar del panel/, correo);
      }
    },
  );

  await t.step(
    "without STAFF, a removed member's link session ends too",
    async () => {
      assert.equal((await get(ctx, "/panel", pepe)).res.status, 200);
      const res = await post(ctx, "/panel/personal/quitar", admin, {
        correo: "pepe@municipio.gob.mx",
      });
      assert.equal(res.status, 303);
      assert.equal((await get(ctx, "/panel", pepe)).res.status, 404);
    },
  );
});

Deno.test("/panel/auditoria: in words, filtered, exported", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx, { email: ANA, role: "admin" });
  const attraction = SHIPPED.attractions[0];
  const visit = await recordVisit(ctx.deps.kv, {
    userId: crypto.randomUUID(),
    slug: attraction.slug,
    now: new Date("2026-11-20T18:00:00Z"),
    totalAttractions: SHIPPED.attractions.length,
  });
  assert.equal(visit.status, "created");
  if (visit.status !== "created") return;
  await recordStaffAction(ctx.deps.kv, {
    staff: { id: ANA, email: ANA, role: "admin" },
    action: "note_hidden",
    target: visit.visit.visitId,
    at: ctx.clock.now(),
  });
  await recordStaffAction(ctx.deps.kv, {
    staff: { id: ANA, email: ANA, role: "admin" },
    action: "code_replaced",
    target: `${attraction.slug} (periodo de gracia: 30 días)`,
    at: ctx.clock.now(),
  });
  await post(ctx, "/panel/personal/invitar", admin, {
    correo: LUIS,
    rol: "viewer",
  }).then((res) => res.body?.cancel());

  await t.step(
    "no ids or slugs: people by e-mail, attractions by name, notes by attraction and date",
    async () => {
      const { html } = await get(ctx, "/panel/auditoria", admin);
      assert.match(html, /Invitó a una persona al panel/);
      assert.ok(
        html.includes(
          `la nota de ${attraction.name} del 20 de noviembre de 2026`,
        ),
        "the note in words",
      );
      assert.ok(
        html.includes(`el código de ${attraction.name} (periodo de gracia`),
        "the attraction by name",
      );
      assert.doesNotMatch(html, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
      assert.ok(!html.includes(`>${attraction.slug}`), "no slug");
    },
  );

  await t.step("the filter by action keeps only matching rows", async () => {
    const { html } = await get(
      ctx,
      "/panel/auditoria?accion=staff_invited",
      admin,
    );
    const rows = html.match(/<tr><td><time/g) ?? [];
    assert.equal(rows.length, 1);
    assert.match(html, /Invitó a una persona/);
    assert.doesNotMatch(html, /<td>Entró al panel/);
  });

  await t.step("the filter by person and by date", async () => {
    const byLuis = await get(
      ctx,
      `/panel/auditoria?persona=${encodeURIComponent(LUIS)}`,
      admin,
    );
    assert.equal((byLuis.html.match(/<tr><td><time/g) ?? []).length, 1);
    const tomorrow = new Date(ctx.clock.now().getTime() + 2 * 86_400_000)
      .toISOString().slice(0, 10);
    const later = await get(
      ctx,
      `/panel/auditoria?desde=${tomorrow}`,
      admin,
    );
    assert.match(later.html, /Ninguna acción coincide con el filtro/);
  });

  await t.step("the export: the filtered rows as CSV with a BOM", async () => {
    const res = await ctx.app.request(
      "/panel/auditoria/auditoria.csv?accion=staff_invited",
      { headers: { cookie: admin } },
    );
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).trim().split("\n");
    assert.equal(lines[0], "fecha,persona,rol,accion,sobre");
    assert.equal(lines.length, 2);
    assert.match(lines[1], /ana@municipio\.gob\.mx,Administración,Invitó/);
  });
});

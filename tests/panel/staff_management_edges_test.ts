/**
 * The edges of managing the staff on the console (`/panel/personal`,
 * routes/panel/personal.tsx): the console never loses its last admin, by
 * any path (an invitation of one's own address as a viewer, a change of
 * role, a removal), counting `STAFF`'s admins as permanent and checked in
 * the change's own transaction, so two admins demoting each other at the
 * same moment do not both succeed; an admin may pass themself to viewer
 * while another is left. And **Enlace nuevo** ends the link it replaces.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import { addStaffMember } from "@/lib/db/staff_members.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import {
  createTestContext,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const ANA = "ana@municipio.gob.mx";
const LUIS = "luis@municipio.gob.mx";
const MARTA = "marta@municipio.gob.mx";
const LAST_ADMIN =
  /el panel se quedaría sin nadie con permisos de administración/;
const USED_OR_STALE = /Este enlace ya se usó o venció/;

/** A provider that is never called; `STAFF` as given. */
function staffEnv(staff: string): Record<string, string> {
  return {
    BASE_URL: ORIGIN,
    OIDC_ISSUER: "https://id.municipio.example",
    OIDC_CLIENT_ID: "portal",
    OIDC_CLIENT_SECRET: "secreto",
    STAFF: staff,
  };
}

async function post(
  ctx: TestContext,
  path: string,
  cookie: string,
  form: Record<string, string> = {},
): Promise<{ res: Response; html: string }> {
  const res = await ctx.app.request(path, {
    method: "POST",
    headers: {
      cookie,
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(form).toString(),
  });
  return { res, html: await res.text() };
}

async function get(ctx: TestContext, path: string, cookie: string) {
  const res = await ctx.app.request(path, { headers: { cookie } });
  return { res, html: await res.text() };
}

/** The sign-in link an answer of the page shows. */
function shownLink(html: string): string {
  const link = /<code id="enlace-acceso"[^>]*>([^<]+)<\/code>/.exec(html)?.[1];
  assert.ok(link, "the link is shown");
  return link;
}

/** Invites `email` as `role`; the sign-in link the page shows. */
async function invite(
  ctx: TestContext,
  admin: string,
  email: string,
  role: "admin" | "viewer",
): Promise<string> {
  const { res, html } = await post(ctx, "/panel/personal/invitar", admin, {
    correo: email,
    rol: role,
  });
  assert.equal(res.status, 200, html);
  return shownLink(html);
}

/** Presses a link's button; the answer, and the new session's `Cookie` header if any. */
async function pressLink(ctx: TestContext, link: string) {
  const { res, html } = await post(ctx, new URL(link).pathname, "");
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("staff="))
    ?.split(";")[0];
  return { res, html, cookie };
}

async function redeem(ctx: TestContext, link: string): Promise<string> {
  const { res, html, cookie } = await pressLink(ctx, link);
  assert.equal(res.status, 303, html);
  assert.ok(cookie);
  return cookie;
}

/** Everything a refusal must leave as it was: the roster and the audit log. */
async function snapshot(kv: Deno.Kv) {
  const roster = await kv.get(["staff_members", "roster"]);
  const { values } = await listStaffActions(kv, { limit: 200 });
  return { roster: roster.value, actions: values.length };
}

async function roleOf(ctx: TestContext, cookie: string) {
  const { res, html } = await get(ctx, "/panel", cookie);
  assert.equal(res.status, 200);
  const role = /<span class="staff-account__role">([^<]+)<\/span>/.exec(html)
    ?.[1];
  assert.ok(role === "Administración" || role === "Consulta", html);
  return role === "Administración" ? "admin" : "viewer";
}

async function withKvFile(fn: (kvPath: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "turismo-personal-edges-" });
  try {
    await fn(`${dir}/turismo.kv`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("/panel/personal: the console never loses its last admin", async (t) => {
  // No STAFF: Ana came in by a terminal link and is on no list.
  await using ctx = await createTestContext();
  const ana = await signInStaff(ctx, { email: ANA, role: "admin" });

  await t.step(
    "inviting one's own address as a viewer, with no other admin, is refused and writes nothing",
    async () => {
      const before = await snapshot(ctx.deps.kv);
      const { res, html } = await post(ctx, "/panel/personal/invitar", ana, {
        correo: ANA,
        rol: "viewer",
      });
      assert.equal(res.status, 409, html);
      assert.match(html, LAST_ADMIN);
      assert.doesNotMatch(html, /id="enlace-acceso"/);
      assert.deepEqual(await snapshot(ctx.deps.kv), before);
      assert.equal((await get(ctx, "/panel/personal", ana)).res.status, 200);
    },
  );

  let luis = "";
  await t.step(
    "the only admin on the list cannot be demoted or removed by a terminal link's admin",
    async () => {
      luis = await redeem(ctx, await invite(ctx, ana, LUIS, "admin"));
      const before = await snapshot(ctx.deps.kv);
      for (
        const [path, form] of [
          ["/panel/personal/rol", { correo: LUIS, rol: "viewer" }],
          ["/panel/personal/quitar/confirmar", { correo: LUIS }],
          ["/panel/personal/quitar", { correo: LUIS }],
        ] as const
      ) {
        const { res, html } = await post(ctx, path, ana, form);
        assert.equal(res.status, 409, path);
        assert.match(html, LAST_ADMIN, path);
        assert.doesNotMatch(html, /Sí, quitar del panel/, path);
      }
      assert.deepEqual(await snapshot(ctx.deps.kv), before);
      assert.equal(await roleOf(ctx, luis), "admin");
    },
  );

  await t.step(
    "an admin may pass themself to viewer while another admin is left, and the page says so",
    async () => {
      const page = await get(ctx, "/panel/personal", luis);
      assert.match(page.html, /Pasarme a consulta/);
      assert.match(page.html, /Tú puedes pasarte a\s+consulta si queda otra/);
      // Ana puts herself on the list as an admin: two admins now.
      await invite(ctx, ana, ANA, "admin");
      const { res } = await post(ctx, "/panel/personal/rol", luis, {
        correo: LUIS,
        rol: "viewer",
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/panel");
      assert.equal(await roleOf(ctx, luis), "viewer");
      assert.equal((await get(ctx, "/panel/personal", luis)).res.status, 403);
    },
  );

  await t.step(
    "the last admin cannot pass themself to viewer, nor remove themself",
    async () => {
      const before = await snapshot(ctx.deps.kv);
      const demote = await post(ctx, "/panel/personal/rol", ana, {
        correo: ANA,
        rol: "viewer",
      });
      assert.equal(demote.res.status, 409);
      assert.match(demote.html, LAST_ADMIN);
      const remove = await post(ctx, "/panel/personal/quitar", ana, {
        correo: ANA,
      });
      assert.equal(remove.res.status, 409);
      assert.match(remove.html, /No puedes quitarte a ti del panel/);
      assert.deepEqual(await snapshot(ctx.deps.kv), before);
      assert.equal(await roleOf(ctx, ana), "admin");
    },
  );
});

Deno.test("/panel/personal: STAFF's admins are permanent and counted", async (t) => {
  await t.step(
    "with an admin in STAFF (by address or by subject), the last console admin may step down",
    async () => {
      for (const staff of [`admin:${ANA}`, `admin:sub:1234,viewer:${MARTA}`]) {
        await using ctx = await createTestContext({ env: staffEnv(staff) });
        await addStaffMember(ctx.deps.kv, {
          email: LUIS,
          role: "admin",
          by: { id: ANA, email: ANA, role: "admin" },
          now: ctx.clock.now(),
        });
        const luis = await signInStaff(ctx, { email: LUIS, role: "admin" });
        const { res, html } = await post(ctx, "/panel/personal/rol", luis, {
          correo: LUIS,
          rol: "viewer",
        });
        assert.equal(res.status, 303, `${staff}: ${html}`);
        assert.equal(await roleOf(ctx, luis), "viewer");
      }
    },
  );

  await t.step(
    "a STAFF viewer is no admin, even with an admin record on the console",
    async () => {
      await using ctx = await createTestContext({
        env: staffEnv(`viewer:${MARTA}`),
      });
      const by = { id: LUIS, email: LUIS, role: "admin" as const };
      // Marta's record says admin, but STAFF, which wins, says viewer.
      for (const email of [MARTA, LUIS]) {
        await addStaffMember(ctx.deps.kv, {
          email,
          role: "admin",
          by,
          now: ctx.clock.now(),
        });
      }
      const marta = await signInStaff(ctx, { email: MARTA, role: "viewer" });
      assert.equal(await roleOf(ctx, marta), "viewer");
      const luis = await signInStaff(ctx, { email: LUIS, role: "admin" });
      const before = await snapshot(ctx.deps.kv);
      const { res, html } = await post(ctx, "/panel/personal/rol", luis, {
        correo: LUIS,
        rol: "viewer",
      });
      assert.equal(res.status, 409, html);
      assert.match(html, LAST_ADMIN);
      assert.deepEqual(await snapshot(ctx.deps.kv), before);
      assert.equal(await roleOf(ctx, luis), "admin");
    },
  );
});

Deno.test("/panel/personal: two admins demoting each other at once do not both succeed", async (t) => {
  await withKvFile(async (kvPath) => {
    await t.step(
      "the last two admins demoting each other, each on their own instance",
      async () => {
        await using a = await createTestContext({ kvPath });
        await using b = await createTestContext({ kvPath });
        const starter = await signInStaff(a, { email: MARTA, role: "admin" });
        const ana = await redeem(a, await invite(a, starter, ANA, "admin"));
        const luis = await redeem(b, await invite(a, starter, LUIS, "admin"));
        // Marta's terminal link does not make her a lasting admin; she goes.
        await post(a, "/panel/salir", starter);
        for (let round = 0; round < 5; round++) {
          const [byAna, byLuis] = await Promise.all([
            post(a, "/panel/personal/rol", ana, {
              correo: LUIS,
              rol: "viewer",
            }),
            post(b, "/panel/personal/rol", luis, {
              correo: ANA,
              rol: "viewer",
            }),
          ]);
          const done = [byAna, byLuis].filter(({ res }) => res.status === 303);
          assert.equal(done.length, 1, `round ${round}: one demotion`);
          for (const { res, html } of [byAna, byLuis]) {
            if (res.status === 303) continue;
            // Refused as the last admin, or as no admin any more.
            assert.ok([403, 409].includes(res.status), html);
          }
          const anaIsAdmin = (await roleOf(a, ana)) === "admin";
          const luisIsAdmin = (await roleOf(b, luis)) === "admin";
          assert.notEqual(anaIsAdmin, luisIsAdmin, `round ${round}`);
          // The one left promotes the other again for the next round.
          const back = await post(
            a,
            "/panel/personal/rol",
            anaIsAdmin ? ana : luis,
            {
              correo: anaIsAdmin ? LUIS : ANA,
              rol: "admin",
            },
          );
          assert.equal(back.res.status, 303, back.html);
        }
      },
    );

    await t.step(
      "the last two admins demoted at once from two instances: one is refused as the last",
      async () => {
        const path = `${kvPath}-last`;
        await using a = await createTestContext({ kvPath: path });
        await using b = await createTestContext({ kvPath: path });
        // Marta came in by a terminal link: an admin, but not a lasting one.
        const marta = await signInStaff(a, { email: MARTA, role: "admin" });
        await invite(a, marta, ANA, "admin");
        await invite(a, marta, LUIS, "admin");
        for (let round = 0; round < 5; round++) {
          const before = await listStaffActions(a.deps.kv, { limit: 200 });
          const answers = await Promise.all([
            post(a, "/panel/personal/rol", marta, {
              correo: ANA,
              rol: "viewer",
            }),
            post(b, "/panel/personal/rol", marta, {
              correo: LUIS,
              rol: "viewer",
            }),
          ]);
          const statuses = answers.map(({ res }) => res.status).sort();
          assert.deepEqual(statuses, [303, 409], `round ${round}`);
          assert.match(
            answers.find(({ res }) => res.status === 409)!.html,
            LAST_ADMIN,
          );
          const after = await listStaffActions(a.deps.kv, { limit: 200 });
          assert.equal(after.values.length, before.values.length + 1);
          const roster = await a.deps.kv.get<
            { members: { email: string; role: string }[] }
          >(["staff_members", "roster"]);
          const admins = roster.value!.members.filter((m) =>
            m.role === "admin"
          );
          assert.equal(admins.length, 1, `round ${round}`);
          const demoted = admins[0].email === ANA ? LUIS : ANA;
          const back = await post(a, "/panel/personal/rol", marta, {
            correo: demoted,
            rol: "admin",
          });
          assert.equal(back.res.status, 303, back.html);
        }
      },
    );

    await t.step(
      "with a permanent admin in STAFF, an admin demoted a moment ago cannot demote the other",
      async () => {
        const env = staffEnv(`admin:${MARTA}`);
        await using a = await createTestContext({ kvPath: `${kvPath}2`, env });
        await using b = await createTestContext({ kvPath: `${kvPath}2`, env });
        const marta = await signInStaff(a, { email: MARTA, role: "admin" });
        const ana = await redeem(a, await invite(a, marta, ANA, "admin"));
        const luis = await redeem(b, await invite(a, marta, LUIS, "admin"));
        const [byAna, byLuis] = await Promise.all([
          post(a, "/panel/personal/rol", ana, { correo: LUIS, rol: "viewer" }),
          post(b, "/panel/personal/rol", luis, { correo: ANA, rol: "viewer" }),
        ]);
        const statuses = [byAna.res.status, byLuis.res.status].sort();
        assert.equal(statuses[0], 303);
        assert.equal(statuses[1], 403, byAna.html + byLuis.html);
        const roles = [await roleOf(a, ana), await roleOf(b, luis)].sort();
        assert.deepEqual(roles, ["admin", "viewer"]);
        const { values } = await listStaffActions(a.deps.kv, { limit: 50 });
        const demotions = values.filter((e) =>
          e.action === "staff_role_changed" && e.role === "viewer"
        );
        assert.equal(demotions.length, 1);
      },
    );
  });
});

Deno.test("/panel/personal: Enlace nuevo ends the link it replaces", async (t) => {
  await using ctx = await createTestContext();
  const ana = await signInStaff(ctx, { email: ANA, role: "admin" });

  await t.step("link A, then link B: A is refused, B works", async () => {
    const a = await invite(ctx, ana, LUIS, "viewer");
    const { res, html } = await post(ctx, "/panel/personal/enlace", ana, {
      correo: LUIS,
    });
    assert.equal(res.status, 200, html);
    const b = shownLink(html);
    assert.notEqual(a, b);
    const refused = await pressLink(ctx, a);
    assert.equal(refused.res.status, 410);
    assert.match(refused.html, USED_OR_STALE);
    assert.equal(refused.cookie, undefined);
    const luis = await redeem(ctx, b);
    assert.equal(await roleOf(ctx, luis), "viewer");
    const { values } = await listStaffActions(ctx.deps.kv, { limit: 50 });
    assert.equal(
      values.filter((e) => e.action === "staff_link_issued").length,
      1,
    );
  });

  await t.step(
    "two new links asked for at once: exactly one of them works",
    async () => {
      const asks = await Promise.all(
        [0, 1].map(() =>
          post(ctx, "/panel/personal/enlace", ana, { correo: LUIS })
        ),
      );
      const links = asks.map(({ res, html }) => {
        assert.equal(res.status, 200, html);
        return shownLink(html);
      });
      const pressed = [];
      for (const link of links) pressed.push(await pressLink(ctx, link));
      assert.deepEqual(
        pressed.map(({ res }) => res.status).sort(),
        [303, 410],
      );
    },
  );

  await t.step(
    "a terminal link ends the one made before it, too",
    async () => {
      const make = () =>
        createStaffSignInLink(ctx.deps.kv, {
          email: MARTA,
          role: "viewer",
          baseUrl: ORIGIN,
          now: ctx.clock.now(),
        });
      const first = await make();
      const second = await make();
      const refused = await pressLink(ctx, first.url);
      assert.equal(refused.res.status, 410);
      assert.match(refused.html, USED_OR_STALE);
      assert.equal((await pressLink(ctx, second.url)).res.status, 303);
    },
  );

  await t.step(
    "a new link for someone not on the list writes nothing",
    async () => {
      const before = await snapshot(ctx.deps.kv);
      const links = await Array.fromAsync(
        ctx.deps.kv.list({ prefix: ["staff_links"] }),
      );
      const { res, html } = await post(ctx, "/panel/personal/enlace", ana, {
        correo: "nadie@municipio.gob.mx",
      });
      assert.equal(res.status, 404);
      assert.match(html, /ya no está en la lista/);
      assert.deepEqual(await snapshot(ctx.deps.kv), before);
      assert.equal(
        (await Array.fromAsync(ctx.deps.kv.list({ prefix: ["staff_links"] })))
          .length,
        links.length,
      );
    },
  );
});

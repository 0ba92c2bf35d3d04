/**
 * The edges of managing the staff on the console (`/panel/personal`,
 * routes/panel/personal.tsx): **Enlace nuevo** ends the link it replaces.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
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
const USED_OR_STALE = /Este enlace ya se usó o venció/;

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

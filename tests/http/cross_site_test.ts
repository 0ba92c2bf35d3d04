/**
 * One cross-site check for every route a cookie opens
 * (lib/http/cross_site.ts): a state-changing request from another site is
 * refused with 403 whatever its content type (JSON, octet-stream, plain
 * text, a form), on the staff console, the staff sign-in link, the
 * tourist's sign-out, the passport's data controls and the session token,
 * and nothing changes. The app runs in process on `:memory:` KV.
 */
import assert from "node:assert/strict";
import { createSession, getSession } from "@/lib/db/sessions.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import { SHIPPED } from "../test_utils.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  randomUserId,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";

/** The bodies a page of another site can send with `fetch` or a form. */
const BODIES: [contentType: string, body: string][] = [
  ["application/json", JSON.stringify({ guest: true, name: "Pirata" })],
  ["application/octet-stream", "\u0000\u0001"],
  ["text/plain", "name=Pirata"],
  ["application/x-www-form-urlencoded", "name=Pirata&confirmo=si"],
];

/** What another site's request says of where it comes from. */
const CROSS_SITE: Record<string, string>[] = [
  { origin: "https://malo.example", "sec-fetch-site": "cross-site" },
  { origin: "https://malo.example" },
  { "sec-fetch-site": "cross-site" },
  { origin: ORIGIN, "sec-fetch-site": "same-site" },
  { origin: "null" },
  // A cookie and neither header: no current browser, refused too.
  {},
];

async function openTouristSession(ctx: TestContext): Promise<string> {
  const { sessionId } = await createSession(ctx.deps.kv, {
    userId: randomUserId(),
    name: null,
    now: ctx.clock.now(),
    ttlMs: 60 * 60_000,
    guest: true,
  });
  return sessionId;
}

async function assertRefused(
  ctx: TestContext,
  path: string,
  cookie: string,
  { json = false } = {},
): Promise<void> {
  for (const [contentType, body] of BODIES) {
    for (const headers of CROSS_SITE) {
      const label = `${path} ${contentType} ${JSON.stringify(headers)}`;
      const res = await ctx.app.request(path, {
        method: "POST",
        headers: { cookie, "content-type": contentType, ...headers },
        body,
      });
      assert.equal(res.status, 403, label);
      assert.equal(res.headers.getSetCookie().length, 0, label);
      if (json) {
        const said = await assertJson(res, 403);
        assert.equal(said.error, "Prohibido", label);
        assert.match(said.details, /no vino de las páginas del portal/);
      } else {
        assert.equal(
          res.headers.get("content-type"),
          "text/html; charset=UTF-8",
          label,
        );
        assert.match(await res.text(), /no vino|didn’t come/, label);
      }
    }
  }
}

Deno.test("cross-site requests on cookie routes", async (t) => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;

  await t.step(
    "the staff console: every action refused, the session kept",
    async () => {
      const admin = await signInStaff(ctx);
      for (
        const path of [
          "/panel/salir",
          `/panel/notas/${crypto.randomUUID()}/ocultar`,
          `/panel/notas/${crypto.randomUUID()}/mostrar`,
          `/panel/codigos/${SHIPPED.attractions[0].slug}`,
          "/panel/preguntas/resolver",
          "/panel/solicitudes/ruta-inexistente/borrar",
          `/panel/sesiones/${crypto.randomUUID()}/cerrar`,
          "/panel/personal/invitar",
          "/panel/personal/enlace",
          "/panel/personal/rol",
          "/panel/personal/quitar/confirmar",
          "/panel/personal/quitar",
        ]
      ) {
        await assertRefused(ctx, path, admin);
      }
      const home = await ctx.app.request("/panel", {
        headers: { cookie: admin },
      });
      assert.equal(home.status, 200, "still signed in");
      await home.body?.cancel();
    },
  );

  await t.step(
    "a staff sign-in link posted from another site is not used up",
    async () => {
      const { url } = await createStaffSignInLink(kv, {
        email: "ana@municipio.gob.mx",
        role: "admin",
        baseUrl: ORIGIN,
        now: ctx.clock.now(),
      });
      const path = new URL(url).pathname;
      await assertRefused(ctx, path, "staff=x");
      const res = await ctx.app.request(path, {
        method: "POST",
        headers: {
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "",
      });
      assert.equal(res.status, 303, "the link still works from the portal");
    },
  );

  await t.step(
    "the tourist's sign-out and data controls: refused, nothing changed",
    async () => {
      const sessionId = await openTouristSession(ctx);
      const cookie = `session=${sessionId}`;
      for (const prefix of ["", "/en"]) {
        for (
          const path of [
            "/auth/signout",
            "/mi-pasaporte/nombre",
            "/mi-pasaporte/borrar",
          ]
        ) {
          await assertRefused(ctx, `${prefix}${path}`, cookie);
        }
      }
      assert.ok(
        await getSession(kv, sessionId, ctx.clock.now()),
        "still signed in, nothing erased",
      );
    },
  );

  await t.step(
    "the session token: refused with the API's JSON, no token",
    async () => {
      const sessionId = await openTouristSession(ctx);
      await assertRefused(ctx, "/api/session-token", `session=${sessionId}`, {
        json: true,
      });
    },
  );

  await t.step("the portal's own pages still get through", async () => {
    const sessionId = await openTouristSession(ctx);
    const sameOrigin: Record<string, string>[] = [
      { origin: ORIGIN, "sec-fetch-site": "same-origin" },
      { origin: ORIGIN },
      { "sec-fetch-site": "same-origin" },
      // A form on a no-referrer page (a staff link's), as Chromium posts it.
      { origin: "null", "sec-fetch-site": "same-origin" },
    ];
    for (const headers of sameOrigin) {
      const res = await postJson(ctx, "/api/session-token", {}, {
        cookie: `session=${sessionId}`,
        ...headers,
      });
      await assertJson(res, 200);
    }
    const out = await ctx.app.request("/auth/signout", {
      method: "POST",
      headers: {
        cookie: `session=${sessionId}`,
        origin: ORIGIN,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    assert.equal(out.status, 303);
    assert.equal(await getSession(kv, sessionId, ctx.clock.now()), null);
  });

  await t.step(
    "a request with no cookie and no Origin (not a browser) passes the check",
    async () => {
      const res = await postJson(ctx, "/api/session-token", {});
      const said = await assertJson(res, 401);
      assert.ok(said.error);
    },
  );
});

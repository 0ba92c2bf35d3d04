/**
 * The staff console is its own workspace (components/StaffLayout.tsx,
 * lib/staff/guard.ts): its pages and the staff sign-in carry the office's
 * name, the staff member, the sections and the sign-out, and nothing of the
 * tourist site (menu, chat, footer, language offer); the staff cookie lasts
 * as long as KV keeps its session, so a session that ran out sends its
 * browser to the staff sign-in every time, not to a 404; a member removed
 * from `STAFF` is a stranger, ended session or not. The identity provider's
 * callback pages for staff and the staff routes' cross-site refusal are in
 * the staff frame too.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import {
  createStaffSession,
  STAFF_EXPIRED_KEPT_MS,
  STAFF_IDLE_MS,
  STAFF_MAX_AGE_MS,
} from "@/lib/db/staff_sessions.ts";
import { CookieClient, parseSetCookie } from "../cookie_client.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import { oidcEnv, startOidcProvider } from "../oidc_provider.ts";
import {
  createTestContext,
  serveApp,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const OFFICE = SHIPPED.privacy.office;
const NOT_FOUND = "No encontramos esta página";
const EXPIRED_PATH = "/auth/personal?sesion=vencida";
const KEPT_S = (STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS) / 1000;

/** The settings of an identity provider (never called here) and `STAFF`. */
function staffEnv(staff: string): Record<string, string> {
  return {
    BASE_URL: ORIGIN,
    OIDC_ISSUER: "https://id.municipio.example",
    OIDC_CLIENT_ID: "portal",
    OIDC_CLIENT_SECRET: "secreto",
    STAFF: staff,
  };
}

async function get(ctx: TestContext, path: string, cookie?: string) {
  const res = await ctx.app.request(path, {
    headers: cookie ? { cookie } : {},
  });
  return { res, html: await res.text() };
}

/** What the tourist site's layout puts on every page, none of it on a staff page. */
const TOURIST_PARTS: [string, RegExp][] = [
  ["the tourist menu", /class="site-nav"/],
  ["the footer", /<footer|site-footer/],
  ["an island (the chat)", /data-island=/],
  ["a script", /<script/],
  ["a language link", /hreflang=|href="\/en\b|>English</],
  ["the emergency numbers", /Teléfonos de emergencia|tel:/],
];

function assertStaffFrame(html: string, label: string) {
  assert.match(html, /<html lang="es-MX">/, label);
  assert.ok(html.includes(OFFICE), `${label}: the office's name`);
  assert.match(html, /<meta name="robots" content="noindex, nofollow"/, label);
  for (const [part, pattern] of TOURIST_PARTS) {
    assert.doesNotMatch(html, pattern, `${label}: ${part}`);
  }
}

Deno.test("staff pages: the staff workspace's layout", async (t) => {
  // A model configured: tourist pages carry the chat; staff pages must not.
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    openai: fake.client({ maxRetries: 0, timeout: 10_000 }),
  });

  await t.step("the check sees the tourist layout where it is", async () => {
    const { html } = await get(ctx, "/turismo/atractivos");
    for (const [part, pattern] of TOURIST_PARTS) {
      assert.match(html, pattern, part);
    }
  });

  await t.step(
    "every console page: office, member and role, sections, sign-out; nothing of the tourist site",
    async () => {
      const admin = await signInStaff(ctx);
      for (
        const path of [
          "/panel",
          "/panel/codigos",
          "/panel/notas",
          "/panel/preguntas",
          "/panel/exportar",
          "/panel/solicitudes",
          "/panel/sesiones",
          "/panel/auditoria",
        ]
      ) {
        const { res, html } = await get(ctx, path, admin);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get("cache-control"), "private, no-store");
        assertStaffFrame(html, path);
        assert.match(html, /ana@municipio\.gob\.mx/, path);
        assert.match(html, /Administración/, path);
        assert.match(html, /<nav class="staff-nav" aria-label="Panel">/, path);
        assert.match(html, /href="\/panel\/auditoria"/, path);
        assert.match(
          html,
          /<form[^>]*method="post" action="\/panel\/salir"><button[^>]*>Salir</,
          path,
        );
        assert.match(html, /aria-current="page"/, path);
      }
    },
  );

  await t.step(
    "a viewer's 403 is in the console's frame, with a viewer's sections",
    async () => {
      const viewer = await signInStaff(ctx, {
        email: "maria@municipio.gob.mx",
        role: "viewer",
      });
      const { res, html } = await get(ctx, "/panel/auditoria", viewer);
      assert.equal(res.status, 403);
      assertStaffFrame(html, "403");
      assert.match(html, /Esta acción requiere permisos de administración/);
      assert.match(html, /maria@municipio\.gob\.mx/);
      assert.match(html, /Consulta/);
      assert.doesNotMatch(html, /href="\/panel\/auditoria"/);
      assert.match(html, /href="\/panel\/exportar"/);
    },
  );

  await t.step(
    "the staff sign-in pages: the plain staff frame, no member, no sections",
    async () => {
      const { url } = await import("@/lib/staff/sign_in.ts").then((m) =>
        m.createStaffSignInLink(ctx.deps.kv, {
          email: "luis@municipio.gob.mx",
          role: "viewer",
          baseUrl: ORIGIN,
          now: ctx.clock.now(),
        })
      );
      for (
        const path of ["/auth/personal", EXPIRED_PATH, new URL(url).pathname]
      ) {
        const { res, html } = await get(ctx, path);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get("cache-control"), "no-store");
        assertStaffFrame(html, path);
        assert.doesNotMatch(html, /staff-nav|\/panel\/salir/, path);
        // The office's name leads nowhere: /panel is a 404 to a stranger.
        assert.doesNotMatch(html, /href="\/panel"/, path);
      }
    },
  );
});

Deno.test("the staff cookie lasts as long as KV keeps its session", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "the sign-in sets a persistent cookie: the idle time and the 7 days an ended session is kept",
    async () => {
      const { createStaffSignInLink } = await import("@/lib/staff/sign_in.ts");
      const { url } = await createStaffSignInLink(ctx.deps.kv, {
        email: "ana@municipio.gob.mx",
        role: "admin",
        baseUrl: ORIGIN,
        now: ctx.clock.now(),
      });
      const res = await ctx.app.request(new URL(url).pathname, {
        method: "POST",
        headers: {
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
      });
      assert.equal(res.status, 303);
      const cookie = parseSetCookie(res.headers.getSetCookie()[0]);
      assert.equal(cookie.name, "staff");
      assert.equal(cookie.attributes.get("max-age"), String(KEPT_S));
      assert.equal(cookie.attributes.get("samesite"), "Strict");
      assert.ok(cookie.attributes.has("httponly"));
    },
  );

  await t.step(
    "each panel request renews it to the session's last use plus that time",
    async () => {
      const cookie = await signInStaff(ctx);
      ctx.clock.advance(2 * 60 * 60_000);
      const res = await ctx.app.request("/panel", { headers: { cookie } });
      assert.equal(res.status, 200);
      const [header] = res.headers.getSetCookie();
      const renewed = parseSetCookie(header);
      assert.equal(`${renewed.name}=${renewed.value}`, cookie);
      // Counted from the app's clock, not a date the browser's clock reads
      // (the app's clock here is a test's, days from the machine's).
      assert.equal(renewed.attributes.get("max-age"), String(KEPT_S));
      assert.equal(renewed.attributes.has("expires"), false);
    },
  );
});

Deno.test("a staff page opened after the session ran out", async (t) => {
  await using ctx = await createTestContext();

  for (
    const [why, advance] of [
      ["8 hours idle", STAFF_IDLE_MS],
      ["12 hours after the sign-in", STAFF_MAX_AGE_MS],
    ] as const
  ) {
    await t.step(
      `${why}: the staff sign-in, every time, the cookie kept`,
      async () => {
        const cookie = await signInStaff(ctx);
        if (advance === STAFF_MAX_AGE_MS) {
          // Busy all day: a request every 4 hours keeps it from idling.
          for (let hour = 4; hour < 12; hour += 4) {
            ctx.clock.advance(4 * 60 * 60_000);
            const { res } = await get(ctx, "/panel", cookie);
            assert.equal(res.status, 200, `after ${hour} hours`);
          }
          ctx.clock.advance(4 * 60 * 60_000);
        } else {
          ctx.clock.advance(advance);
        }
        for (const path of ["/panel", "/panel/notas", "/panel"]) {
          const { res } = await get(ctx, path, cookie);
          assert.equal(res.status, 303, path);
          assert.equal(res.headers.get("location"), EXPIRED_PATH);
          assert.deepEqual(res.headers.getSetCookie(), [], "the cookie stays");
        }
        // Days later, while KV still keeps the session: the same.
        ctx.clock.advance(STAFF_EXPIRED_KEPT_MS - 60 * 60_000);
        const { res } = await get(ctx, "/panel", cookie);
        assert.equal(res.status, 303);
      },
    );
  }

  await t.step(
    "the sign-in page says the session ended and how to get a new link",
    async () => {
      const { res, html } = await get(ctx, EXPIRED_PATH);
      assert.equal(res.status, 200);
      assert.match(html, /Tu sesión del panel terminó/);
      assert.match(
        html,
        /Pide a la persona que administra el portal un nuevo enlace de acceso/,
      );
      assert.doesNotMatch(html, /Entrar con mi cuenta institucional/);
    },
  );

  await t.step("a signed-out cookie is still a stranger's 404", async () => {
    const cookie = await signInStaff(ctx);
    const out = await ctx.app.request("/panel/salir", {
      method: "POST",
      headers: {
        cookie,
        origin: ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
      },
    });
    assert.equal(out.status, 303);
    const cleared = out.headers.getSetCookie().map(parseSetCookie);
    assert.deepEqual(
      cleared.map((c) => c.attributes.get("max-age")),
      ["0"],
      "only the clearing Set-Cookie",
    );
    const { res, html } = await get(ctx, "/panel", cookie);
    assert.equal(res.status, 404);
    assert.ok(html.includes(NOT_FOUND));
  });

  await t.step("no staff cookie: the site's ordinary 404", async () => {
    for (const path of ["/panel", "/panel/auditoria", "/panel/no-existe"]) {
      const { res, html } = await get(ctx, path);
      assert.equal(res.status, 404, path);
      assert.ok(html.includes(NOT_FOUND), path);
      assert.doesNotMatch(html, /panel|personal/i, path);
    }
  });
});

Deno.test("ran out, with the identity provider configured", async (t) => {
  const ANA = "ana@municipio.gob.mx";
  const LUIS = "luis@municipio.gob.mx";
  await using ctx = await createTestContext({
    env: staffEnv(`admin:${ANA}`),
  });
  const open = async (email: string, subject: string) => {
    const { sessionId } = await createStaffSession(ctx.deps.kv, {
      staff: { id: email, email, role: "admin" },
      now: ctx.clock.now(),
      method: "provider",
      subject,
    });
    return `staff=${sessionId}`;
  };

  await t.step(
    "a current member: the sign-in, with the provider's button and the link advice",
    async () => {
      const cookie = await open(ANA, "ana-1");
      ctx.clock.advance(STAFF_IDLE_MS);
      const { res } = await get(ctx, "/panel", cookie);
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), EXPIRED_PATH);
      const page = await get(ctx, EXPIRED_PATH);
      assert.match(page.html, /Tu sesión del panel terminó/);
      assert.match(
        page.html,
        /<a class="button" href="\/auth\/personal\/proveedor">\s*Entrar con mi cuenta institucional/,
      );
      assert.match(page.html, /Pide uno nuevo a la persona que administra/);
    },
  );

  await t.step(
    "someone no longer in STAFF: a 404 that says nothing of a panel, the session deleted and audited",
    async () => {
      const cookie = await open(LUIS, "luis-1");
      ctx.clock.advance(STAFF_IDLE_MS);
      const { res, html } = await get(ctx, "/panel", cookie);
      assert.equal(res.status, 404);
      assert.ok(html.includes(NOT_FOUND));
      assert.doesNotMatch(html, /panel|personal/i);
      const cleared = parseSetCookie(res.headers.getSetCookie()[0]);
      assert.equal(cleared.attributes.get("max-age"), "0");
      const [latest] = (await listStaffActions(ctx.deps.kv)).values;
      assert.equal(latest.action, "access_removed");
      assert.equal(latest.staff.email, LUIS);
      assert.equal((await get(ctx, "/panel", cookie)).res.status, 404);
    },
  );
});

Deno.test("the staff's pages of the provider's callback and the cross-site refusal: the staff frame", async (t) => {
  // The app's port must be known before the provider registers its callback.
  let handler: Deno.ServeHandler = () => new Response(null, { status: 503 });
  await using server = serveApp((req, info) => handler(req, info));
  const { origin } = server;
  await using provider = await startOidcProvider({
    redirectUri: `${origin}/auth/callback`,
  });
  // A model configured: tourist pages carry the chat; staff pages must not.
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    clockStart: new Date(),
    openai: fake.client({ maxRetries: 0, timeout: 10_000 }),
    // The provider's accounts are <name>@ejemplo.mx, verified.
    env: { ...oidcEnv(provider, origin), STAFF: "admin:ana@ejemplo.mx" },
  });
  handler = (req, info) => ctx.app.fetch(req, info);

  /** Signs `account` in at the provider from the staff entry point; the callback's answer. */
  async function signInAt(browser: CookieClient, account: string) {
    const isCallback = (url: URL) =>
      url.href.startsWith(`${origin}/auth/callback`);
    const page = await browser.follow(`${origin}/auth/personal/proveedor`, {
      stopAt: isCallback,
    });
    const html = await page.res.text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    assert.ok(action, "the provider's login form");
    const done = await browser.follow(
      new URL(action.replaceAll("&#x2F;", "/"), page.url),
      {
        stopAt: isCallback,
        init: {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            prompt: "login",
            login: account,
            password: "x",
          }),
        },
      },
    );
    assert.ok(isCallback(done.url), String(done.url));
    const res = await browser.fetch(done.url);
    return { res, html: await res.text() };
  }

  await t.step(
    'a listed identity: "Entrando al panel…" in the plain staff frame, going on to /panel',
    async () => {
      const { res, html } = await signInAt(new CookieClient(), "ana");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assertStaffFrame(html, "continue");
      assert.match(html, /<h1 id="staff-title">Entrando al panel…<\/h1>/);
      assert.match(html, /<meta http-equiv="refresh" content="0;url=\/panel"/);
      assert.match(html, /href="\/panel">Continuar al panel</);
      assert.doesNotMatch(html, /staff-nav|\/panel\/salir/);
    },
  );

  await t.step(
    "an identity not listed: the 403 in the plain staff frame",
    async () => {
      const { res, html } = await signInAt(new CookieClient(), "luis");
      assert.equal(res.status, 403);
      assertStaffFrame(html, "not listed");
      assert.match(html, /<h1 id="staff-title">Esta cuenta no tiene acceso/);
      assert.match(html, /href="\/auth\/personal"/);
      assert.doesNotMatch(html, /staff-nav|\/panel\/salir|href="\/panel"/);
    },
  );

  const crossSite = {
    method: "POST",
    headers: {
      origin: "https://malo.example",
      "sec-fetch-site": "cross-site",
      "content-type": "application/x-www-form-urlencoded",
    },
  };

  await t.step(
    "a console form posted from another site: the 403 in the console's frame",
    async () => {
      const { sessionId } = await createStaffSession(ctx.deps.kv, {
        staff: { id: "ana@ejemplo.mx", email: "ana@ejemplo.mx", role: "admin" },
        now: ctx.clock.now(),
        method: "provider",
        subject: "ana",
      });
      const cookie = `staff=${sessionId}`;
      const res = await ctx.app.request("/panel/personal/invitar", {
        ...crossSite,
        headers: { ...crossSite.headers, cookie },
      });
      assert.equal(res.status, 403);
      const html = await res.text();
      assertStaffFrame(html, "cross-site, console");
      assert.match(html, /La solicitud no vino del panel/);
      assert.match(html, /<nav class="staff-nav" aria-label="Panel">/);
      assert.match(html, /ana@ejemplo\.mx/);
    },
  );

  await t.step(
    "a sign-in link posted from another site: the 403 in the plain staff frame",
    async () => {
      const { createStaffSignInLink } = await import("@/lib/staff/sign_in.ts");
      const { url } = await createStaffSignInLink(ctx.deps.kv, {
        email: "ana@ejemplo.mx",
        role: "admin",
        baseUrl: origin,
        now: ctx.clock.now(),
      });
      const res = await ctx.app.request(new URL(url).pathname, crossSite);
      assert.equal(res.status, 403);
      const html = await res.text();
      assertStaffFrame(html, "cross-site, sign-in");
      assert.match(html, /La solicitud no vino del panel/);
      assert.doesNotMatch(html, /staff-nav|\/panel\/salir/);
    },
  );
});

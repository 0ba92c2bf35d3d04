/**
 * The portal's own sign-in, end to end over real HTTP: the app served with
 * Deno.serve on a loopback port, a real OpenID Connect provider
 * (npm:oidc-provider) on another, and a client with a cookie jar that
 * follows redirects like a browser.
 */
import { decodeJwt } from "jose";
import assert from "node:assert/strict";
import {
  consumeOAuthFlow,
  createSession,
  getSession,
  getSessionHandle,
  saveOAuthFlow,
} from "@/lib/db/sessions.ts";
import { keys } from "@/lib/db/keys.ts";
import { getShareCodeOfUser, getTicket } from "@/lib/db/tickets.ts";
import {
  getAttractionStats,
  getUserStats,
  listBadges,
  listVisits,
} from "@/lib/db/visits.ts";
import { FLOW_TTL_MS, SESSION_TTL_MS } from "@/lib/oauth/sign_in.ts";
import { CookieClient, parseSetCookie } from "../cookie_client.ts";
import {
  type AppWithProvider,
  oidcEnv,
  startAppWithProvider,
  startOidcProvider,
} from "../oidc_provider.ts";
import {
  createTestContext,
  randomShareCode,
  randomUserId,
  serveApp,
  SHIPPED,
  ticketBody,
  UUID,
  verifyVisits,
} from "../test_utils.ts";

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * Starts a sign-in and logs `account` in at the provider's own login form;
 * returns the provider's redirect back to the app (not yet visited).
 */
async function loginAtProvider(
  h: AppWithProvider,
  browser: CookieClient,
  { account = "ana", next }: { account?: string; next?: string } = {},
): Promise<URL> {
  const start = new URL("/auth/signin", h.origin);
  if (next !== undefined) start.searchParams.set("next", next);
  const isCallback = (url: URL) =>
    url.href.startsWith(`${h.origin}/auth/callback`);
  const page = await browser.follow(start, { stopAt: isCallback });
  assert.equal(page.res.status, 200, "the provider shows its login form");
  const html = await page.res.text();
  const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
  assert.ok(action, "the login form has an action");
  const submit = new URL(action.replaceAll("&#x2F;", "/"), page.url);
  const done = await browser.follow(submit, {
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
  });
  assert.ok(isCallback(done.url), `redirected back to the app: ${done.url}`);
  return done.url;
}

/** A full sign-in; returns the callback's response (not followed). */
async function signIn(
  h: AppWithProvider,
  browser: CookieClient,
  options: { account?: string; next?: string } = {},
): Promise<Response> {
  const callback = await loginAtProvider(h, browser, options);
  const res = await browser.fetch(callback);
  await res.body?.cancel();
  return res;
}

function sessionCookieOf(res: Response) {
  const header = res.headers.getSetCookie().find((c) =>
    c.startsWith("session=")
  );
  return header ? parseSetCookie(header) : undefined;
}

async function getPage(
  h: AppWithProvider,
  browser: CookieClient,
  path: string,
) {
  const res = await browser.fetch(new URL(path, h.origin));
  return { res, html: await res.text() };
}

async function requestToken(
  h: AppWithProvider,
  browser: CookieClient,
  headers: Record<string, string> = { origin: h.origin },
) {
  const res = await browser.fetch(new URL("/api/session-token", h.origin), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: "{}",
  });
  return { res, body: await res.json() };
}

Deno.test("GET /auth/signin and /auth/callback with a real OpenID provider", async (t) => {
  await using h = await startAppWithProvider();
  const { kv } = h.ctx.deps;

  await t.step(
    "a tourist signs in and lands on /mi-pasaporte with a new HttpOnly session cookie",
    async () => {
      const browser = new CookieClient();
      const res = await signIn(h, browser);
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/mi-pasaporte");
      const cookie = sessionCookieOf(res);
      assert.ok(cookie, "a session cookie is set");
      assert.match(cookie.value, SESSION_ID);
      assert.equal(cookie.attributes.get("path"), "/");
      assert.ok(cookie.attributes.has("httponly"));
      assert.equal(cookie.attributes.get("samesite"), "Lax");
      // Plain http on loopback: no Secure (a browser would drop it), no __Host-.
      assert.ok(!cookie.attributes.has("secure"));
      assert.equal(
        cookie.attributes.get("max-age"),
        String(SESSION_TTL_MS / 1000),
      );
      const state = res.headers.getSetCookie().find((c) =>
        c.startsWith("signin-state=")
      );
      assert.ok(
        state && /Max-Age=0/.test(state),
        "the sign-in state cookie is cleared",
      );

      const now = h.ctx.clock.now();
      const session = await getSession(kv, cookie.value, now);
      assert.ok(session);
      assert.match(session.userId, UUID);
      assert.equal(session.name, "Turista ana");
      assert.equal(session.createdAt, now.toISOString());
      assert.equal(
        session.expiresAt,
        new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      );
      const identity = await kv.get<{ userId: string }>(
        keys.userByIdentity(h.provider.issuer, "ana"),
      );
      assert.equal(identity.value?.userId, session.userId);

      const page = await getPage(h, browser, "/mi-pasaporte");
      assert.equal(page.res.status, 200);
      assert.match(page.res.headers.get("content-type")!, /^text\/html/);
      assert.match(page.html, /Hola, Turista ana/);
      assert.match(page.html, /Registrar una visita/);
      assert.match(page.html, /Cerrar sesión/);
    },
  );

  await t.step(
    "from the English passport a tourist lands back on it, greeted and signed out in English",
    async () => {
      const browser = new CookieClient();
      const res = await signIn(h, browser, { next: "/en/mi-pasaporte" });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/en/mi-pasaporte");
      const page = await getPage(h, browser, "/en/mi-pasaporte");
      assert.equal(page.res.status, 200);
      assert.match(page.html, /<html lang="en-US">/);
      assert.match(page.html, /Hi, Turista ana\. Check in at every attraction/);
      assert.match(
        page.html,
        /<form method="post" action="\/en\/auth\/signout" data-pending-one="You have 1 pending stamp[^"]*"[^>]*><button class="button button--ghost" type="submit">Sign out<\/button>/,
      );
      assert.match(page.html, /<h2 id="datos-titulo">Your data<\/h2>/);
      const out = await browser.fetch(`${h.origin}/en/auth/signout`, {
        method: "POST",
        headers: { origin: h.origin },
      });
      assert.equal(out.status, 303);
      assert.equal(out.headers.get("location"), "/en/");
      const after = await getPage(h, browser, "/en/mi-pasaporte");
      assert.match(
        after.html,
        /href="\/en\/auth\/signin\?next=%2Fen%2Fmi-pasaporte">Sign in to keep it in your account/,
      );
    },
  );

  await t.step(
    "the authorization request carries PKCE S256, state, nonce and the configured redirect URI",
    async () => {
      const browser = new CookieClient();
      const res = await browser.fetch(
        `${h.origin}/auth/signin?next=${
          encodeURIComponent("/turismo/atractivos")
        }`,
      );
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const to = new URL(res.headers.get("location")!);
      assert.equal(to.origin, h.provider.issuer);
      const q = to.searchParams;
      assert.equal(q.get("response_type"), "code");
      assert.equal(q.get("client_id"), h.provider.clientId);
      assert.equal(q.get("redirect_uri"), `${h.origin}/auth/callback`);
      assert.equal(q.get("code_challenge_method"), "S256");
      assert.match(q.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
      assert.match(q.get("scope")!, /\bopenid\b/);
      const state = q.get("state")!;
      assert.equal(browser.cookie("signin-state"), state);
      const flow = await consumeOAuthFlow(kv, state, h.ctx.clock.now());
      assert.ok(flow, "the flow is stored under its state");
      assert.equal(flow.nonce, q.get("nonce"));
      assert.equal(flow.next, "/turismo/atractivos");
      assert.equal(flow.expiresAt, h.ctx.clock.now().getTime() + FLOW_TTL_MS);
      const challenge = new Uint8Array(
        await crypto.subtle.digest(
          "SHA-256",
          new TextEncoder().encode(flow.codeVerifier),
        ),
      );
      const b64 = btoa(String.fromCharCode(...challenge)).replaceAll("+", "-")
        .replaceAll("/", "_").replace(/=+$/, "");
      assert.equal(q.get("code_challenge"), b64, "challenge = S256(verifier)");
    },
  );

  await t.step(
    "the same provider account is the same user on every sign-in, with a new session id each time",
    async () => {
      const first = sessionCookieOf(
        await signIn(h, new CookieClient(), { account: "beto" }),
      )!;
      const second = sessionCookieOf(
        await signIn(h, new CookieClient(), { account: "beto" }),
      )!;
      assert.notEqual(first.value, second.value);
      const now = h.ctx.clock.now();
      const [a, b] = await Promise.all([
        getSession(kv, first.value, now),
        getSession(kv, second.value, now),
      ]);
      assert.equal(a?.userId, b?.userId);
      const other = sessionCookieOf(
        await signIn(h, new CookieClient(), { account: "carla" }),
      )!;
      assert.notEqual(
        (await getSession(kv, other.value, now))?.userId,
        a?.userId,
      );
    },
  );

  await t.step(
    "two first sign-ins of one account at the same moment create one user",
    async () => {
      const account = `nuevo-${crypto.randomUUID().slice(0, 8)}`;
      const browsers = [
        new CookieClient(),
        new CookieClient(),
        new CookieClient(),
      ];
      const callbacks = await Promise.all(
        browsers.map((b) => loginAtProvider(h, b, { account })),
      );
      const responses = await Promise.all(
        callbacks.map((url, i) => browsers[i].fetch(url)),
      );
      const now = h.ctx.clock.now();
      const users = new Set<string>();
      for (const res of responses) {
        assert.equal(res.status, 303);
        await res.body?.cancel();
        users.add(
          (await getSession(kv, sessionCookieOf(res)!.value, now))!.userId,
        );
      }
      assert.equal(users.size, 1);
    },
  );

  await t.step(
    "a same-site next path is where the sign-in returns to",
    async () => {
      const res = await signIn(h, new CookieClient(), {
        next: "/turismo/atractivos/plaza-principal?ver=1#mapa",
      });
      assert.equal(res.status, 303);
      assert.equal(
        res.headers.get("location"),
        "/turismo/atractivos/plaza-principal?ver=1#mapa",
      );
    },
  );

  await t.step(
    "open redirects are refused and land on /mi-pasaporte",
    async () => {
      for (
        const next of [
          "https://evil.example",
          "//evil.example",
          "/\\evil.example",
          "/\t/evil.example",
          "javascript:alert(1)",
          "evil.example",
          // Another host only once normalised.
          "/.//evil.example",
          "/..//evil.example/path",
          "/a/..//evil.example",
          "/%2e%2e//evil.example",
        ]
      ) {
        const res = await signIn(h, new CookieClient(), { next });
        assert.equal(res.status, 303, next);
        assert.equal(res.headers.get("location"), "/mi-pasaporte", next);
      }
    },
  );

  await t.step(
    "a replayed callback is refused before the code is exchanged again",
    async () => {
      const browser = new CookieClient();
      const callback = await loginAtProvider(h, browser);
      const state = browser.cookie("signin-state")!;
      const first = await browser.fetch(callback);
      assert.equal(first.status, 303);
      await first.body?.cancel();
      const exchanges = h.provider.tokenRequests();
      // The replay, even with the state cookie put back.
      browser.setCookie("signin-state", state);
      browser.deleteCookie("session");
      const replay = await browser.fetch(callback);
      assert.equal(replay.status, 400);
      assert.match(replay.headers.get("content-type")!, /^text\/html/);
      assert.match(
        await replay.text(),
        /No se pudo completar el inicio de sesión/,
      );
      assert.equal(sessionCookieOf(replay), undefined);
      assert.equal(h.provider.tokenRequests(), exchanges);
    },
  );

  await t.step(
    "the same callback sent five times at once signs in exactly once",
    async () => {
      const browser = new CookieClient();
      const callback = await loginAtProvider(h, browser);
      const exchanges = h.provider.tokenRequests();
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => browser.fetch(callback)),
      );
      for (const res of responses) await res.body?.cancel();
      const statuses = responses.map((res) => res.status).sort();
      assert.deepEqual(statuses, [303, 400, 400, 400, 400]);
      assert.equal(responses.filter((res) => sessionCookieOf(res)).length, 1);
      assert.equal(h.provider.tokenRequests(), exchanges + 1);
    },
  );

  await t.step("a callback with a wrong state is refused", async () => {
    const browser = new CookieClient();
    const callback = await loginAtProvider(h, browser);
    const wrong = new URL(callback);
    wrong.searchParams.set("state", "A".repeat(43));
    browser.setCookie("signin-state", "A".repeat(43));
    const res = await browser.fetch(wrong);
    assert.equal(res.status, 400);
    assert.equal(sessionCookieOf(res), undefined);
    await res.body?.cancel();
  });

  await t.step(
    "a callback address opened in another browser is refused (login CSRF)",
    async () => {
      const attacker = new CookieClient();
      const callback = await loginAtProvider(h, attacker, {
        account: "atacante",
      });
      const victim = new CookieClient();
      const res = await victim.fetch(callback);
      assert.equal(res.status, 400);
      assert.equal(sessionCookieOf(res), undefined);
      await res.body?.cancel();
    },
  );

  await t.step(
    "a code replayed with another sign-in's state fails the PKCE check",
    async () => {
      const browser = new CookieClient();
      const stolen = new URL(await loginAtProvider(h, browser));
      const first = await browser.fetch(stolen);
      await first.body?.cancel();
      // A fresh sign-in gives the browser a new state (and PKCE verifier).
      const fresh = await browser.fetch(`${h.origin}/auth/signin`);
      await fresh.body?.cancel();
      const state = new URL(fresh.headers.get("location")!).searchParams.get(
        "state",
      )!;
      const forged = new URL(stolen);
      forged.searchParams.set("state", state);
      const res = await browser.fetch(forged);
      assert.equal(res.status, 400);
      assert.equal(sessionCookieOf(res), undefined);
      await res.body?.cancel();
    },
  );

  await t.step("an ID token with another nonce is refused", async () => {
    const browser = new CookieClient();
    const callback = await loginAtProvider(h, browser);
    const state = callback.searchParams.get("state")!;
    const now = h.ctx.clock.now();
    const flow = (await consumeOAuthFlow(kv, state, now))!;
    await saveOAuthFlow(kv, state, { ...flow, nonce: "otro-nonce" }, {
      ttlMs: FLOW_TTL_MS,
    });
    const res = await browser.fetch(callback);
    assert.equal(res.status, 400);
    assert.equal(sessionCookieOf(res), undefined);
    await res.body?.cancel();
  });

  await t.step(
    "a sign-in not finished within 10 minutes is refused",
    async () => {
      const browser = new CookieClient();
      const callback = await loginAtProvider(h, browser);
      h.ctx.clock.advance(FLOW_TTL_MS + 1_000);
      const res = await browser.fetch(callback);
      assert.equal(res.status, 400);
      assert.equal(sessionCookieOf(res), undefined);
      await res.body?.cancel();
    },
  );

  await t.step("a cancelled sign-in shows a Spanish 400 page", async () => {
    const browser = new CookieClient();
    const res = await browser.fetch(`${h.origin}/auth/signin`);
    await res.body?.cancel();
    const state = browser.cookie("signin-state")!;
    const cancelled = new URL(`${h.origin}/auth/callback`);
    cancelled.search = new URLSearchParams({
      error: "access_denied",
      state,
      iss: h.provider.issuer,
    }).toString();
    const page = await browser.fetch(cancelled);
    assert.equal(page.status, 400);
    assert.match(await page.text(), /Cancelaste el inicio de sesión/);
  });

  await t.step(
    "a sign-in cancelled from an English page answers in English, its links to English pages",
    async () => {
      const browser = new CookieClient();
      const res = await browser.fetch(
        `${h.origin}/en/auth/signin?next=%2Fen%2Fmi-pasaporte`,
      );
      assert.equal(res.status, 302);
      await res.body?.cancel();
      const cancelled = new URL(`${h.origin}/auth/callback`);
      cancelled.search = new URLSearchParams({
        error: "access_denied",
        state: browser.cookie("signin-state")!,
        iss: h.provider.issuer,
      }).toString();
      const page = await browser.fetch(cancelled);
      assert.equal(page.status, 400);
      const html = await page.text();
      assert.match(html, /<html lang="en-US">/);
      assert.match(html, /<h1 id="auth-title">You canceled signing in<\/h1>/);
      assert.match(html, /No data was shared\./);
      assert.ok(html.includes('href="/en/auth/signin"'), "try again");
      assert.ok(html.includes('href="/en/"'), "home");
      assert.ok(!html.includes("Cancelaste"));
    },
  );

  await t.step(
    "a session id planted before sign-in is never used: a new id, and the old session ends",
    async () => {
      const planted = await createSession(kv, {
        userId: randomUserId(),
        name: "Otra persona",
        now: h.ctx.clock.now(),
        ttlMs: SESSION_TTL_MS,
      });
      const browser = new CookieClient();
      browser.setCookie("session", planted.sessionId);
      const res = await signIn(h, browser, { account: "dora" });
      const cookie = sessionCookieOf(res)!;
      assert.notEqual(cookie.value, planted.sessionId);
      assert.equal(
        await getSession(kv, planted.sessionId, h.ctx.clock.now()),
        null,
      );
      const page = await getPage(h, browser, "/mi-pasaporte");
      assert.match(page.html, /Hola, Turista dora/);
      assert.doesNotMatch(page.html, /Otra persona/);
    },
  );
});

Deno.test("GET /auth/callback when the provider goes down mid-sign-in", async (t) => {
  await using h = await startAppWithProvider();

  await t.step(
    "discovery is read once and cached across sign-ins",
    async () => {
      await signIn(h, new CookieClient(), { account: "uno" });
      await signIn(h, new CookieClient(), { account: "dos" });
      assert.equal(
        h.provider.requests("/.well-known/openid-configuration"),
        1,
      );
    },
  );

  await t.step(
    "a token endpoint that refuses connections is a Spanish 502 page, and no session",
    async () => {
      const browser = new CookieClient();
      const callback = await loginAtProvider(h, browser);
      await h.provider.stop();
      const res = await browser.fetch(callback);
      assert.equal(res.status, 502);
      assert.match(res.headers.get("content-type")!, /^text\/html/);
      assert.match(await res.text(), /No pudimos comunicarnos/);
      assert.equal(sessionCookieOf(res), undefined);
    },
  );
});

Deno.test("POST /api/session-token", async (t) => {
  await using h = await startAppWithProvider();
  const browser = new CookieClient();
  await signIn(h, browser, { account: "eva" });
  const session = (await getSession(
    h.ctx.deps.kv,
    browser.cookie("session")!,
    h.ctx.clock.now(),
  ))!;

  await t.step(
    "a signed-in page gets a 10-minute token that verify-visit accepts",
    async () => {
      const { res, body } = await requestToken(h, browser, {
        origin: h.origin,
        "sec-fetch-site": "same-origin",
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type")!, /^application\/json/);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.deepEqual(Object.keys(body).sort(), [
        "expiresIn",
        "guest",
        "token",
        "userId",
      ]);
      assert.equal(body.expiresIn, 600);
      assert.equal(body.userId, session.userId);
      assert.equal(body.guest, false);
      const verify = await fetch(`${h.origin}/api/turismo/verify-visit`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${body.token}`,
        },
        body: JSON.stringify({ code: "plz4ka", userId: session.userId }),
      });
      assert.equal(verify.status, 200);
      const visit = await verify.json();
      assert.equal(visit.success, true);
      assert.equal(visit.atractivo, "plaza-principal");
      const page = await getPage(h, browser, "/mi-pasaporte");
      assert.match(page.html, /Plaza Principal/);
      assert.equal(page.res.headers.get("cache-control"), "private, no-store");
    },
  );

  await t.step("without a session cookie it is a 401", async () => {
    const { res, body } = await requestToken(h, new CookieClient());
    assert.equal(res.status, 401);
    assert.equal(body.error, "No autorizado");
  });

  await t.step("a request from another origin is a 403", async () => {
    for (
      const headers of [
        { origin: "https://evil.example" },
        { origin: h.origin, "sec-fetch-site": "cross-site" },
        { origin: h.origin, "sec-fetch-site": "same-site" },
        { origin: "null" },
        {} as Record<string, string>,
      ]
    ) {
      const { res } = await requestToken(h, browser, headers);
      assert.equal(res.status, 403, JSON.stringify(headers));
    }
  });

  await t.step("a tampered session cookie is a 401, never a 500", async () => {
    const id = browser.cookie("session")!;
    const tampered = new CookieClient();
    for (
      const value of [
        `${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`,
        `${id}x`,
        "x".repeat(5_000),
        "%00%ff",
      ]
    ) {
      tampered.setCookie("session", value);
      const { res } = await requestToken(h, tampered);
      assert.equal(res.status, 401, value.slice(0, 50));
      const page = await getPage(h, tampered, "/mi-pasaporte");
      assert.equal(page.res.status, 200);
      assert.match(page.html, /Iniciar sesión/);
    }
  });

  await t.step("an expired session is signed out", async () => {
    h.ctx.clock.advance(SESSION_TTL_MS);
    const { res } = await requestToken(h, browser);
    assert.equal(res.status, 401);
    const page = await getPage(h, browser, "/mi-pasaporte");
    assert.doesNotMatch(page.html, /Cerrar sesión/);
    assert.match(page.html, /No necesitas cuenta/);
    assert.match(page.html, /href="\/auth\/signin\?next=%2Fmi-pasaporte"/);
  });
});

Deno.test("POST /auth/signout", async (t) => {
  await using h = await startAppWithProvider();
  const { kv } = h.ctx.deps;
  const browser = new CookieClient();
  await signIn(h, browser, { account: "fer" });
  const sessionId = browser.cookie("session")!;
  const signout = `${h.origin}/auth/signout`;

  await t.step("GET does not sign out: 405 with Allow: POST", async () => {
    const res = await browser.fetch(signout);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "POST");
    assert.match(await res.text(), /Cerrar sesión/);
    assert.ok(await getSession(kv, sessionId, h.ctx.clock.now()));
  });

  await t.step("a POST from another site does not sign out: 403", async () => {
    for (
      const headers of [
        { origin: "https://evil.example" },
        { origin: h.origin, "sec-fetch-site": "cross-site" },
        {} as Record<string, string>,
      ]
    ) {
      const res = await browser.fetch(signout, { method: "POST", headers });
      assert.equal(res.status, 403, JSON.stringify(headers));
      await res.body?.cancel();
      assert.equal(sessionCookieOf(res), undefined);
    }
    assert.ok(await getSession(kv, sessionId, h.ctx.clock.now()));
  });

  await t.step(
    "under /en the refusals are English pages and the session stays",
    async () => {
      const get = await browser.fetch(`${h.origin}/en/auth/signout`);
      assert.equal(get.status, 405);
      const getHtml = await get.text();
      assert.match(getHtml, /<html lang="en-US">/);
      assert.match(getHtml, /To sign out, use the “Sign out” button/);
      const post = await browser.fetch(`${h.origin}/en/auth/signout`, {
        method: "POST",
        headers: { origin: "https://evil.example" },
      });
      assert.equal(post.status, 403);
      const refused = await post.text();
      assert.match(refused, /<html lang="en-US">/);
      assert.match(refused, /Request refused/);
      assert.match(refused, /so nothing was changed/);
      assert.ok(await getSession(kv, sessionId, h.ctx.clock.now()));
    },
  );

  let pageToken = "";
  await t.step(
    "the portal's sign-out button deletes the session and the cookie and goes home",
    async () => {
      const issued = await requestToken(h, browser, {
        origin: h.origin,
        "sec-fetch-site": "same-origin",
      });
      assert.equal(issued.res.status, 200);
      pageToken = issued.body.token;
      const res = await browser.fetch(signout, {
        method: "POST",
        headers: {
          origin: h.origin,
          "sec-fetch-site": "same-origin",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "",
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/");
      await res.body?.cancel();
      const cleared = sessionCookieOf(res);
      assert.equal(cleared?.value, "");
      assert.equal(cleared?.attributes.get("max-age"), "0");
      assert.equal(
        (await kv.get(keys.session(await getSessionHandle(sessionId)))).value,
        null,
      );
      // Even a copy of the old cookie is signed out now.
      const copy = new CookieClient();
      copy.setCookie("session", sessionId);
      assert.equal((await requestToken(h, copy)).res.status, 401);
    },
  );

  await t.step(
    "a page token issued before sign-out no longer verifies a visit: 401",
    async () => {
      const userId = decodeJwt(pageToken).sub;
      const res = await fetch(`${h.origin}/api/turismo/verify-visit`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${pageToken}`,
        },
        body: JSON.stringify({ code: "plz4ka", userId }),
      });
      assert.equal(res.status, 401);
      assert.match(res.headers.get("www-authenticate")!, /^Bearer /);
      assert.match((await res.json()).details, /sesión de este token terminó/);
    },
  );
});

Deno.test("sign-in when the provider is down or not configured", async (t) => {
  await t.step(
    "without OIDC configuration sign-in is a Spanish 503 page",
    async () => {
      await using ctx = await createTestContext();
      for (const path of ["/auth/signin", "/auth/callback?code=x&state=y"]) {
        const res = await ctx.app.request(path);
        assert.equal(res.status, 503, path);
        assert.match(res.headers.get("content-type")!, /^text\/html/);
        assert.match(
          await res.text(),
          /El inicio de sesión no está disponible/,
        );
      }
      const page = await ctx.app.request("/mi-pasaporte");
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /No necesitas cuenta/);
      assert.doesNotMatch(html, /\/auth\/signin/);
    },
  );

  await t.step(
    "without OIDC configuration /en/auth/signin is an English 503 page",
    async () => {
      await using ctx = await createTestContext();
      const res = await ctx.app.request("/en/auth/signin");
      assert.equal(res.status, 503);
      const html = await res.text();
      assert.match(html, /<html lang="en-US">/);
      assert.match(
        html,
        /<h1 id="auth-title">Sign-in isn(&#39;|')t available<\/h1>/,
      );
      assert.ok(html.includes('<a class="button button--ghost" href="/en/">'));
      const page = await ctx.app.request("/en/mi-pasaporte");
      assert.doesNotMatch(await page.text(), /\/auth\/signin/);
    },
  );

  await t.step(
    "a provider that refuses connections is a Spanish 502 page",
    async () => {
      const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = closed.addr.port;
      closed.close();
      await using ctx = await createTestContext({
        env: {
          BASE_URL: "http://127.0.0.1:8000",
          OIDC_ISSUER: `http://127.0.0.1:${port}`,
          OIDC_CLIENT_ID: "id",
          OIDC_CLIENT_SECRET: "secreto",
        },
      });
      const res = await ctx.app.request("/auth/signin");
      assert.equal(res.status, 502);
      assert.match(res.headers.get("content-type")!, /^text\/html/);
      assert.match(await res.text(), /No pudimos comunicarnos/);
      assert.equal(res.headers.getSetCookie().length, 0);
      const english = await ctx.app.request(
        "/en/auth/signin?next=%2Fen%2Fmi-pasaporte",
      );
      assert.equal(english.status, 502);
      const html = await english.text();
      assert.match(html, /We couldn(&#39;|')t reach the sign-in service/);
      assert.ok(html.includes('href="/en/auth/signin"'), "try again");
    },
  );

  await t.step(
    "a provider that does not answer times out into a 502",
    async () => {
      const hung = Promise.withResolvers<void>();
      const server = serveApp(async () => {
        await hung.promise;
        return new Response("tarde");
      });
      try {
        await using ctx = await createTestContext({
          env: {
            BASE_URL: "http://127.0.0.1:8000",
            OIDC_ISSUER: server.origin,
            OIDC_CLIENT_ID: "id",
            OIDC_CLIENT_SECRET: "secreto",
          },
        });
        ctx.deps.config.oidc!.timeoutMs = 300;
        const started = performance.now();
        const res = await ctx.app.request("/auth/signin");
        const ms = performance.now() - started;
        assert.equal(res.status, 502);
        await res.body?.cancel();
        // The 300 ms setting, not the 10 s default: a bound halfway to the
        // default, which no busy machine stretches 300 ms to.
        assert.ok(ms >= 250 && ms < 5_000, `answered after ${ms} ms`);
      } finally {
        hung.resolve();
        await server[Symbol.asyncDispose]();
      }
    },
  );
});

Deno.test("sign-in on an https BASE_URL uses __Host- cookies with Secure", async () => {
  const base = "https://turismo.example";
  await using provider = await startOidcProvider({
    redirectUri: `${base}/auth/callback`,
  });
  await using ctx = await createTestContext({ env: oidcEnv(provider, base) });
  const browser = new CookieClient();
  // The app in process at its https address; the provider over loopback.
  const start = await ctx.app.request(`${base}/auth/signin`);
  const stateCookie = parseSetCookie(start.headers.getSetCookie()[0]);
  assert.equal(stateCookie.name, "__Host-signin-state");
  assert.ok(stateCookie.attributes.has("secure"));
  const page = await browser.follow(start.headers.get("location")!);
  const action = (await page.res.text()).match(/action="([^"]+)"/)![1];
  const done = await browser.follow(
    new URL(action.replaceAll("&#x2F;", "/"), page.url),
    {
      stopAt: (url) => url.origin === base,
      init: {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          prompt: "login",
          login: "gil",
          password: "x",
        }),
      },
    },
  );
  const res = await ctx.app.request(done.url.href, {
    headers: { cookie: `__Host-signin-state=${stateCookie.value}` },
  });
  assert.equal(res.status, 303);
  const session = res.headers.getSetCookie().map(parseSetCookie).find((c) =>
    c.name === "__Host-session"
  );
  assert.ok(session, "the session cookie is __Host-session");
  assert.ok(session.attributes.has("secure"));
  assert.ok(session.attributes.has("httponly"));
  assert.equal(session.attributes.get("path"), "/");
  assert.equal(session.attributes.get("samesite"), "Lax");
  assert.equal(session.attributes.has("domain"), false);
  const token = await ctx.app.request(`${base}/api/session-token`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: base,
      cookie: `__Host-session=${session.value}`,
    },
    body: "{}",
  });
  assert.equal(token.status, 200);
});

/** Opens a guest passport in `browser` as the pages do; returns its user id and token. */
async function openGuestPassport(h: AppWithProvider, browser: CookieClient) {
  const res = await browser.fetch(new URL("/api/session-token", h.origin), {
    method: "POST",
    headers: { "content-type": "application/json", origin: h.origin },
    body: JSON.stringify({ guest: true }),
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.guest, true);
  return { userId: body.userId as string, token: body.token as string };
}

/** The account behind a browser's session, through the API the pages use. */
async function accountOf(h: AppWithProvider, browser: CookieClient) {
  const { res, body } = await requestToken(h, browser);
  assert.equal(res.status, 200);
  assert.equal(body.guest, false);
  return body.userId as string;
}

const MINUTE = 60_000;

Deno.test("signing in keeps the guest passport", async (t) => {
  await using h = await startAppWithProvider();
  const { kv } = h.ctx.deps;

  await t.step(
    "visits, a rating and the ticket move into the new account",
    async () => {
      const browser = new CookieClient();
      const guest = await openGuestPassport(h, browser);
      await verifyVisits(h.ctx, guest.userId, 2, MINUTE);
      const rated = await fetch(`${h.origin}/api/turismo/rate-visit`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${guest.token}`,
        },
        body: JSON.stringify({
          userId: guest.userId,
          atractivoSlug: SHIPPED.attractions[0].slug,
          rating: 4,
          notes: "Muy bonito",
        }),
      });
      assert.equal(rated.status, 200);
      await rated.body?.cancel();
      const shareCode = randomShareCode();
      const ticket = await fetch(`${h.origin}/api/turismo/ticket`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${guest.token}`,
        },
        body: JSON.stringify(ticketBody({ shareCode })),
      });
      assert.equal(ticket.status, 200);
      await ticket.body?.cancel();

      assert.equal((await signIn(h, browser, { account: "ines" })).status, 303);
      const account = await accountOf(h, browser);
      assert.notEqual(account, guest.userId);
      assert.deepEqual(await getUserStats(kv, account), {
        visitCount: 2,
        badgeCount: 0,
      });
      assert.deepEqual(await listVisits(kv, guest.userId), []);
      const visits = await listVisits(kv, account);
      assert.deepEqual(
        visits.map((v) => [v.slug, v.rating, v.notes]),
        [
          [SHIPPED.attractions[0].slug, 4, "Muy bonito"],
          [SHIPPED.attractions[1].slug, null, null],
        ],
      );
      assert.equal(await getShareCodeOfUser(kv, account), shareCode);
      assert.equal((await getTicket(kv, shareCode))?.userId, account);

      const page = await getPage(h, browser, "/mi-pasaporte");
      assert.match(page.html, /Cerrar sesión/);
      assert.match(page.html, /Muy bonito/);
      assert.ok(page.html.includes(`/ruta/${shareCode}`));
      const route = await getPage(h, new CookieClient(), `/ruta/${shareCode}`);
      assert.ok(route.html.includes(SHIPPED.attractions[1].name));
    },
  );

  await t.step(
    "a guest with 17 visits into an account with 10: 17 visits, each milestone once",
    async () => {
      const earlier = new CookieClient();
      await signIn(h, earlier, { account: "jose" });
      const account = await accountOf(h, earlier);
      await verifyVisits(h.ctx, account, 10, MINUTE);
      const before = await Promise.all(
        SHIPPED.attractions.map((a) => getAttractionStats(kv, a.slug)),
      );

      const browser = new CookieClient();
      const guest = await openGuestPassport(h, browser);
      await verifyVisits(h.ctx, guest.userId, 17, MINUTE);
      await signIn(h, browser, { account: "jose" });
      assert.equal(await accountOf(h, browser), account);

      assert.deepEqual(await getUserStats(kv, account), {
        visitCount: 17,
        badgeCount: 3,
      });
      const badges = await listBadges(kv, account);
      assert.deepEqual(badges.map((b) => b.id).sort(), [
        "explorador",
        "leyenda",
        "veterano",
      ]);
      const visits = await listVisits(kv, account);
      assert.equal(new Set(visits.map((v) => v.slug)).size, 17);
      assert.deepEqual(await listBadges(kv, guest.userId), []);
      // The ten attractions both saw lose the duplicate visit; seven gain one.
      const after = await Promise.all(
        SHIPPED.attractions.map((a) => getAttractionStats(kv, a.slug)),
      );
      after.forEach((stats, i) =>
        assert.equal(
          stats.visitCount,
          before[i].visitCount + (i < 10 ? 0 : 1),
          SHIPPED.attractions[i].slug,
        )
      );
    },
  );

  await t.step(
    "two tabs signing in at once merge the guest passport once",
    async () => {
      const first = new CookieClient();
      const guest = await openGuestPassport(h, first);
      await verifyVisits(h.ctx, guest.userId, 5, MINUTE);
      const before = await getAttractionStats(kv, SHIPPED.attractions[0].slug);
      // The second tab shares the guest cookie but has its own sign-in.
      const second = new CookieClient();
      second.setCookie("session", first.cookie("session")!);
      const callbacks = await Promise.all([
        loginAtProvider(h, first, { account: "kala" }),
        loginAtProvider(h, second, { account: "kala" }),
      ]);
      const answers = await Promise.all([
        first.fetch(callbacks[0]),
        second.fetch(callbacks[1]),
      ]);
      for (const res of answers) {
        assert.equal(res.status, 303);
        await res.body?.cancel();
      }
      const account = await accountOf(h, first);
      assert.equal(await accountOf(h, second), account);
      assert.deepEqual(await getUserStats(kv, account), {
        visitCount: 5,
        badgeCount: 1,
      });
      assert.deepEqual(
        (await listBadges(kv, account)).map((b) => b.id),
        ["explorador"],
      );
      assert.deepEqual(
        await getAttractionStats(kv, SHIPPED.attractions[0].slug),
        before,
        "moved, not counted again",
      );
    },
  );
});

/**
 * Guest passports over real HTTP, on the embedded defaults (no sign-in
 * configured): `/api/session-token` opens one for a visitor without a
 * session, and its short-lived token drives `verify-visit`, `rate-visit`
 * and the ticket exactly as an account's does.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/db/keys.ts";
import { getSession } from "@/lib/db/sessions.ts";
import { getShareCodeOfUser, getTicket } from "@/lib/db/tickets.ts";
import { getUserStats } from "@/lib/db/visits.ts";
import { CookieClient, parseSetCookie } from "../cookie_client.ts";
import {
  assertJson,
  createTestContext,
  randomShareCode,
  serveApp,
  SHIPPED,
  type TestContext,
  ticketBody,
  UUID,
} from "../test_utils.ts";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The app served on loopback, behind one trusted proxy hop so a test can pick its address. */
async function startApp(): Promise<
  { ctx: TestContext; origin: string } & AsyncDisposable
> {
  const ctx = await createTestContext({ env: { TRUST_PROXY: "1" } });
  const server = serveApp((req, info) => ctx.app.fetch(req, info));
  return {
    ctx,
    origin: server.origin,
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await ctx[Symbol.asyncDispose]();
    },
  };
}

/** A page's call for its token, as `client/session_client.ts` makes it. */
async function requestToken(
  origin: string,
  browser: CookieClient,
  { guest = true, address = "203.0.113.7", headers = {} }: {
    guest?: boolean;
    address?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const res = await browser.fetch(`${origin}/api/session-token`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin,
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": address,
      ...headers,
    },
    body: JSON.stringify(guest ? { guest: true } : {}),
  });
  return { res, body: await res.json() };
}

/** A JSON POST with the page's bearer token. */
function postWithToken(
  origin: string,
  path: string,
  token: string,
  body: unknown,
  address = "203.0.113.7",
): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "x-forwarded-for": address,
    },
    body: JSON.stringify(body),
  });
}

const [first, second] = SHIPPED.attractions;

Deno.test("guest passports on the embedded defaults", async (t) => {
  await using app = await startApp();
  const { ctx, origin } = app;
  const { kv } = ctx.deps;
  const browser = new CookieClient();
  let userId = "";
  let token = "";

  await t.step(
    "a visitor without a session gets a guest passport: a new user and a year-long HttpOnly cookie",
    async () => {
      const { res, body } = await requestToken(origin, browser);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.deepEqual(Object.keys(body).sort(), [
        "expiresIn",
        "guest",
        "token",
        "userId",
      ]);
      assert.equal(body.guest, true);
      assert.match(body.userId, UUID);
      assert.equal(body.expiresIn, 600);
      const cookie = parseSetCookie(
        res.headers.getSetCookie().find((c) => c.startsWith("session="))!,
      );
      assert.equal(cookie.attributes.get("max-age"), String(YEAR_SECONDS));
      assert.ok(cookie.attributes.has("httponly"));
      assert.equal(cookie.attributes.get("samesite"), "Lax");
      assert.equal(cookie.attributes.get("path"), "/");
      const session = await getSession(kv, cookie.value, ctx.clock.now());
      assert.equal(session?.userId, body.userId);
      assert.equal(session?.guest, true);
      userId = body.userId;
      token = body.token;
    },
  );

  await t.step(
    "the same browser keeps its passport: no second one, no new cookie",
    async () => {
      const { res, body } = await requestToken(origin, browser);
      assert.equal(res.status, 200);
      assert.equal(body.userId, userId);
      assert.deepEqual(res.headers.getSetCookie(), []);
    },
  );

  await t.step(
    "its token verifies and rates a visit like an account's",
    async () => {
      const verified = await assertJson(
        await postWithToken(origin, "/api/turismo/verify-visit", token, {
          code: ` ${first.guideCode.toLowerCase()} `,
          userId,
        }),
        200,
      );
      assert.equal(verified.atractivo, first.slug);
      await assertJson(
        await postWithToken(origin, "/api/turismo/rate-visit", token, {
          atractivoSlug: first.slug,
          userId,
          rating: 5,
          notes: "Precioso",
        }),
        200,
      );
      assert.deepEqual(await getUserStats(kv, userId), {
        visitCount: 1,
        badgeCount: 0,
      });
    },
  );

  await t.step("/mi-pasaporte shows the guest's visit and rating", async () => {
    const res = await browser.fetch(`${origin}/mi-pasaporte`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "private, no-store");
    const html = await res.text();
    assert.match(html, /Tu pasaporte de invitado se guarda en este navegador/);
    assert.ok(html.includes(first.name), "the visited attraction is listed");
    assert.match(html, /Precioso/);
    assert.doesNotMatch(html, /auth\/signin/, "no sign-in offered: none set");
  });

  let shareCode = "";
  await t.step(
    "the ticket joins the passport: its route shows the visits at once",
    async () => {
      shareCode = randomShareCode();
      const res = await postWithToken(
        origin,
        "/api/turismo/ticket",
        token,
        ticketBody({ shareCode, name: "Invitada Viajera" }),
      );
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal((await getTicket(kv, shareCode))?.userId, userId);
      assert.equal(await getShareCodeOfUser(kv, userId), shareCode);
      const route = await (await fetch(`${origin}/ruta/${shareCode}`)).text();
      assert.ok(route.includes(first.name), "the route lists the visit");
    },
  );

  await t.step(
    "a passport holds one ticket: a second is a 409 naming the first",
    async () => {
      const body = await assertJson(
        await postWithToken(
          origin,
          "/api/turismo/ticket",
          token,
          ticketBody({ shareCode: randomShareCode() }),
        ),
        409,
      );
      assert.equal(body.shareCode, shareCode);
      const page = await (await browser.fetch(`${origin}/mi-pasaporte`)).text();
      assert.ok(page.includes(`/ruta/${shareCode}`), "shown on the passport");
    },
  );

  await t.step(
    "two tickets raced from a new passport leave it exactly one",
    async () => {
      const racer = new CookieClient();
      const { body } = await requestToken(origin, racer);
      const codes = [randomShareCode(), randomShareCode()];
      const answers = await Promise.all(codes.map((code) =>
        postWithToken(
          origin,
          "/api/turismo/ticket",
          body.token,
          ticketBody({ shareCode: code }),
        )
      ));
      for (const res of answers) await res.body?.cancel();
      const linked = await getShareCodeOfUser(kv, body.userId);
      assert.ok(linked && codes.includes(linked), "one of the two is linked");
      const third = await assertJson(
        await postWithToken(
          origin,
          "/api/turismo/ticket",
          body.token,
          ticketBody({ shareCode: randomShareCode() }),
        ),
        409,
      );
      assert.equal(third.shareCode, linked, "and it stays the passport's");
    },
  );

  await t.step(
    "without a session and without `guest` the answer stays 401",
    async () => {
      const { res, body } = await requestToken(origin, new CookieClient(), {
        guest: false,
      });
      assert.equal(res.status, 401);
      assert.equal(typeof body.details, "string");
      assert.deepEqual(res.headers.getSetCookie(), []);
    },
  );

  await t.step(
    "another site cannot open passports: 403, nothing stored",
    async () => {
      const before = await countSessions(kv);
      const { res } = await requestToken(origin, new CookieClient(), {
        headers: {
          origin: "https://evil.example",
          "sec-fetch-site": "cross-site",
        },
      });
      assert.equal(res.status, 403);
      assert.deepEqual(res.headers.getSetCookie(), []);
      assert.equal(await countSessions(kv), before);
    },
  );
});

Deno.test("guest passports and abuse", async (t) => {
  await using app = await startApp();
  const { ctx, origin } = app;

  await t.step(
    "20 new passports an hour per address, then a Spanish 429 with Retry-After",
    async () => {
      const address = "198.51.100.20";
      const answers = await Promise.all(
        Array.from(
          { length: 25 },
          () => requestToken(origin, new CookieClient(), { address }),
        ),
      );
      const statuses = answers.map((a) => a.res.status);
      assert.equal(statuses.filter((s) => s === 200).length, 20);
      assert.equal(statuses.filter((s) => s === 429).length, 5);
      const refused = answers.find((a) => a.res.status === 429)!;
      assert.match(refused.body.details, /demasiados pasaportes/);
      assert.ok(Number(refused.res.headers.get("retry-after")) > 0);
      assert.deepEqual(refused.res.headers.getSetCookie(), []);

      const other = await requestToken(origin, new CookieClient(), {
        address: "198.51.100.21",
      });
      assert.equal(other.res.status, 200, "another address is not affected");
      ctx.clock.advance(60 * 60_000);
      const later = await requestToken(origin, new CookieClient(), { address });
      assert.equal(later.res.status, 200, "an hour later it opens again");
    },
  );

  await t.step(
    "throwaway passports buy no extra guesses: the address limit holds across them",
    async () => {
      const address = "198.51.100.30";
      const wrong = "ZZZZ-0000";
      const statuses: number[] = [];
      for (let passport = 0; passport < 5; passport++) {
        const { body } = await requestToken(origin, new CookieClient(), {
          address,
        });
        for (let guess = 0; guess < 8; guess++) {
          const res = await postWithToken(
            origin,
            "/api/turismo/verify-visit",
            body.token,
            { code: wrong, userId: body.userId },
            address,
          );
          statuses.push(res.status);
          await res.body?.cancel();
        }
      }
      assert.equal(statuses.filter((s) => s === 404).length, 30);
      assert.equal(statuses.filter((s) => s === 429).length, 10);
      const { body } = await requestToken(origin, new CookieClient(), {
        address,
      });
      const right = await postWithToken(
        origin,
        "/api/turismo/verify-visit",
        body.token,
        { code: second.guideCode, userId: body.userId },
        address,
      );
      assert.equal(right.status, 429, "a fresh passport is locked out too");
      await right.body?.cancel();
    },
  );
});

async function countSessions(kv: Deno.Kv): Promise<number> {
  const prefix = keys.session("").slice(0, 1);
  return (await Array.fromAsync(kv.list({ prefix }))).length;
}

import assert from "node:assert/strict";
import {
  IP_BUDGET_WINDOW_MS,
  isExemptFromIpBudget,
  OFFLINE_WARM_UP_HEADER,
  WARM_UP_SHARE,
} from "@/lib/limits/ip_budget.ts";
import { type OfflineConfig, WARM_UP_HEADER } from "@/client/offline_config.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  serveApp,
  type TestContext,
} from "../test_utils.ts";

/** One second into a minute, so the sliding window's arithmetic is known. */
const MINUTE_START = new Date(
  Math.floor(Date.now() / IP_BUDGET_WINDOW_MS) * IP_BUDGET_WINDOW_MS + 1_000,
);

/** What this instance counts of an address in the sliding window now. */
function getCount(ctx: TestContext, subject: string): number {
  return ctx.deps.ipBudget?.estimate(subject) ?? 0;
}

/** Every key in KV: the budget never writes any. */
async function listKvKeys(ctx: TestContext): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of ctx.deps.kv.list({ prefix: [] })) {
    keys.push(JSON.stringify(entry.key));
  }
  return keys;
}

function get(ctx: TestContext, path: string, ip: string): Promise<Response> {
  return Promise.resolve(
    ctx.app.request(path, { headers: { "x-forwarded-for": ip } }),
  );
}

function postFrom(
  ctx: TestContext,
  path: string,
  ip: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return postJson(ctx, path, body, { "x-forwarded-for": ip, ...headers });
}

async function countStatuses(
  responses: Response[],
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const res of responses) {
    await res.body?.cancel();
    counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
  }
  return counts;
}

/**
 * `count` concurrent POSTs of `{}` to rate-visit over a real connection to
 * the app, with `headers(i)` each; their statuses counted.
 */
async function postOverHttp(
  ctx: TestContext,
  count: number,
  headers: (i: number) => Record<string, string> = () => ({}),
): Promise<Map<number, number>> {
  await using server = serveApp(ctx.app.fetch);
  const responses = await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        fetch(`${server.origin}/api/turismo/rate-visit`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers(i) },
          body: "{}",
        }),
    ),
  );
  return await countStatuses(responses);
}

Deno.test("per-IP request budget (every endpoint)", async (t) => {
  await using ctx = await createTestContext({
    env: {
      TRUST_PROXY: "true",
      IP_BUDGET_PER_MINUTE: "25",
      ALLOWED_ORIGINS: "https://portal.example",
    },
    clockStart: MINUTE_START,
  });
  const slug = ctx.deps.data.current().data.attractions[0].slug;
  const page = `/turismo/atractivos/${slug}`;
  const ip = "203.0.113.7";

  await t.step(
    "of 40 concurrent requests from one IP with a budget of 25, exactly 25 pass and 15 get 429",
    async () => {
      const responses = await Promise.all(
        Array.from(
          { length: 40 },
          (_, i) =>
            i % 2 === 0
              ? get(ctx, page, ip)
              : postFrom(ctx, "/api/turismo/verify-visit", ip, {}),
        ),
      );
      const counts = await countStatuses(responses);
      assert.equal(counts.get(429), 15);
      assert.equal((counts.get(200) ?? 0) + (counts.get(401) ?? 0), 25);
      assert.equal(getCount(ctx, ip), 25);
      // Counted in memory: no KV work per request, whatever the address.
      assert.ok(
        (await listKvKeys(ctx)).every((key) => !key.includes(ip)),
        "no key of the address in KV",
      );
    },
  );

  await t.step(
    "a refused request answers 429 {error, details} with Retry-After and CORS headers",
    async () => {
      const res = await postFrom(ctx, "/api/turismo/ticket", ip, {}, {
        origin: "https://portal.example",
      });
      const body = await assertJson(res, 429);
      const retryAfter = Number(res.headers.get("retry-after"));
      assert.ok(
        Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
        `Retry-After ${retryAfter}`,
      );
      assert.equal(
        res.headers.get("access-control-allow-origin"),
        "https://portal.example",
      );
      assert.deepEqual(Object.keys(body).sort(), ["details", "error"]);
      assert.equal(body.error, "Demasiadas solicitudes");
      assert.match(body.details, /espera \d+ segundos?/);
    },
  );

  await t.step("under /api/chat the refusal is a {reply}", async () => {
    const res = await postFrom(ctx, "/api/chat", ip, { message: "Hola" });
    assert.equal(res.status, 429);
    assert.ok(res.headers.get("retry-after"));
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ["reply"]);
    assert.match(body.reply, /Espera/);
  });

  await t.step(
    "a page is refused too, and refusals are not counted",
    async () => {
      const res = await get(ctx, page, ip);
      assert.equal(res.status, 429);
      await res.body?.cancel();
      assert.equal(getCount(ctx, ip), 25);
    },
  );

  await t.step(
    "the health check, static files and preflights are never refused",
    async () => {
      for (const path of ["/healthz", "/theme.css", "/logo.svg"]) {
        const res = await get(ctx, path, ip);
        assert.equal(res.status, 200, path);
        await res.body?.cancel();
      }
      const preflight = await ctx.app.request("/api/turismo/ticket", {
        method: "OPTIONS",
        headers: {
          "x-forwarded-for": ip,
          origin: "https://portal.example",
          "access-control-request-method": "POST",
        },
      });
      assert.equal(preflight.status, 204);
    },
  );

  await t.step("another IP has a budget of its own", async () => {
    const res = await get(ctx, page, "198.51.100.20");
    assert.equal(res.status, 200);
    await res.body?.cancel();
  });

  await t.step(
    "60 % into the next minute, 40 % of the last minute's requests still count",
    async () => {
      // 25 × 0.4 = 10 still count, so 15 more fit.
      ctx.clock.advance(
        IP_BUDGET_WINDOW_MS + 0.6 * IP_BUDGET_WINDOW_MS - 1_000,
      );
      const responses = await Promise.all(
        Array.from({ length: 30 }, () => get(ctx, page, ip)),
      );
      const counts = await countStatuses(responses);
      assert.equal(counts.get(200), 15);
      assert.equal(counts.get(429), 15);
    },
  );

  await t.step(
    "two minutes later the whole budget is back",
    async () => {
      ctx.clock.advance(2 * IP_BUDGET_WINDOW_MS);
      const responses = await Promise.all(
        Array.from({ length: 30 }, () => get(ctx, page, ip)),
      );
      const counts = await countStatuses(responses);
      assert.equal(counts.get(200), 25);
      assert.equal(counts.get(429), 5);
    },
  );
});

Deno.test("per-IP request budget on a real server", async (t) => {
  await t.step(
    "without TRUST_PROXY the connection's address counts and X-Forwarded-For is ignored",
    async () => {
      await using ctx = await createTestContext({
        env: { IP_BUDGET_PER_MINUTE: "10" },
      });
      const counts = await postOverHttp(ctx, 16, (i) => ({
        "x-forwarded-for": `192.0.2.${i}`,
      }));
      assert.equal(counts.get(401), 10);
      assert.equal(counts.get(429), 6);
      assert.equal(getCount(ctx, "127.0.0.1"), 10);
    },
  );

  await t.step(
    "IP_BUDGET_PER_MINUTE=0 counts nothing and refuses nothing",
    async () => {
      await using ctx = await createTestContext({
        env: { IP_BUDGET_PER_MINUTE: "0" },
      });
      const counts = await postOverHttp(ctx, 40);
      assert.equal(counts.get(401), 40);
      assert.equal(ctx.deps.ipBudget, undefined);
      // Only what a start writes: the signing secret and the one-time
      // backfills' markers (the personal-data one lands in the background).
      const atStart = new Set([
        JSON.stringify(["secrets", "jwt"]),
        JSON.stringify(["stats_backfill"]),
        JSON.stringify(["personal_indexes_backfill"]),
      ]);
      const keys = await listKvKeys(ctx);
      assert.deepEqual(keys.filter((key) => !atStart.has(key)), []);
      assert.ok(keys.includes(JSON.stringify(["secrets", "jwt"])));
    },
  );
});

/** `count` warm-up GETs of the service worker from `ip`, one at a time as it sends them; their statuses. */
async function warmUp(
  ctx: TestContext,
  ip: string,
  count: number,
): Promise<Map<number, number>> {
  const slug = ctx.deps.data.current().data.attractions[0].slug;
  const responses: Response[] = [];
  for (let i = 0; i < count; i++) {
    responses.push(
      await ctx.app.request(`/turismo/atractivos/${slug}`, {
        headers: { "x-forwarded-for": ip, [WARM_UP_HEADER]: "1" },
      }),
    );
  }
  return await countStatuses(responses);
}

/** `count` of the tourist's own GETs from `ip`; their statuses. */
async function ownPages(
  ctx: TestContext,
  ip: string,
  count: number,
): Promise<Map<number, number>> {
  const slug = ctx.deps.data.current().data.attractions[0].slug;
  return await countStatuses(
    await Promise.all(
      Array.from(
        { length: count },
        () => get(ctx, `/turismo/atractivos/${slug}`, ip),
      ),
    ),
  );
}

Deno.test("the service worker's warm-up spends the address's one budget, only its first half", async (t) => {
  assert.equal(
    OFFLINE_WARM_UP_HEADER,
    WARM_UP_HEADER,
    "the worker sends the header the server reads",
  );

  await t.step(
    "a first visit's warm-up (what GET /sw.js lists) fits in the default budget's warm-up half several times",
    async () => {
      await using ctx = await createTestContext();
      const res = await ctx.app.request("/sw.js");
      const config: OfflineConfig = JSON.parse(
        /^self\.__OFFLINE_CONFIG=(.*);\n/.exec(await res.text())![1],
      );
      // Its public pages and the passport; the theme and logo never count.
      const pages = config.pages.length + 1;
      for (const asset of config.assets) {
        assert.ok(
          isExemptFromIpBudget("GET", new URL(asset, "http://x").pathname),
        );
      }
      const half = Math.floor(
        ctx.deps.config.ipBudgetPerMinute * WARM_UP_SHARE,
      );
      assert.ok(half >= 5 * pages, `${pages} pages, ${half} for warm-ups`);
    },
  );

  await t.step(
    "a forged header gets no 200 beyond the budget: after the budget's requests, warm-ups are 429",
    async () => {
      await using ctx = await createTestContext({
        env: { TRUST_PROXY: "true", IP_BUDGET_PER_MINUTE: "25" },
        clockStart: MINUTE_START,
      });
      const ip = "203.0.113.9";
      assert.equal((await ownPages(ctx, ip, 25)).get(200), 25);
      const forged = await warmUp(ctx, ip, 40);
      assert.equal(forged.get(429), 40);
      assert.equal(getCount(ctx, ip), 25);
    },
  );

  await t.step(
    "whatever the mix of warm-ups and other requests, an address gets the budget's 200s and no more",
    async () => {
      await using ctx = await createTestContext({
        env: { TRUST_PROXY: "true", IP_BUDGET_PER_MINUTE: "25" },
        clockStart: MINUTE_START,
      });
      const ip = "203.0.113.10";
      const slug = ctx.deps.data.current().data.attractions[0].slug;
      const responses = await Promise.all(
        Array.from(
          { length: 80 },
          (_, i) =>
            ctx.app.request(`/turismo/atractivos/${slug}`, {
              headers: {
                "x-forwarded-for": ip,
                ...(i % 2 ? {} : { [WARM_UP_HEADER]: "1" }),
              },
            }),
        ),
      );
      const counts = await countStatuses(responses);
      assert.equal(counts.get(200), 25);
      assert.equal(counts.get(429), 55);
    },
  );

  await t.step(
    "warm-ups alone get half the budget; the other half stays the tourists' own",
    async () => {
      await using ctx = await createTestContext({
        env: { TRUST_PROXY: "true", IP_BUDGET_PER_MINUTE: "100" },
        clockStart: MINUTE_START,
      });
      const ip = "203.0.113.11";
      // Five first visits behind one address, one after another.
      const counts = await warmUp(ctx, ip, 60);
      assert.equal(counts.get(200), 50);
      assert.equal(counts.get(429), 10);
      // Each passed warm-up was counted in the address's budget, once.
      assert.equal(getCount(ctx, ip), 50);
      assert.equal((await ownPages(ctx, ip, 55)).get(200), 50);
      // Two minutes later warm-ups pass again.
      ctx.clock.advance(2 * IP_BUDGET_WINDOW_MS);
      assert.equal((await warmUp(ctx, ip, 20)).get(200), 20);
    },
  );

  await t.step(
    "a first visit's warm-up passes whole and leaves the tourist's own pages the rest of the budget",
    async () => {
      await using ctx = await createTestContext({
        env: { TRUST_PROXY: "true", IP_BUDGET_PER_MINUTE: "60" },
        clockStart: MINUTE_START,
      });
      const ip = "203.0.113.12";
      const pages = ctx.deps.data.current().data.attractions.length + 3;
      assert.equal((await ownPages(ctx, ip, 3)).get(200), 3);
      assert.equal((await warmUp(ctx, ip, pages)).get(200), pages);
      const rest = 60 - 3 - pages;
      assert.equal((await ownPages(ctx, ip, rest)).get(200), rest);
    },
  );

  await t.step(
    "past half the budget warm-ups are refused first, and the tourist's own requests still pass",
    async () => {
      await using ctx = await createTestContext({
        env: { TRUST_PROXY: "true", IP_BUDGET_PER_MINUTE: "60" },
        clockStart: MINUTE_START,
      });
      const ip = "203.0.113.13";
      assert.equal((await ownPages(ctx, ip, 30)).get(200), 30);
      const res = await ctx.app.request("/turismo/atractivos", {
        headers: { "x-forwarded-for": ip, [WARM_UP_HEADER]: "1" },
      });
      const body = await assertJson(res, 429);
      assert.equal(body.error, "Demasiadas solicitudes");
      assert.ok(Number(res.headers.get("retry-after")) >= 1);
      assert.equal((await warmUp(ctx, ip, 20)).get(429), 20);
      // The rest of the budget is the tourist's.
      assert.equal((await ownPages(ctx, ip, 30)).get(200), 30);
      assert.equal(getCount(ctx, ip), 60);
    },
  );

  await t.step(
    "only a GET is a warm-up: a POST with the header counts as usual",
    async () => {
      await using ctx = await createTestContext({
        env: { TRUST_PROXY: "true", IP_BUDGET_PER_MINUTE: "4" },
        clockStart: MINUTE_START,
      });
      const ip = "203.0.113.14";
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const post = await postFrom(ctx, "/api/turismo/verify-visit", ip, {}, {
          [WARM_UP_HEADER]: "1",
        });
        await post.body?.cancel();
        statuses.push(post.status);
      }
      // The whole budget, not the warm-ups' half.
      assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
    },
  );
});

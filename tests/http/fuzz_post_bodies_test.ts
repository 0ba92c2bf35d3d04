/**
 * Property-based fuzzing of every POST endpoint with `fast-check`: a few
 * hundred random bodies each, from arbitrary JSON to near-valid objects
 * with fields of the wrong type, hostile strings and extreme numbers. No
 * body may get a 5xx (but the chat's documented 502/503 from the model),
 * and KV must stay consistent: no half-written ticket, visit or counter.
 */
import fc from "fast-check";
import assert from "node:assert/strict";
import { getCmsPost } from "@/lib/db/cms_posts.ts";
import type { Ticket } from "@/lib/db/tickets.ts";
import {
  getAttractionStats,
  getUserStats,
  listBadges,
  listVisits,
} from "@/lib/db/visits.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  createTestContext,
  postJson,
  randomUserId,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

const RUNS = 250;

/** Strings a hostile client sends: control and bidi characters, markup, huge, unicode. */
const hostileString = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202Eabc",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "💥".repeat(300),
    "x".repeat(5_000),
    "plz4ka",
    " PLZ4KA ",
    "ruta-abcd",
    "viajero@ejemplo.mx",
  ),
);

/** A value of any JSON type, small or extreme. */
const anyValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 5, 1e308, -0, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 4,
  }),
);

/** An object with some of `fields`, each of any type, plus strays. */
function nearValid(fields: string[]) {
  return fc.record(
    Object.fromEntries(fields.map((field) => [field, anyValue])),
    { requiredKeys: [] },
  ).chain((body) =>
    fc.dictionary(fc.string({ maxLength: 10 }), anyValue, { maxKeys: 2 })
      .map((extra) => ({ ...extra, ...body }))
  );
}

/** Any request body: valid ones, JSON of any shape, near-valid objects, or not JSON at all. */
function bodies(fields: string[], valid?: fc.Arbitrary<unknown>) {
  return fc.oneof(
    {
      weight: valid ? 2 : 0,
      arbitrary: (valid ?? fc.constant({})).map((b) => JSON.stringify(b)),
    },
    { weight: 3, arbitrary: nearValid(fields).map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
}

async function fuzz(
  ctx: TestContext,
  path: string,
  fields: string[],
  { headers = () => Promise.resolve({}), allowed = [] as number[], valid }: {
    headers?: () => Promise<Record<string, string>>;
    allowed?: number[];
    valid?: fc.Arbitrary<unknown>;
  } = {},
) {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(bodies(fields, valid), fc.nat(255), async (body, ip) => {
      const res = await postJson(ctx, path, body, {
        "x-forwarded-for": `198.18.${ip}.${ip}`,
        ...(await headers()),
      });
      await res.body?.cancel();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return res.status < 500 || allowed.includes(res.status);
    }),
    { numRuns: RUNS },
  );
  return statuses;
}

/** Every ticket has its CMS post and no claim is left; every user's counters equal their records. */
async function assertConsistent(ctx: TestContext) {
  const { kv } = ctx.deps;
  for await (const entry of kv.list<Ticket>({ prefix: ["tickets"] })) {
    const post = await getCmsPost(kv, entry.value.shareCode);
    assert.equal(post?.wpId, entry.value.wpId, JSON.stringify(entry.key));
  }
  for await (const _ of kv.list({ prefix: ["ticket_claims"] })) {
    assert.fail("a ticket claim was left behind");
  }
  let visits = 0;
  for await (
    const entry of kv.list<{ visitCount: number; badgeCount: number }>({
      prefix: ["user_stats"],
    })
  ) {
    const userId = String(entry.key[1]);
    const listed = (await listVisits(kv, userId)).length;
    visits += listed;
    assert.deepEqual(await getUserStats(kv, userId), {
      visitCount: listed,
      badgeCount: (await listBadges(kv, userId)).length,
    });
  }
  let counted = 0;
  for (const { slug } of SHIPPED.attractions) {
    counted += (await getAttractionStats(kv, slug)).visitCount;
  }
  assert.equal(counted, visits);
}

Deno.test("fuzzing the POST endpoints: never a 5xx, never a half-written record", async (t) => {
  await using model = startFakeOpenAI();
  await using ctx = await createTestContext({
    env: { TRUST_PROXY: "1" },
    openai: model.client({ timeout: 5_000, maxRetries: 0 }),
  });
  const userId = randomUserId();
  const asUser = async () => ({
    authorization: `Bearer ${await ctx.tokenFor(userId)}`,
  });

  await t.step("POST /api/turismo/ticket", async () => {
    const seen = await fuzz(
      ctx,
      "/api/turismo/ticket",
      ["name", "email", "shareCode", "phone"],
      {
        valid: fc.record({
          name: fc.oneof(
            fc.constantFrom("Ana", "Luis Pérez", "María José Ñúñez"),
            hostileString,
          ),
          email: fc.stringMatching(/^[a-z0-9._-]{1,20}$/).map((local) =>
            `${local}@ejemplo.mx`
          ),
          shareCode: fc.stringMatching(/^[A-Za-z0-9_-]{4,12}$/),
          phone: fc.option(fc.stringMatching(/^[0-9 +()-]{0,20}$/), {
            nil: undefined,
          }),
        }),
      },
    );
    assert.ok(seen.has(400), [...seen].join());
    assert.ok(seen.has(200), [...seen].join());
  });

  await t.step("POST /api/turismo/verify-visit", async () => {
    // A real code now and then, for the user of the token and for others.
    await fuzz(ctx, "/api/turismo/verify-visit", ["code", "userId"], {
      headers: asUser,
      valid: fc.record({
        code: fc.constantFrom(...SHIPPED.attractions.map((a) => a.guideCode)),
        userId: fc.constant(userId),
      }),
    });
    for (const { guideCode } of SHIPPED.attractions.slice(0, 6)) {
      const res = await postJson(ctx, "/api/turismo/verify-visit", {
        code: guideCode,
        userId,
      }, await asUser());
      await res.body?.cancel();
      assert.ok(res.status < 500);
    }
  });

  await t.step("POST /api/turismo/rate-visit", async () => {
    await fuzz(
      ctx,
      "/api/turismo/rate-visit",
      ["userId", "atractivoSlug", "rating", "notes"],
      {
        headers: asUser,
        valid: fc.record({
          userId: fc.constant(userId),
          atractivoSlug: fc.constantFrom(
            ...SHIPPED.attractions.map((a) => a.slug),
          ),
          rating: anyValue,
          notes: fc.option(hostileString, { nil: undefined }),
        }),
      },
    );
  });

  await t.step(
    "POST /api/chat (only the model's documented 502/503)",
    async () => {
      await fuzz(ctx, "/api/chat", ["message", "history", "location"], {
        allowed: [502, 503],
      });
    },
  );

  await t.step("POST /api/session-token", async () => {
    await fuzz(ctx, "/api/session-token", ["anything"]);
  });

  await t.step("KV is consistent afterwards", async () => {
    await assertConsistent(ctx);
  });
});

/**
 * Property-based fuzzing of every route of the route table (read from the
 * app itself, lazy mounts loaded, so a new route is covered with no change
 * here): GET and POST with hostile path parameters and queries (percent
 * encodings, `..`, NUL, huge numbers, unicode, empty, repeated names) and
 * hostile bodies, as a stranger, a tourist (bearer and passport cookie) and
 * staff (viewer and admin). No request may get a 5xx, but the chat's
 * documented 502/503 from the model. `FUZZ_SEED=<n>` replays a failure.
 */
import fc from "fast-check";
import assert from "node:assert/strict";
import { createSession } from "@/lib/db/sessions.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { getVisit } from "@/lib/db/visits.ts";
import { LazyRoutes } from "@/lib/http/lazy_routes.ts";
import { oidcEnv, startOidcProvider } from "../oidc_provider.ts";
import {
  createTestContext,
  postAsUser,
  randomTicket,
  randomUserId,
  SHIPPED,
  signInStaff,
  verifyVisits,
} from "../test_utils.ts";

/** Runs per route: every route and both methods, a few hundred requests in all. */
const RUNS_PER_ROUTE = Number(Deno.env.get("FUZZ_RUNS") ?? 6);
const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 29);

/** Path segments and query parts, already URL-encoded, that a hostile client sends. */
const RAW_TOKENS = [
  "",
  ".",
  "..",
  "%2e%2e",
  "..%2f..%2fdeno.json",
  "..%5c..%5cdeno.json",
  "%2F",
  "%5C",
  "%00",
  "a%00b",
  "%",
  "%zz",
  "%c0%ae%c0%ae",
  "%ff%fe",
  "%252e%252e",
  "%E2%80%AE",
  "%0d%0aSet-Cookie:%20x=1",
  "9".repeat(400),
  "-1",
  "0",
  "1e308",
  "-0",
  "NaN",
  "Infinity",
  "0x1F",
  "%F0%9F%92%A5".repeat(50),
  "x".repeat(4_000),
  "AgA",
  "plz4ka",
  "ruta-abcd",
  "[object Object]",
  "__proto__",
  "constructor",
];

/** Any string, URL-encoded; or one of the raw tokens above. */
const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RAW_TOKENS) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "grapheme", maxLength: 20 }),
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.bigInt().map(String),
      fc.double().map(String),
    ).map(encodeURIComponent),
  },
);

/** Query names the pages and the API read, and others. */
const QUERY_NAMES = [
  "antes",
  "codigo",
  "tipo",
  "cerca",
  "categoria",
  "v",
  "next",
  "sesion",
  "correo",
  "borrado",
  "desde",
  "hasta",
  "aviso",
  "lang",
  "state",
  "code",
  "error",
];

const query = fc.array(
  fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), hostile), hostile),
  { maxLength: 5 },
).map((pairs) =>
  pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : ""
);

/** Form and JSON fields the routes read. */
const FIELDS = [
  "dias",
  "codigo",
  "nombre",
  "name",
  "correo",
  "confirmar",
  "id",
  "code",
  "userId",
  "message",
];

const body = fc.oneof(
  fc.constant(null),
  fc.dictionary(fc.constantFrom(...FIELDS), fc.string({ maxLength: 60 }), {
    maxKeys: 4,
  }).map((fields) => ({
    type: "application/x-www-form-urlencoded",
    text: new URLSearchParams(fields).toString(),
  })),
  fc.array(fc.tuple(fc.constantFrom(...FIELDS), hostile), { maxLength: 4 })
    .map((pairs) => ({
      type: "application/x-www-form-urlencoded",
      text: pairs.map(([k, v]) => `${k}=${v}`).join("&"),
    })),
  fc.jsonValue({ maxDepth: 2 }).map((value) => ({
    type: "application/json",
    text: JSON.stringify(value),
  })),
  fc.record({
    type: fc.constantFrom(
      "application/json",
      "text/plain",
      "multipart/form-data",
    ),
    text: fc.string({ maxLength: 80 }),
  }),
);

type Identity = "stranger" | "tourist" | "passport" | "viewer" | "admin";

/** The app with a tourist who has visits, a note and a route, and staff who can sign in. */
async function createFuzzContext() {
  // Sign-in configured, at a real provider on a loopback port: its routes
  // answer as they do in service, not "not configured".
  const provider = await startOidcProvider({
    redirectUri: "http://localhost/auth/callback",
  });
  const ctx = await createTestContext({
    cachePages: true,
    clockStart: new Date(),
    env: { TRUST_PROXY: "1", ...oidcEnv(provider, "http://localhost") },
  });
  const userId = randomUserId();
  await verifyVisits(ctx, userId, 3);
  const slug = SHIPPED.attractions[0].slug;
  const rated = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
    userId,
    atractivoSlug: slug,
    rating: 4,
    notes: "Muy bonita",
  });
  assert.equal(rated.status, 200);
  await rated.body?.cancel();
  const { shareCode } = await saveTicket(
    ctx.deps.kv,
    randomTicket({ userId }),
  );
  const visitId = (await getVisit(ctx.deps.kv, userId, slug))!.visitId;
  /** Real values for each path parameter, beside hostile ones. */
  const known: Record<string, string[]> = {
    slug: [
      ...SHIPPED.attractions.map((a) => a.slug),
      ...SHIPPED.providers.map((p) => p.slug),
    ],
    code: [shareCode],
    userId: [userId],
    visitId: [visitId],
    file: [`${slug}.png`],
    id: [crypto.randomUUID()],
    erasureId: [crypto.randomUUID()],
    token: [crypto.randomUUID()],
  };
  /** Headers of a request as `who` (staff sign in afresh: a run may sign out). */
  async function headersOf(
    who: Identity,
    ip: number,
  ): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      "x-forwarded-for": `198.18.${ip >> 8}.${ip & 255}`,
    };
    if (who === "tourist") {
      headers.authorization = `Bearer ${await ctx.tokenFor(userId)}`;
    } else if (who === "passport") {
      const { sessionId } = await createSession(ctx.deps.kv, {
        userId,
        name: null,
        now: ctx.clock.now(),
        ttlMs: 60 * 60_000,
        guest: true,
      });
      headers.cookie = `session=${sessionId}`;
    } else if (who === "viewer" || who === "admin") {
      headers.cookie = await signInStaff(ctx, {
        email: `${who}@municipio.gob.mx`,
        role: who,
      });
      headers.origin = "http://localhost";
    }
    return headers;
  }
  return { ctx, provider, known, headersOf };
}

/** A path of `pattern` with each `:param` and `*` filled by `fill`. */
function fillPath(
  pattern: string,
  fill: (name: string) => string,
): string {
  const path = pattern.split("/").map((segment) => {
    if (segment === "*") return fill("*");
    const param = /^:(\w+)/.exec(segment);
    return param ? fill(param[1]) : segment;
  }).join("/");
  return path === "*" ? `/${fill("*")}` : path;
}

async function fuzzRoute(
  { ctx, known, headersOf }: Awaited<ReturnType<typeof createFuzzContext>>,
  pattern: string,
  seed: number,
): Promise<Map<number, number>> {
  const params = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const statuses = new Map<number, number>();
  const allowed = pattern.startsWith("/api/chat") ? [502, 503] : [];
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        method: fc.constantFrom("GET", "POST"),
        who: fc.constantFrom<Identity>(
          "stranger",
          "tourist",
          "passport",
          "viewer",
          "admin",
        ),
        values: fc.record(
          Object.fromEntries(
            params.map((name) => [
              name,
              known[name]
                ? fc.oneof(fc.constantFrom(...known[name]), hostile)
                : hostile,
            ]),
          ),
        ),
        rest: fc.array(hostile, { minLength: 1, maxLength: 3 })
          .map((segments) => segments.join("/")),
        query,
        body,
        ip: fc.nat(65_535),
      }),
      async ({ method, who, values, rest, query, body, ip }) => {
        const path = fillPath(
          pattern,
          (name) => name === "*" ? rest : values[name] as string,
        );
        const headers = await headersOf(who, ip);
        if (method === "POST" && body) headers["content-type"] = body.type;
        const res = await ctx.app.request(`${path}${query}`, {
          method,
          headers,
          body: method === "POST" && body ? body.text : undefined,
        });
        await res.body?.cancel();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        assert.ok(
          res.status < 500 || allowed.includes(res.status),
          `${method} ${path}${query} as ${who}: ${res.status}`,
        );
      },
    ),
    { numRuns: RUNS_PER_ROUTE, seed },
  );
  return statuses;
}

Deno.test("fuzzing every route: never a 5xx", async (t) => {
  const fuzz = await createFuzzContext();
  await using _provider = fuzz.provider;
  await using _ctx = fuzz.ctx;
  const routes = await LazyRoutes.of(fuzz.ctx.app)!.listRoutes();
  const patterns = [...new Set(routes.map((r) => r.path))].sort();
  console.info(
    `${patterns.length} route patterns, ${RUNS_PER_ROUTE} runs each, seed ${SEED} (FUZZ_SEED=${SEED} replays)`,
  );
  await t.step(
    "every POST route, as every visitor, answers a body it cannot read below 500",
    async () => {
      const posts = routes.filter((r) => r.method !== "GET" && r.path !== "*");
      const unreadable = [
        { type: "multipart/form-data", text: "gracia=7" },
        { type: "multipart/form-data; boundary=x", text: "--x\r\nbroken" },
        {
          type: "application/x-www-form-urlencoded",
          text: "%zz=%&=&%00=\u0000",
        },
        { type: "application/json", text: "{" },
      ];
      for (const { path: pattern } of posts) {
        const path = fillPath(
          pattern,
          (name) => name === "*" ? "x" : fuzz.known[name]?.[0] ?? "x",
        );
        for (
          const who of ["stranger", "passport", "tourist", "admin"] as const
        ) {
          for (const { type, text } of unreadable) {
            const headers = await fuzz.headersOf(who, 1);
            const res = await fuzz.ctx.app.request(path, {
              method: "POST",
              headers: { ...headers, "content-type": type },
              body: text,
            });
            await res.body?.cancel();
            assert.ok(
              res.status < 500 ||
                (pattern.startsWith("/api/chat") && res.status === 503),
              `POST ${path} (${type}) as ${who}: ${res.status}`,
            );
          }
        }
      }
    },
  );

  for (const [i, pattern] of patterns.entries()) {
    await t.step(pattern, async () => {
      await fuzzRoute(fuzz, pattern, SEED + i);
    });
  }
});

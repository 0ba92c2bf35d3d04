/**
 * `/openapi.json` as a contract: the live document passes Redocly's
 * recommended lint, and every answer the service gives here (each status
 * provoked for real, with its headers and body) is one the document lists
 * for that operation, and every status it lists is provoked here or
 * explained.
 */
import assert from "node:assert/strict";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  capture,
  createTestContext,
  randomUserId,
  SHIPPED,
  type TestContext,
  ticketBody,
} from "../test_utils.ts";

// deno-lint-ignore no-explicit-any -- the document is read as plain JSON
type Json = any;

/** The problems Redocly's recommended ruleset may still report, each with why: none. */
const ACCEPTED_LINT_PROBLEMS: string[] = [];

async function fetchDocument(ctx: TestContext): Promise<Json> {
  const res = await ctx.app.request("/openapi.json");
  assert.equal(res.status, 200);
  return await res.json();
}

Deno.test("openapi.json passes Redocly's recommended lint", async (t) => {
  const config = await createConfig({ extends: ["recommended"] });
  for (
    const [label, env, server] of [
      ["without BASE_URL", {}, "/"],
      [
        "with BASE_URL",
        { BASE_URL: "https://turismo.example.gob.mx" },
        "https://turismo.example.gob.mx",
      ],
    ] as const
  ) {
    await t.step(label, async () => {
      await using ctx = await createTestContext({ env });
      const doc = await fetchDocument(ctx);
      assert.deepEqual(doc.servers.map((s: Json) => s.url), [server]);
      const problems = await lintFromString({
        source: JSON.stringify(doc),
        absoluteRef: "/openapi.json",
        config,
      });
      assert.deepEqual(
        problems.map((p) =>
          `${p.severity} ${p.ruleId}: ${p.message} at ${
            p.location[0]?.pointer ?? "?"
          }`
        ),
        ACCEPTED_LINT_PROBLEMS,
      );
    });
  }
});

/** The document's operations, by the method and path it lists them under. */
const OPS = {
  ticket: { method: "post", path: "/api/turismo/ticket" },
  verify: { method: "post", path: "/api/turismo/verify-visit" },
  rate: { method: "post", path: "/api/turismo/rate-visit" },
  chat: { method: "post", path: "/api/chat" },
  sessionToken: { method: "post", path: "/api/session-token" },
  card: { method: "get", path: "/api/turismo/og/{code}" },
  health: { method: "get", path: "/healthz" },
} as const;
type OpName = keyof typeof OPS;
const POST_OPS = ["ticket", "verify", "rate", "chat", "sessionToken"] as const;

/**
 * Statuses the document lists that this test does not provoke, with why.
 * Everything else listed must be seen below.
 */
const NOT_PROVOKED: Partial<Record<OpName, Record<number, string>>> = {
  verify: {
    422:
      "a code at an attraction an admin set to check in by position only (tested in tests/api/check_in_test.ts)",
  },
  card: {
    503:
      "the render pool's queue full or a render past its deadline (lib/og/pool.ts; tested in lib/og)",
  },
  health: {
    500: "no known cause: every operation lists the error funnel's 500",
  },
};

/** Checks answers against the document and remembers which statuses were seen. */
class Contract {
  readonly seen = new Map<OpName, Set<number>>();
  constructor(readonly doc: Json) {}

  /**
   * Asserts `res` has `status`, that the document lists it for `op` with
   * the headers it requires and a body of its schema; returns the JSON body.
   */
  async check(op: OpName, res: Response, status: number): Promise<Json> {
    const { method, path } = OPS[op];
    const label = `${method.toUpperCase()} ${path} → ${res.status}`;
    assert.equal(res.status, status, `${label}: ${await res.clone().text()}`);
    const documented = this.doc.paths[path]?.[method]?.responses?.[status];
    assert.ok(documented, `${label} is not in the document`);
    this.seen.set(op, (this.seen.get(op) ?? new Set()).add(status));
    for (
      const [name, header] of Object.entries<Json>(documented.headers ?? {})
    ) {
      if (header.required) {
        assert.ok(res.headers.has(name), `${label}: no ${name} header`);
      }
    }
    if (!documented.content) {
      assert.equal(await res.text(), "", `${label}: a body not documented`);
      return undefined;
    }
    const type = res.headers.get("content-type")?.split(";")[0] ?? "";
    const media = documented.content[type];
    assert.ok(media, `${label}: ${type} is not documented`);
    if (type !== "application/json") {
      await res.body?.cancel();
      return undefined;
    }
    const body = await res.json();
    this.assertSchema(body, media.schema, label);
    return body;
  }

  /** The JSON Schema subset the document uses: $ref, allOf, type, const, enum, properties, required. */
  assertSchema(value: Json, schema: Json, at: string): void {
    if (schema.$ref) {
      const name = schema.$ref.replace("#/components/schemas/", "");
      return this.assertSchema(value, this.doc.components.schemas[name], at);
    }
    for (const part of schema.allOf ?? []) this.assertSchema(value, part, at);
    if (schema.type) {
      const types = [schema.type].flat();
      const actual = value === null
        ? "null"
        : Array.isArray(value)
        ? "array"
        : Number.isInteger(value)
        ? "integer"
        : typeof value;
      assert.ok(
        types.includes(actual) ||
          (actual === "integer" && types.includes("number")),
        `${at}: ${JSON.stringify(value)} is not ${types.join(" or ")}`,
      );
    }
    if ("const" in schema) assert.deepEqual(value, schema.const, at);
    if (schema.enum) assert.ok(schema.enum.includes(value), at);
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const key of schema.required ?? []) {
        assert.ok(key in value, `${at}: no ${key} in ${JSON.stringify(value)}`);
      }
      for (const [key, sub] of Object.entries<Json>(schema.properties ?? {})) {
        if (key in value) this.assertSchema(value[key], sub, `${at}.${key}`);
      }
    }
  }
}

/** A request to the app in process, optionally from a client address. */
function send(
  ctx: TestContext,
  path: string,
  init: RequestInit & { json?: unknown; from?: string } = {},
): Promise<Response> {
  const { json, from, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  const request = new Request(`http://localhost${path}`, {
    method: json === undefined ? rest.method : "POST",
    ...rest,
    headers,
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  const env = from
    ? { remoteAddr: { transport: "tcp", hostname: from, port: 40000 } }
    : undefined;
  return Promise.resolve(ctx.app.fetch(request, env));
}

const bearer = async (ctx: TestContext, userId: string) => ({
  authorization: `Bearer ${await ctx.tokenFor(userId)}`,
});

/** A port on 127.0.0.1 with nothing listening: connections are refused at once. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** A well-formed RS256 token of an external provider (its signature is never reached). */
function externalToken(userId: string): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-")
      .replace(/\//g, "_");
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: "RS256", kid: "k1" })}.${
    part({ sub: userId, iat: now, exp: now + 600 })
  }.c2lnbmF0dXJl`;
}

Deno.test("openapi.json lists every status the service answers", async (t) => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    env: { REQUEST_BODY_TIMEOUT_MS: "100", IP_BUDGET_PER_MINUTE: "2" },
    openai: fake.client({ maxRetries: 0 }),
  });
  const contract = new Contract(await fetchDocument(ctx));
  const [first, second] = SHIPPED.attractions;
  const user = randomUserId();
  const origin = { origin: "http://localhost" };

  await t.step("answers of the operations themselves", async () => {
    // Tickets
    const ticket = ticketBody();
    await contract.check(
      "ticket",
      await send(ctx, OPS.ticket.path, { json: ticket }),
      200,
    );
    await contract.check(
      "ticket",
      await send(ctx, OPS.ticket.path, {
        json: { ...ticket, email: "otra@ejemplo.mx" },
      }),
      409,
    );
    const invalid = await contract.check(
      "ticket",
      await send(ctx, OPS.ticket.path, { json: ticketBody({ email: "no" }) }),
      400,
    );
    assert.equal(invalid.field, "email");
    await contract.check(
      "ticket",
      await send(ctx, OPS.ticket.path, {
        json: ticketBody(),
        headers: { authorization: "Bearer nope" },
      }),
      401,
    );

    // Visits
    const verify = (body: unknown, headers: HeadersInit) =>
      send(ctx, OPS.verify.path, { json: body, headers });
    const mine = await bearer(ctx, user);
    await contract.check(
      "verify",
      await verify({ code: first.guideCode, userId: user }, mine),
      200,
    );
    await contract.check(
      "verify",
      await verify({ code: first.guideCode, userId: user }, mine),
      409,
    );
    await contract.check(
      "verify",
      await verify({ code: "NOPE00", userId: user }, mine),
      404,
    );
    await contract.check(
      "verify",
      await verify({ code: first.guideCode, userId: randomUserId() }, mine),
      403,
    );
    await contract.check(
      "verify",
      await verify({ code: first.guideCode, userId: user }, {}),
      401,
    );
    await contract.check(
      "verify",
      await verify({ code: 7, userId: user }, mine),
      400,
    );

    const rate = (body: unknown, headers: HeadersInit) =>
      send(ctx, OPS.rate.path, { json: body, headers });
    await contract.check(
      "rate",
      await rate({ userId: user, atractivoSlug: first.slug, rating: 5 }, mine),
      200,
    );
    await contract.check(
      "rate",
      await rate({ userId: user, atractivoSlug: second.slug, rating: 5 }, mine),
      404,
    );
    await contract.check(
      "rate",
      await rate({ userId: randomUserId(), atractivoSlug: first.slug }, mine),
      403,
    );
    await contract.check(
      "rate",
      await rate({ userId: user, atractivoSlug: first.slug }, {}),
      401,
    );
    await contract.check("rate", await rate({ userId: user }, mine), 400);

    // The share card, and its answer to a conditional request
    const cardPath = `/api/turismo/og/${ticket.shareCode}`;
    const card = await send(ctx, cardPath);
    const etag = card.headers.get("etag")!;
    await contract.check("card", card, 200);
    await contract.check(
      "card",
      await send(ctx, cardPath, { headers: { "if-none-match": etag } }),
      304,
    );
    await contract.check(
      "card",
      await send(ctx, "/api/turismo/og/nadie-0000"),
      404,
    );

    // The assistant: `{reply}` whatever the status
    await contract.check(
      "chat",
      await send(ctx, OPS.chat.path, { json: { message: "Hola" } }),
      200,
    );
    await contract.check(
      "chat",
      await send(ctx, OPS.chat.path, { json: { message: " " } }),
      400,
    );
    fake.respondWith({ type: "status", status: 500 });
    await capture("warn", async () => {
      await contract.check(
        "chat",
        await send(ctx, OPS.chat.path, { json: { message: "Hola" } }),
        502,
      );
    });

    // The pages' session token
    const token = (body: unknown, headers: HeadersInit) =>
      send(ctx, OPS.sessionToken.path, { json: body, headers });
    await contract.check(
      "sessionToken",
      await token({ guest: true }, origin),
      200,
    );
    await contract.check("sessionToken", await token({}, origin), 401);
    await contract.check(
      "sessionToken",
      await token({}, { origin: "https://evil.example" }),
      403,
    );
    await contract.check(
      "sessionToken",
      await token({ guest: "sí" }, origin),
      400,
    );

    await contract.check("health", await send(ctx, "/healthz"), 200);
  });

  await t.step("a wrong method: 405 with Allow", async () => {
    const cases: [OpName, string, string, string][] = [
      ["ticket", "GET", OPS.ticket.path, "POST, OPTIONS"],
      ["verify", "GET", OPS.verify.path, "POST, OPTIONS"],
      ["rate", "PUT", OPS.rate.path, "POST, OPTIONS"],
      ["chat", "GET", OPS.chat.path, "POST, OPTIONS"],
      ["sessionToken", "DELETE", OPS.sessionToken.path, "POST, OPTIONS"],
      ["card", "POST", "/api/turismo/og/cualquiera", "GET, HEAD, OPTIONS"],
      ["health", "POST", "/healthz", "GET, HEAD"],
    ];
    for (const [op, method, path, allow] of cases) {
      const res = await send(ctx, path, { method });
      assert.equal(res.headers.get("allow"), allow, `${method} ${path}`);
      const body = await contract.check(op, res, 405);
      if (op === "chat") {
        assert.equal(
          body.reply,
          "Esta dirección solo acepta solicitudes POST.",
        );
      } else {
        assert.equal(body.error, "Método no permitido");
        assert.match(body.details, new RegExp(`no acepta ${method}; usa `));
      }
    }
  });

  await t.step(
    "what reading a JSON body answers, on every POST operation",
    async () => {
      for (const op of POST_OPS) {
        const { path } = OPS[op];
        await contract.check(
          op,
          await send(ctx, path, {
            method: "POST",
            body: "x",
            headers: { "content-type": "text/plain" },
          }),
          415,
        );
        await contract.check(
          op,
          await send(ctx, path, {
            method: "POST",
            body: "{",
            headers: { "content-type": "application/json" },
          }),
          400,
        );
        await contract.check(
          op,
          await send(ctx, path, { json: { padding: "x".repeat(70_000) } }),
          413,
        );
      }
      // A body that never ends: 408 after REQUEST_BODY_TIMEOUT_MS (100 here).
      await Promise.all(POST_OPS.map(async (op) => {
        const body = new ReadableStream<Uint8Array>({
          start: (controller) =>
            controller.enqueue(new TextEncoder().encode("{")),
        });
        const res = await send(ctx, OPS[op].path, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" },
        });
        await contract.check(op, res, 408);
      }));
    },
  );

  await t.step("the per-address budget: 429 with Retry-After", async () => {
    const entries = Object.entries(OPS).filter(([op]) => op !== "health");
    for (const [index, [op, { method, path }]] of entries.entries()) {
      const from = `198.51.100.${index + 1}`;
      const url = path.replace("{code}", "cualquiera");
      const init = method === "post" ? { json: {} } : {};
      for (let i = 0; i < 2; i++) {
        await (await send(ctx, url, { ...init, from })).body?.cancel();
      }
      await contract.check(
        op as OpName,
        await send(ctx, url, { ...init, from }),
        429,
      );
    }
  });

  await t.step("failures around the service: 500, 502, 503", async () => {
    const port = closedPort();
    await using down = await createTestContext({
      env: {
        AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
        WP_URL: `http://127.0.0.1:${port}`,
        WP_USER: "portal",
        WP_APP_PASSWORD: "abcd efgh ijkl mnop",
      },
      openai: undefined,
    });
    const external = { authorization: `Bearer ${externalToken(user)}` };
    await capture("error", async () => {
      // The identity provider's keys cannot be fetched: 503.
      await contract.check(
        "ticket",
        await send(down, OPS.ticket.path, {
          json: ticketBody(),
          headers: external,
        }),
        503,
      );
      await contract.check(
        "verify",
        await send(down, OPS.verify.path, {
          json: { code: first.guideCode, userId: user },
          headers: external,
        }),
        503,
      );
      await contract.check(
        "rate",
        await send(down, OPS.rate.path, {
          json: { userId: user, atractivoSlug: first.slug },
          headers: external,
        }),
        503,
      );
      // The CMS cannot be reached: 502.
      await contract.check(
        "ticket",
        await send(down, OPS.ticket.path, { json: ticketBody() }),
        502,
      );
      // No model configured: 503.
      await contract.check(
        "chat",
        await send(down, OPS.chat.path, { json: { message: "Hola" } }),
        503,
      );

      // KV taken away: the storage fails under every operation.
      down.deps.kv.close();
      const own = {
        authorization: `Bearer ${await signOwnToken(
          down.deps.signingSecret,
          user,
        )}`,
      };
      await contract.check(
        "ticket",
        await send(down, OPS.ticket.path, { json: ticketBody() }),
        500,
      );
      await contract.check(
        "verify",
        await send(down, OPS.verify.path, {
          json: { code: first.guideCode, userId: user },
          headers: own,
        }),
        500,
      );
      await contract.check(
        "rate",
        await send(down, OPS.rate.path, {
          json: { userId: user, atractivoSlug: first.slug },
          headers: own,
        }),
        500,
      );
      await contract.check(
        "chat",
        await send(down, OPS.chat.path, { json: { message: "Hola" } }),
        500,
      );
      await contract.check(
        "sessionToken",
        await send(down, OPS.sessionToken.path, {
          json: { guest: true },
          headers: origin,
        }),
        500,
      );
      await contract.check(
        "card",
        await send(down, "/api/turismo/og/nadie-0000"),
        500,
      );
      await contract.check("health", await send(down, "/healthz"), 503);
    });
  });

  await t.step(
    "every status the document lists was seen, or is explained",
    () => {
      for (
        const [op, { method, path }] of Object.entries(OPS) as [
          OpName,
          typeof OPS[OpName],
        ][]
      ) {
        const listed = Object.keys(contract.doc.paths[path][method].responses)
          .map(Number);
        const unseen = listed.filter((status) =>
          !contract.seen.get(op)?.has(status)
        );
        assert.deepEqual(
          unseen,
          Object.keys(NOT_PROVOKED[op] ?? {}).map(Number),
          `${method.toUpperCase()} ${path}`,
        );
      }
    },
  );
});

Deno.test("docs/API.md's endpoint table names exactly the operations of /openapi.json", async () => {
  await using ctx = await createTestContext();
  const doc = await fetchDocument(ctx);
  const served = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths as Json)) {
    for (const method of Object.keys(operations as Json)) {
      served.add(`${method.toUpperCase()} ${path}`);
    }
  }
  // The document itself is documented, and is not an operation of its own.
  served.add("GET /openapi.json");
  const markdown = await Deno.readTextFile(
    new URL("../../docs/API.md", import.meta.url),
  );
  // The table that opens the section: its lines up to the first blank one.
  const section = markdown.split("\n## Endpoints\n")[1] ?? "";
  const table = section.trimStart().split("\n\n")[0];
  const documented = new Set(
    [...table.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) +\| `([^`]+)` /gm)]
      .map(([, method, path]) => `${method} ${path}`),
  );
  const missing = [...served].filter((op) => !documented.has(op)).sort();
  const extra = [...documented].filter((op) => !served.has(op)).sort();
  assert.deepEqual(
    { missingFromDocs: missing, notServed: extra },
    { missingFromDocs: [], notServed: [] },
  );
  assert.ok(documented.size >= 12, `${documented.size} rows read`);
});

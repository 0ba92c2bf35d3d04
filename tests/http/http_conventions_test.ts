import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { RequestLog } from "@/lib/http/request_log.ts";
import { Hono } from "hono";
import { DataStore } from "@/lib/data/data_store.ts";
import { createErrorHandler } from "@/lib/http/error_handler.ts";
import {
  assertJson,
  capture,
  copyShippedData,
  createTestContext,
  DATA_PATH,
  mutateShipped,
  postAsUser,
  postJson,
  randomTicket,
  randomUserId,
  serveApp,
  SHIPPED,
  ticketBody,
} from "../test_utils.ts";
import { saveTicket } from "@/lib/db/tickets.ts";

Deno.test("http conventions", async (t) => {
  await using ctx = await createTestContext({
    env: { ALLOWED_ORIGINS: "https://portal.example" },
  });

  await t.step("GET /healthz answers 200 after reading KV", async () => {
    const res = await ctx.app.request("/healthz");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      status: "ok",
      dataVersion: ctx.deps.data.current().version,
    });
  });

  await t.step("an unknown /api path is a JSON 404", async () => {
    const res = await ctx.app.request("/api/turismo/nada");
    const body = await assertJson(res, 404);
    assert.equal(body.error, "No encontrado");
    assert.match(body.details, /GET \/api\/turismo\/nada/);
  });

  await t.step("a POST that is not JSON is a 415", async () => {
    const res = await ctx.app.request("/api/turismo/ticket", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "hola",
    });
    assert.equal(res.status, 415);
    const body = await res.json();
    assert.deepEqual(Object.keys(body).sort(), ["details", "error"]);
  });

  await t.step("a body over 64 KiB is a 413", async () => {
    const res = await postJson(ctx, "/api/turismo/ticket", {
      name: "x".repeat(70_000),
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error, "Solicitud demasiado grande");
  });

  await t.step(
    "a streamed body over 64 KiB without Content-Length is a 413",
    async () => {
      const chunk = new TextEncoder().encode("a".repeat(16_384));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 6) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const res = await ctx.app.request("/api/turismo/ticket", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "transfer-encoding": "chunked",
        },
        body,
      });
      assert.equal(res.status, 413);
      await res.body?.cancel();
    },
  );

  await t.step("malformed JSON is a 400", async () => {
    const res = await postJson(ctx, "/api/turismo/ticket", '{"name": ');
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: "Solicitud no válida",
      details: "El cuerpo de la solicitud no es JSON válido.",
    });
  });

  await t.step("chat errors are {reply} bodies", async () => {
    const res = await ctx.app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "hola",
    });
    assert.equal(res.status, 415);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ["reply"]);
    assert.match(body.reply, /mensaje válido/);
  });

  await t.step(
    "CORS preflight from an allowed origin is answered with credentials",
    async () => {
      const res = await ctx.app.request("/api/turismo/verify-visit", {
        method: "OPTIONS",
        headers: {
          origin: "https://portal.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, authorization",
        },
      });
      assert.equal(res.status, 204);
      assert.equal(
        res.headers.get("access-control-allow-origin"),
        "https://portal.example",
      );
      assert.equal(res.headers.get("access-control-allow-credentials"), "true");
      assert.equal(
        res.headers.get("access-control-allow-methods"),
        "GET,POST,OPTIONS",
      );
      assert.equal(
        res.headers.get("access-control-allow-headers"),
        "Content-Type,Authorization,Idempotency-Key",
      );
    },
  );

  await t.step(
    "CORS never echoes an origin that is not allowed, nor *",
    async () => {
      const res = await ctx.app.request("/api/turismo/verify-visit", {
        method: "OPTIONS",
        headers: {
          origin: "https://evil.example",
          "access-control-request-method": "POST",
        },
      });
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      const get = await ctx.app.request("/healthz", {
        headers: { origin: "https://evil.example" },
      });
      assert.equal(get.headers.get("access-control-allow-origin"), null);
    },
  );

  await t.step("GET /openapi.json describes the API", async () => {
    const res = await ctx.app.request("/openapi.json");
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");
    assert.ok(doc.paths["/healthz"].get);
    const { type, scheme, bearerFormat } =
      doc.components.securitySchemes.bearerAuth;
    assert.deepEqual({ type, scheme, bearerFormat }, {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    });
  });

  await t.step(
    "a wrong method on an API path is a 405 with Allow; a preflight still works",
    async () => {
      const res = await ctx.app.request("/api/turismo/verify-visit");
      const body = await assertJson(res, 405);
      assert.equal(res.headers.get("allow"), "POST, OPTIONS");
      assert.deepEqual(body, {
        error: "Método no permitido",
        details: "La ruta /api/turismo/verify-visit no acepta GET; usa POST.",
      });
      const head = await ctx.app.request("/api/session-token", {
        method: "HEAD",
      });
      assert.equal(head.status, 405);
      assert.equal(head.headers.get("allow"), "POST, OPTIONS");
      const card = await ctx.app.request("/api/turismo/og/ruta-x", {
        method: "DELETE",
      });
      assert.equal(card.status, 405);
      assert.equal(card.headers.get("allow"), "GET, HEAD, OPTIONS");
      await card.body?.cancel();
      for (
        const path of [
          "/api/turismo/ticket",
          "/api/turismo/verify-visit",
          "/api/turismo/rate-visit",
          "/api/chat",
          "/api/session-token",
          "/api/turismo/og/ruta-x",
        ]
      ) {
        const preflight = await ctx.app.request(path, {
          method: "OPTIONS",
          headers: {
            origin: "https://portal.example",
            "access-control-request-method": "POST",
          },
        });
        assert.equal(preflight.status, 204, path);
        assert.equal(
          preflight.headers.get("access-control-allow-origin"),
          "https://portal.example",
        );
      }
    },
  );
});

Deno.test("http: an unexpected error is a 500 without internals, and is logged", async () => {
  const app = new Hono().get("/boom", () => {
    throw new Error("secret internals at /srv/app.ts:42");
  });
  app.onError(createErrorHandler());
  const { result: res, lines } = await capture(
    "error",
    async () => await app.request("/boom"),
  );
  assert.equal(res.status, 500);
  const text = await res.text();
  assert.ok(!text.includes("secret internals"));
  assert.deepEqual(JSON.parse(text), {
    error: "Error interno del servidor",
    details: "Inténtalo de nuevo más tarde",
  });
  assert.equal(lines.length, 1);
});

Deno.test("GET /healthz tells a refused data change and an unreadable KV", async (t) => {
  await using copy = await copyShippedData();
  const data = await DataStore.open(copy.path, { onError: () => {} });
  await using ctx = await createTestContext({ data });

  await t.step(
    "a broken data file: 200 degraded, with the reason, on the last good version",
    async () => {
      const good = data.current().version;
      await Deno.writeTextFile(
        copy.path,
        mutateShipped((broken) => broken.attractions[0].location.lat = 500),
      );
      assert.equal(await data.reload(), false);
      const res = await ctx.app.request("/healthz");
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.status, "degraded");
      assert.equal(body.dataVersion, good);
      assert.match(body.reason, /attractions\[0\]\.location\.lat/);
    },
  );

  await t.step("the file mended: ok again", async () => {
    await Deno.copyFile(DATA_PATH, copy.path);
    await data.reload();
    const res = await ctx.app.request("/healthz");
    assert.deepEqual(await res.json(), {
      status: "ok",
      dataVersion: data.current().version,
    });
  });

  await t.step("KV that cannot be read: 503 within a second", async () => {
    ctx.deps.kv.close();
    // Polls share one read a second: the closed KV shows at the next one.
    ctx.clock.advance(1_000);
    const res = await ctx.app.request("/healthz");
    assert.equal(res.status, 503);
    const body = await res.json();
    assert.equal(body.error, "Servicio no disponible");
    assert.match(body.details, /almacenamiento/);
  });
});

Deno.test("the request log: one request, one line, always", async (t) => {
  const written: string[] = [];
  const log = new RequestLog({
    write: (text) => Promise.resolve(void written.push(text)),
  });
  await using ctx = await createTestContext({ requestLog: log });

  await t.step(
    "a path with encoded newlines cannot forge a second log line",
    async () => {
      for (
        const path of [
          "/nope%0aPOST%20/api/turismo/ticket%20200%201.0ms%0a",
          "/nope%0d%0aPOST%20/api/turismo/ticket%20200%201.0ms",
          "/nope%E2%80%A8GET%20/%20200",
          "/nope%1b[31mrojo",
        ]
      ) {
        written.length = 0;
        const res = await ctx.app.request(path);
        await res.body?.cancel();
        await log.flush();
        const lines = written.join("").split("\n").filter(Boolean);
        assert.equal(lines.length, 1, path);
        // deno-lint-ignore no-control-regex -- the escape character is what we look for
        assert.doesNotMatch(lines[0], /[\r\u2028\u001b]/, path);
        assert.match(lines[0], /^GET \/nope\\(x0a|x0d|u2028|x1b)/, lines[0]);
        assert.match(lines[0], / 404 [\d.]+ms$/);
      }
    },
  );

  await t.step(
    "lines are written in batches after the answer, none lost at close",
    async () => {
      written.length = 0;
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => ctx.app.request("/healthz")),
      );
      for (const res of answers) await res.body?.cancel();
      assert.equal(written.length, 0, "nothing written while answering");
      await ctx.deps.close();
      assert.equal(written.length, 1, "one batch");
      assert.equal(written[0].split("\n").filter(Boolean).length, 50);
      assert.match(written[0], /^GET \/healthz 200 [\d.]+ms\n/);
    },
  );
});

Deno.test("compression: brotli or gzip for text answers of 1 KB and more", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "a JSON document is compressed as accepted and decodes to the same bytes",
    async () => {
      const plain = await ctx.app.request("/openapi.json");
      const text = await plain.text();
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.equal(plain.headers.get("vary"), "Accept-Encoding");
      for (const [accept, encoding] of [["br", "br"], ["gzip", "gzip"]]) {
        const res = await ctx.app.request("/openapi.json", {
          headers: { "accept-encoding": accept },
        });
        assert.equal(res.headers.get("content-encoding"), encoding);
        assert.equal(res.headers.get("content-length"), null);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.ok(bytes.byteLength < text.length / 3);
        const decoded = encoding === "br"
          ? brotliDecompressSync(bytes)
          : gunzipSync(bytes);
        assert.equal(new TextDecoder().decode(decoded), text);
      }
    },
  );

  await t.step(
    "the 404 page (never cached) is compressed by the middleware",
    async () => {
      const res = await ctx.app.request("/no-existe", {
        headers: { "accept-encoding": "br" },
      });
      assert.equal(res.status, 404);
      assert.equal(res.headers.get("content-encoding"), "br");
      const html = new TextDecoder().decode(
        brotliDecompressSync(new Uint8Array(await res.arrayBuffer())),
      );
      assert.match(html, /^<!DOCTYPE html>/);
    },
  );

  await t.step(
    "small answers, HEAD and PNG share cards are sent as they are",
    async () => {
      const small = await ctx.app.request("/healthz", {
        headers: { "accept-encoding": "br" },
      });
      assert.equal(small.headers.get("content-encoding"), null);
      assert.equal(small.headers.get("vary"), "Accept-Encoding");
      assert.equal((await small.json()).status, "ok");
      const head = await ctx.app.request("/openapi.json", {
        method: "HEAD",
        headers: { "accept-encoding": "br" },
      });
      assert.equal(head.headers.get("content-encoding"), null);
      await head.body?.cancel();
      const ticket = randomTicket();
      await saveTicket(ctx.deps.kv, ticket);
      const card = await ctx.app.request(
        `/api/turismo/og/${ticket.shareCode}`,
        {
          headers: { "accept-encoding": "br, gzip" },
        },
      );
      assert.equal(card.headers.get("content-type"), "image/png");
      assert.equal(card.headers.get("content-encoding"), null);
      assert.doesNotMatch(card.headers.get("vary") ?? "", /Accept-Encoding/i);
      await card.body?.cancel();
    },
  );
});

Deno.test("answers go out whole, with their Content-Length (not chunked)", async () => {
  await using ctx = await createTestContext({ cachePages: true });
  await using server = serveApp((req, info) => ctx.app.fetch(req, info));
  const ticket = randomTicket();
  await saveTicket(ctx.deps.kv, ticket);
  for (
    const [path, headers] of [
      ["/healthz", {}],
      [`/api/turismo/og/${ticket.shareCode}`, {}],
      [`/ruta/${ticket.shareCode}`, {}],
      ["/api/turismo/no-existe", {}],
      // A cross-origin call from an allowed origin takes the CORS path.
      ["/healthz", { origin: "https://otro.example" }],
    ] as const
  ) {
    const res = await fetch(`${server.origin}${path}`, {
      headers: { "accept-encoding": "identity", ...headers },
    });
    const bytes = await res.arrayBuffer();
    assert.equal(
      res.headers.get("content-length"),
      String(bytes.byteLength),
      path,
    );
  }
});

Deno.test("security headers for a hostile network", async (t) => {
  await using https = await createTestContext({
    env: {
      BASE_URL: "https://turismo.ejemplo.gob.mx",
      ALLOWED_ORIGINS: "https://portal.example",
    },
  });
  await using plain = await createTestContext();

  await t.step(
    "HSTS on pages and the API whenever BASE_URL is https, never on plain http",
    async () => {
      for (const path of ["/", "/healthz", "/api/turismo/og/no-existe"]) {
        const res = await https.app.request(path);
        await res.body?.cancel();
        assert.equal(
          res.headers.get("strict-transport-security"),
          "max-age=31536000; includeSubDomains",
          path,
        );
        const local = await plain.app.request(path);
        await local.body?.cancel();
        assert.equal(local.headers.get("strict-transport-security"), null);
      }
    },
  );

  await t.step(
    "API answers that carry user data are no-store and nosniff, errors too",
    async () => {
      const userId = randomUserId();
      for (
        const res of [
          await postAsUser(https, "/api/turismo/verify-visit", userId, {
            code: SHIPPED.attractions[0].guideCode,
            userId,
          }),
          await postAsUser(https, "/api/turismo/rate-visit", userId, {
            userId,
            atractivoSlug: SHIPPED.attractions[0].slug,
            rating: 5,
          }),
          await postJson(https, "/api/turismo/ticket", ticketBody()),
          await postJson(https, "/api/turismo/verify-visit", {}),
        ]
      ) {
        await res.body?.cancel();
        assert.equal(res.headers.get("cache-control"), "no-store", res.url);
        assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      }
    },
  );

  await t.step(
    "credentials are allowed only together with an allowed origin",
    async () => {
      for (const method of ["GET", "OPTIONS"]) {
        const headers = {
          origin: "https://evil.example",
          "access-control-request-method": "POST",
        };
        const evil = await https.app.request("/api/turismo/og/x", {
          method,
          headers,
        });
        await evil.body?.cancel();
        assert.equal(evil.headers.get("access-control-allow-origin"), null);
        assert.equal(
          evil.headers.get("access-control-allow-credentials"),
          null,
          method,
        );
        const allowed = await https.app.request("/api/turismo/og/x", {
          method,
          headers: { ...headers, origin: "https://portal.example" },
        });
        await allowed.body?.cancel();
        assert.equal(
          allowed.headers.get("access-control-allow-origin"),
          "https://portal.example",
        );
        assert.equal(
          allowed.headers.get("access-control-allow-credentials"),
          "true",
        );
      }
    },
  );
});

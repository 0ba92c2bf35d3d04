/**
 * The WordPress driver against a loopback stand-in, for what a real
 * WordPress does not show on request: an answer that never comes or stalls,
 * a 5xx, a body that is not JSON or not a post, a connection dropped before
 * any answer, a slug race, a post deleted meanwhile. Each request the
 * stand-in gets is recorded, so the tests also check what the driver sends.
 * Creating, renaming and deleting against a real WordPress is
 * tests/api/ticket_wordpress_test.ts (set up by .ci/setup-wordpress.sh).
 */
import assert from "node:assert/strict";
import { BadGatewayError } from "@/lib/errors/mod.ts";
import type { TicketInput } from "@/lib/types/cms.ts";
import { createWordPressCms, type WordPressOptions } from "./wordpress.ts";

const USER = "turismo";
/** Not ASCII: the Basic credentials are the UTF-8 bytes in base64. */
const APP_PASSWORD = "contraseña ñu 1234";
/** The deadline of the steps that wait for it; the others get a generous one. */
const TIMEOUT_MS = 300;

interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: Headers;
  body: string;
}

type Answer = (
  request: SeenRequest,
  stand: StandIn,
) => Response | Promise<Response>;

interface StandIn extends AsyncDisposable {
  url: string;
  seen: SeenRequest[];
  /** An answer that never comes (until the stand-in closes). */
  never(): Promise<Response>;
  /** A 200 whose body starts and then stalls (until the stand-in closes). */
  stalledBody(): Response;
}

/** A stand-in for WordPress on 127.0.0.1 and a free port, answering with `answer`. */
function startStandIn(answer: Answer): StandIn {
  const seen: SeenRequest[] = [];
  const releases: (() => void)[] = [];
  const stand: StandIn = {
    url: "",
    seen,
    never: () =>
      new Promise<Response>((resolve) =>
        releases.push(() => resolve(new Response(null, { status: 204 })))
      ),
    stalledBody: () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('[{"id":'));
            releases.push(() => {
              try {
                controller.close();
              } catch {
                // The client went away: the stream is cancelled already.
              }
            });
          },
        }),
        { headers: { "content-type": "application/json" } },
      ),
    async [Symbol.asyncDispose]() {
      for (const release of releases) release();
      await server.shutdown();
    },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      const request = {
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
        body: await req.text(),
      };
      seen.push(request);
      return await answer(request, stand);
    },
  );
  stand.url = `http://127.0.0.1:${server.addr.port}`;
  return stand;
}

function createCms(url: string, options: Partial<WordPressOptions> = {}) {
  return createWordPressCms({
    url,
    user: USER,
    appPassword: APP_PASSWORD,
    postType: "turismo-tickets",
    timeoutMs: 5_000,
    ...options,
  });
}

function json(value: unknown, status = 200): Response {
  return Response.json(value, { status });
}

function ticketInput(overrides: Partial<TicketInput> = {}): TicketInput {
  return {
    shareCode: "Ruta-Ana-01",
    name: "Ana Ruiz",
    email: "ana@ejemplo.mx",
    ...overrides,
  };
}

/** A post as WordPress answers it with `context=edit`. */
function post(id: number, slug: string, meta: Record<string, string> = {}) {
  return {
    id,
    slug,
    title: { raw: "Ana Ruiz" },
    meta: {
      turismo_name: "Ana Ruiz",
      turismo_email: "ana@ejemplo.mx",
      turismo_phone: "",
      turismo_share_code: slug,
      turismo_user_id: "",
      ...meta,
    },
  };
}

/**
 * Runs `call`, which must fail with a 502; returns the error and what the
 * driver logged (kept off the test output).
 */
async function rejectsWith502(
  call: () => Promise<unknown>,
): Promise<{ error: BadGatewayError; logged: string; elapsedMs: number }> {
  const original = console.error;
  const lines: string[] = [];
  console.error = (...args: unknown[]) => lines.push(args.join(" "));
  const start = Date.now();
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof BadGatewayError, String(error));
    assert.equal(error.status, 502);
    return {
      error,
      logged: lines.join("\n"),
      elapsedMs: Date.now() - start,
    };
  } finally {
    console.error = original;
  }
  assert.fail("expected a BadGatewayError");
}

/** The `details` of the error in Spanish and English. */
function detailsOf(error: BadGatewayError): { es: string; en: string } {
  return { es: error.details, en: error.describe("en").details };
}

const TIMED_OUT = {
  es: "El CMS no respondió a tiempo",
  en: "The CMS did not answer in time",
};
const INVALID = {
  es: "El CMS dio una respuesta no válida",
  en: "The CMS sent back an invalid response",
};
const UNREACHABLE = {
  es: "No se pudo conectar con el CMS",
  en: "Could not connect to the CMS",
};

Deno.test("createWordPressCms: what it sends", async (t) => {
  await t.step(
    "a lookup is one GET by the lower-case slug, any status, with Basic credentials in UTF-8",
    async () => {
      await using wp = startStandIn(() => json([]));
      const cms = createCms(`${wp.url}/blog`);
      assert.equal(cms.kind, "wordpress");
      assert.equal(await cms.findTicket("Ruta-Ana-01"), null);
      assert.equal(wp.seen.length, 1);
      const [request] = wp.seen;
      assert.equal(request.method, "GET");
      const url = new URL(request.path, wp.url);
      assert.equal(url.pathname, "/blog/wp-json/wp/v2/turismo-tickets");
      assert.deepEqual(Object.fromEntries(url.searchParams), {
        slug: "ruta-ana-01",
        status: "any",
        context: "edit",
        _fields: "id,slug,title,meta",
      });
      const credentials = new TextEncoder().encode(`${USER}:${APP_PASSWORD}`)
        .toBase64();
      assert.equal(
        request.headers.get("authorization"),
        `Basic ${credentials}`,
      );
      assert.equal(request.headers.get("accept"), "application/json");
      assert.equal(request.headers.get("content-type"), null);
    },
  );

  await t.step(
    "a post of another slug in the answer is not the ticket",
    async () => {
      await using wp = startStandIn(() => json([post(3, "ruta-ana-01-2")]));
      assert.equal(await createCms(wp.url).findTicket("Ruta-Ana-01"), null);
    },
  );

  await t.step(
    "a rename of a share code without a post is null and writes nothing",
    async () => {
      await using wp = startStandIn(() => json([]));
      const renamed = await createCms(wp.url).renameTicket(
        "ruta-ana-01",
        "Ana María",
      );
      assert.equal(renamed, null);
      assert.deepEqual(wp.seen.map((r) => r.method), ["GET"]);
    },
  );
});

Deno.test("createWordPressCms: every failure is a 502 that says which", async (t) => {
  await t.step(
    "no answer at all is 'did not answer in time' after the timeout, asked once",
    async () => {
      await using wp = startStandIn((_, stand) => stand.never());
      const { error, logged, elapsedMs } = await rejectsWith502(() =>
        createCms(wp.url, { timeoutMs: TIMEOUT_MS }).findTicket("ruta-ana-01")
      );
      assert.deepEqual(detailsOf(error), TIMED_OUT);
      assert.ok(elapsedMs >= TIMEOUT_MS - 20, `${elapsedMs} ms`);
      assert.ok(elapsedMs < TIMEOUT_MS + 1_500, `${elapsedMs} ms`);
      assert.equal(wp.seen.length, 1, "one deadline, no retry after it");
      assert.match(logged, /WordPress GET turismo-tickets: timed out/);
    },
  );

  await t.step(
    "headers then a body that stalls is 'did not answer in time' too, not an invalid answer",
    async () => {
      await using wp = startStandIn((_, stand) => stand.stalledBody());
      const { error, logged, elapsedMs } = await rejectsWith502(() =>
        createCms(wp.url, { timeoutMs: TIMEOUT_MS }).findTicket("ruta-ana-01")
      );
      assert.deepEqual(detailsOf(error), TIMED_OUT);
      assert.ok(elapsedMs < TIMEOUT_MS + 1_500, `${elapsedMs} ms`);
      assert.match(logged, /timed out/);
    },
  );

  await t.step(
    "a create that times out is not sent again (no second post)",
    async () => {
      await using wp = startStandIn((_, stand) => stand.never());
      const { error } = await rejectsWith502(() =>
        createCms(wp.url, { timeoutMs: TIMEOUT_MS }).createTicket(ticketInput())
      );
      assert.deepEqual(detailsOf(error), TIMED_OUT);
      assert.deepEqual(wp.seen.map((r) => r.method), ["POST"]);
    },
  );

  await t.step(
    "a 5xx names its status; the log names WordPress's code and no credential",
    async () => {
      for (
        const [status, body] of [
          [500, '{"code":"internal_server_error","message":"Error crítico"}'],
          [503, "<html><body>Mantenimiento</body></html>"],
        ] as const
      ) {
        await using wp = startStandIn(() => new Response(body, { status }));
        const input = ticketInput({
          phone: "+52 33 1234 5678",
          userId: "a5b7c9d1-0000-4000-8000-000000000001",
        });
        const { error, logged } = await rejectsWith502(() =>
          createCms(wp.url).createTicket(input)
        );
        assert.deepEqual(detailsOf(error), {
          es: `El CMS respondió con un error (${status})`,
          en: `The CMS responded with an error (${status})`,
        });
        assert.match(
          logged,
          new RegExp(`POST turismo-tickets: HTTP ${status}`),
        );
        if (status === 500) assert.match(logged, /internal_server_error/);
        assert.ok(!logged.includes(APP_PASSWORD), "no password in the log");
        assert.ok(!logged.includes("Basic"), "no credentials in the log");
        // What was sent: a private post whose slug is the lower-case code.
        assert.equal(wp.seen.length, 1, "a write is not sent twice");
        const [request] = wp.seen;
        assert.equal(request.method, "POST");
        assert.equal(
          request.path,
          "/wp-json/wp/v2/turismo-tickets?_fields=id,slug,title,meta",
        );
        assert.equal(request.headers.get("content-type"), "application/json");
        assert.deepEqual(JSON.parse(request.body), {
          title: "Ana Ruiz",
          slug: "ruta-ana-01",
          status: "private",
          meta: {
            turismo_name: "Ana Ruiz",
            turismo_email: "ana@ejemplo.mx",
            turismo_phone: "+52 33 1234 5678",
            turismo_share_code: "Ruta-Ana-01",
            turismo_user_id: input.userId,
          },
        });
      }
    },
  );

  await t.step("a 4xx is a 502 naming it too (wrong credentials)", async () => {
    await using wp = startStandIn(() =>
      json({ code: "rest_forbidden", message: "Lo siento" }, 401)
    );
    const { error, logged } = await rejectsWith502(() =>
      createCms(wp.url).findTicket("ruta-ana-01")
    );
    assert.equal(error.details, "El CMS respondió con un error (401)");
    assert.match(logged, /HTTP 401 rest_forbidden/);
  });

  await t.step(
    "a 200 that is not JSON, or JSON that is not a post, is 'an invalid response'",
    async () => {
      const answers: [
        string,
        (cms: ReturnType<typeof createCms>) => unknown,
      ][] = [
        ["<html>Mantenimiento</html>", (cms) => cms.findTicket("ruta-1")],
        ['[{"id": 1, "slug": ', (cms) => cms.findTicket("ruta-1")],
        ['{"id": 1, "slug": "ruta-1"}', (cms) => cms.findTicket("ruta-1")],
        ['[{"id": "1", "slug": "ruta-1"}]', (cms) => cms.findTicket("ruta-1")],
        ["", (cms) => cms.createTicket(ticketInput())],
        ['{"slug": "ruta-ana-01"}', (cms) => cms.createTicket(ticketInput())],
        ["null", (cms) => cms.createTicket(ticketInput())],
      ];
      for (const [body, call] of answers) {
        await using wp = startStandIn(() =>
          new Response(body, {
            headers: { "content-type": "application/json" },
          })
        );
        const { error } = await rejectsWith502(async () =>
          await call(createCms(wp.url))
        );
        assert.deepEqual(detailsOf(error), INVALID, body);
      }
    },
  );

  await t.step(
    "a body that breaks off after the headers is 'an invalid response'",
    async () => {
      // 100 bytes announced, 7 sent, then the connection closes.
      await using wp = startRawServer(() =>
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n[{"id":'
      );
      const { error, logged } = await rejectsWith502(() =>
        createCms(wp.url).findTicket("ruta-ana-01")
      );
      assert.deepEqual(detailsOf(error), INVALID);
      assert.equal(wp.connections(), 1);
      assert.match(logged, /WordPress GET turismo-tickets: /);
    },
  );

  await t.step("nothing listening is 'could not connect'", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const { port } = listener.addr;
    listener.close();
    const { error, logged, elapsedMs } = await rejectsWith502(() =>
      createCms(`http://127.0.0.1:${port}`).findTicket("ruta-ana-01")
    );
    assert.deepEqual(detailsOf(error), UNREACHABLE);
    assert.ok(elapsedMs < 2_000, `${elapsedMs} ms: not the 5 s deadline`);
    assert.match(logged, /WordPress GET turismo-tickets: /);
  });

  await t.step(
    "a connection closed before any answer: a read is sent once more, a write never",
    async () => {
      await using dropping = startRawServer((n) =>
        n === 1 ? undefined : rawJson("[]")
      );
      assert.equal(
        await createCms(dropping.url).findTicket("ruta-ana-01"),
        null,
      );
      assert.equal(dropping.connections(), 2, "the GET was sent again");

      await using droppingAll = startRawServer(() => undefined);
      const { error } = await rejectsWith502(() =>
        createCms(droppingAll.url).createTicket(ticketInput())
      );
      assert.deepEqual(detailsOf(error), UNREACHABLE);
      assert.equal(droppingAll.connections(), 1, "the POST was not sent again");
    },
  );
});

Deno.test("createWordPressCms: races with other writers", async (t) => {
  await t.step(
    "a slug another post took first (WordPress answers code-2): the new post is deleted, the first kept",
    async () => {
      await using wp = startStandIn(({ method }) => {
        if (method === "POST") return json(post(8, "ruta-ana-01-2"), 201);
        if (method === "DELETE") return json({ deleted: true });
        return json([post(7, "ruta-ana-01", { turismo_email: "otra@x.mx" })]);
      });
      const ticket = await createCms(wp.url).createTicket(ticketInput());
      assert.equal(ticket.wpId, 7);
      assert.equal(ticket.email, "otra@x.mx", "the first post's fields");
      assert.deepEqual(
        wp.seen.map((r) => `${r.method} ${new URL(r.path, wp.url).pathname}`),
        [
          "POST /wp-json/wp/v2/turismo-tickets",
          "DELETE /wp-json/wp/v2/turismo-tickets/8",
          "GET /wp-json/wp/v2/turismo-tickets",
        ],
      );
      assert.match(wp.seen[1].path, /\?force=true$/, "deleted, not trashed");
    },
  );

  await t.step(
    "the slug was taken but the other post is gone too: an invalid response",
    async () => {
      await using wp = startStandIn(({ method }) =>
        method === "POST" ? json(post(8, "ruta-ana-01-2"), 201) : json([])
      );
      const { error } = await rejectsWith502(() =>
        createCms(wp.url).createTicket(ticketInput())
      );
      assert.deepEqual(detailsOf(error), INVALID);
    },
  );

  await t.step(
    "deleting a post WordPress already removed (404, 410) is done; a 500 is a 502",
    async () => {
      for (const status of [404, 410]) {
        await using wp = startStandIn(({ method }) =>
          method === "GET"
            ? json([post(5, "ruta-ana-01")])
            : json({ code: "rest_post_invalid_id" }, status)
        );
        await createCms(wp.url).deleteTicket("Ruta-Ana-01");
        assert.deepEqual(
          wp.seen.map((r) => `${r.method} ${r.path}`),
          [
            `GET ${wp.seen[0].path}`,
            "DELETE /wp-json/wp/v2/turismo-tickets/5?force=true",
          ],
        );
      }
      await using failing = startStandIn(({ method }) =>
        method === "GET" ? json([post(5, "ruta-ana-01")]) : json({}, 500)
      );
      const { error } = await rejectsWith502(() =>
        createCms(failing.url).deleteTicket("ruta-ana-01")
      );
      assert.equal(error.details, "El CMS respondió con un error (500)");
    },
  );
});

/**
 * A bare TCP server on 127.0.0.1 (Deno.serve always answers whole): for the
 * `n`th connection (from 1) it reads the request, writes `answer(n)` as it
 * is, or nothing when that is `undefined`, and closes the connection.
 */
function startRawServer(
  answer: (n: number) => string | undefined,
): { url: string; connections(): number } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let count = 0;
  const handled: Promise<void>[] = [];
  const accepting = (async () => {
    for await (const conn of listener) {
      const text = answer(++count);
      handled.push((async () => {
        try {
          await conn.read(new Uint8Array(64 * 1024));
          if (text !== undefined) {
            await conn.write(new TextEncoder().encode(text));
          }
        } catch {
          // The client gave up first.
        } finally {
          conn.close();
        }
      })());
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${listener.addr.port}`,
    connections: () => count,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting;
      await Promise.all(handled);
    },
  };
}

/** An HTTP/1.1 200 of JSON `body`, closing the connection. */
function rawJson(body: string): string {
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${
    new TextEncoder().encode(body).length
  }\r\nconnection: close\r\n\r\n${body}`;
}

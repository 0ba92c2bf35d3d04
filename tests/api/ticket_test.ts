import assert from "node:assert/strict";
import { getCmsPost } from "@/lib/db/cms_posts.ts";
import { getShareCodeOfUser, getTicket } from "@/lib/db/tickets.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  randomEmail,
  randomUserId,
  serveApp,
  ticketBody,
} from "../test_utils.ts";

const TICKET = "/api/turismo/ticket";

Deno.test("POST /api/turismo/ticket (embedded KV CMS)", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "creates a ticket and answers its URL, share code and CMS id",
    async () => {
      const body = ticketBody();
      const json = await assertJson(await postJson(ctx, TICKET, body), 200);
      assert.deepEqual(Object.keys(json).sort(), [
        "shareCode",
        "ticketUrl",
        "wpId",
      ]);
      assert.equal(json.ticketUrl, `http://localhost/ruta/${body.shareCode}`);
      assert.equal(json.shareCode, body.shareCode);
      assert.equal(typeof json.wpId, "number");
      const stored = await getTicket(ctx.deps.kv, body.shareCode);
      assert.deepEqual(
        { ...stored, createdAt: undefined, retryKey: undefined },
        {
          shareCode: body.shareCode,
          name: body.name,
          email: body.email,
          phone: body.phone,
          wpId: json.wpId,
          userId: null,
          createdAt: undefined,
          retryKey: undefined,
        },
      );
      // Only a hash of the request's key (here one made up by the service), for a day.
      assert.match(stored!.retryKey!.hash, /^[\w-]{43}$/);
      assert.equal(
        Date.parse(stored!.retryKey!.until) - Date.parse(stored!.createdAt),
        24 * 60 * 60_000,
      );
      assert.equal(
        (await getCmsPost(ctx.deps.kv, body.shareCode))?.wpId,
        json.wpId,
      );
    },
  );

  await t.step(
    "fields are trimmed and an empty phone is no phone",
    async () => {
      const body = ticketBody({
        name: "  Ana  ",
        email: " ana@ejemplo.mx ",
        phone: "",
      });
      const res = await postJson(ctx, TICKET, body);
      assert.equal(res.status, 200);
      const stored = await getTicket(ctx.deps.kv, body.shareCode);
      assert.equal(stored?.name, "Ana");
      assert.equal(stored?.email, "ana@ejemplo.mx");
      assert.equal(stored?.phone, null);
    },
  );

  await t.step(
    "each invalid field is a 400 naming it, and nothing is stored",
    async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ name: undefined }, "name"],
        [{ name: "" }, "name"],
        [{ name: "x".repeat(121) }, "name"],
        [{ name: 42 }, "name"],
        [{ email: "no-es-correo" }, "email"],
        [{ email: `${"a".repeat(250)}@b.mx` }, "email"],
        [{ shareCode: "abc" }, "shareCode"],
        [{ shareCode: "con espacios" }, "shareCode"],
        [{ shareCode: "x".repeat(65) }, "shareCode"],
        [{ shareCode: "../../etc" }, "shareCode"],
        [{ phone: "llámame" }, "phone"],
        [{ phone: "1".repeat(33) }, "phone"],
      ];
      for (const [overrides, field] of cases) {
        const body = ticketBody(overrides);
        const res = await postJson(ctx, TICKET, body);
        assert.equal(res.status, 400, JSON.stringify(overrides));
        const json = await res.json();
        assert.equal(json.error, "Solicitud no válida");
        assert.equal(json.field, field);
        // A Spanish sentence (each one: tests/api/validation_messages_test.ts).
        assert.match(json.details, /^[A-ZÁÉÍÓÚ].*\.$/);
        if (
          typeof body.shareCode === "string" &&
          /^[\w-]{4,64}$/.test(body.shareCode)
        ) {
          assert.equal(await getTicket(ctx.deps.kv, body.shareCode), null);
        }
      }
    },
  );

  await t.step(
    "a retry with the same Idempotency-Key is the same ticket, no second post",
    async () => {
      const body = ticketBody();
      const key = { "idempotency-key": crypto.randomUUID() };
      const first = await (await postJson(ctx, TICKET, body, key)).json();
      const again = await postJson(ctx, TICKET, body, key);
      assert.equal(again.status, 200);
      assert.deepEqual(await again.json(), first);
      const next = await (await postJson(ctx, TICKET, ticketBody())).json();
      assert.equal(
        next.wpId,
        first.wpId + 1,
        "no CMS post was created for the retry",
      );
    },
  );

  await t.step("a share code taken by another email is a 409", async () => {
    const body = ticketBody();
    await postJson(ctx, TICKET, body);
    const res = await postJson(ctx, TICKET, { ...body, email: randomEmail() });
    assert.equal(res.status, 409);
    const json = await res.json();
    assert.equal(json.error, "Conflicto");
    assert.equal(
      (await getTicket(ctx.deps.kv, body.shareCode))?.email,
      body.email,
    );
  });

  await t.step(
    "CMS ids increase and never repeat under concurrent requests",
    async () => {
      const bodies = Array.from({ length: 20 }, () => ticketBody());
      const responses = await Promise.all(
        bodies.map((body) => postJson(ctx, TICKET, body)),
      );
      const ids = await Promise.all(responses.map(async (res) => {
        assert.equal(res.status, 200);
        return (await res.json()).wpId as number;
      }));
      assert.equal(new Set(ids).size, 20);
      const sorted = [...ids].sort((a, b) => a - b);
      assert.equal(sorted[19] - sorted[0], 19, "ids are consecutive");
    },
  );

  await t.step(
    "the same new request sent ten times at once (one key) makes one ticket",
    async () => {
      const body = ticketBody();
      const key = { "idempotency-key": crypto.randomUUID() };
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => postJson(ctx, TICKET, body, key)),
      );
      const answers = await Promise.all(responses.map((res) => res.json()));
      assert.deepEqual(responses.map((r) => r.status), Array(10).fill(200));
      assert.equal(new Set(answers.map((a) => a.wpId)).size, 1);
      const next = await (await postJson(ctx, TICKET, ticketBody())).json();
      assert.equal(
        next.wpId,
        answers[0].wpId + 1,
        "exactly one CMS post was created",
      );
    },
  );

  await t.step(
    "a valid bearer token links the ticket to that user",
    async () => {
      const userId = randomUserId();
      const body = ticketBody();
      const res = await postJson(ctx, TICKET, body, {
        authorization: `Bearer ${await ctx.tokenFor(userId)}`,
      });
      assert.equal(res.status, 200);
      assert.equal(
        (await getTicket(ctx.deps.kv, body.shareCode))?.userId,
        userId,
      );
      assert.equal(
        await getShareCodeOfUser(ctx.deps.kv, userId),
        body.shareCode,
      );
    },
  );

  await t.step("an invalid bearer token is a 401, not ignored", async () => {
    const body = ticketBody();
    const res = await postJson(ctx, TICKET, body, {
      authorization: "Bearer not.a.token",
    });
    assert.equal(res.status, 401);
    assert.match(res.headers.get("www-authenticate")!, /^Bearer/);
    assert.equal(await getTicket(ctx.deps.kv, body.shareCode), null);
  });
});

Deno.test("POST /api/turismo/ticket: BASE_URL sets the ticket URL", async () => {
  await using ctx = await createTestContext({
    env: { BASE_URL: "https://turismo.example/" },
  });
  const body = ticketBody();
  const json = await (await postJson(ctx, TICKET, body)).json();
  assert.equal(
    json.ticketUrl,
    `https://turismo.example/ruta/${body.shareCode}`,
  );
});

Deno.test("POST /api/turismo/ticket: 20 new tickets an hour per address", async (t) => {
  await using ctx = await createTestContext({ env: { TRUST_PROXY: "1" } });
  const fromAddress = (ip: string, body: unknown) =>
    postJson(ctx, TICKET, body, { "x-forwarded-for": ip });
  const ip = "203.0.113.80";
  const first = ticketBody();

  await t.step(
    "20 tickets from one address are created, the 21st is a 429",
    async () => {
      await assertJson(await fromAddress(ip, first), 200);
      for (let i = 1; i < 20; i++) {
        await assertJson(await fromAddress(ip, ticketBody()), 200);
      }
      const refused = ticketBody();
      const res = await fromAddress(ip, refused);
      const body = await assertJson(res, 429);
      assert.match(body.details, /demasiados boletos/);
      const retryAfter = Number(res.headers.get("retry-after"));
      assert.ok(retryAfter >= 1 && retryAfter <= 3600, `${retryAfter}`);
      assert.equal(await getTicket(ctx.deps.kv, refused.shareCode), null);
      assert.equal(await getCmsPost(ctx.deps.kv, refused.shareCode), null);
    },
  );

  await t.step(
    "a retry of a ticket already made counts too: 429",
    async () => {
      await assertJson(await fromAddress(ip, first), 429);
    },
  );

  await t.step("another address has its own 20", async () => {
    await assertJson(await fromAddress("198.51.100.80", ticketBody()), 200);
  });

  await t.step(
    "an hour later the address may create tickets again",
    async () => {
      ctx.clock.advance(60 * 60_000);
      await assertJson(await fromAddress(ip, ticketBody()), 200);
    },
  );
});

Deno.test("a request body that does not arrive in time is a 408", async (t) => {
  await using ctx = await createTestContext({
    env: { REQUEST_BODY_TIMEOUT_MS: "300" },
  });
  await using server = serveApp(ctx.app.fetch);
  const { port } = new URL(server.origin);

  for (const framing of ["content-length", "chunked"] as const) {
    await t.step(
      `a body trickling in (${framing}) is answered 408 in time`,
      async () => {
        using conn = await Deno.connect({ hostname: "127.0.0.1", port: +port });
        const head = framing === "content-length"
          ? "Content-Length: 200\r\n"
          : "Transfer-Encoding: chunked\r\n";
        await conn.write(new TextEncoder().encode(
          `POST ${TICKET} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${head}\r\n` +
            (framing === "chunked" ? '5\r\n{"nam\r\n' : '{"nam'),
        ));
        const started = performance.now();
        // The rest of the body never comes: read what the server says, bounded.
        let text = "";
        const buffer = new Uint8Array(4096);
        while (!/\r\n\r\n[\s\S]*\}$/.test(text)) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const n = await Promise.race([
            conn.read(buffer),
            new Promise<null>((resolve) => {
              timer = setTimeout(() => resolve(null), 5_000);
            }),
          ]).finally(() => clearTimeout(timer));
          if (n === null) break;
          text += new TextDecoder().decode(buffer.subarray(0, n));
        }
        assert.match(text, /^HTTP\/1\.1 408 /);
        assert.match(text, /\r\nconnection: close\r\n/i);
        assert.match(text, /"error":"Tiempo de espera agotado"/);
        // The 300 ms setting, not the 10 s default: a bound halfway to the
        // default, which no busy machine stretches 300 ms to.
        assert.ok(performance.now() - started < 5_000);
      },
    );
  }
});

Deno.test("POST /api/turismo/ticket: names and share codes follow one rule", async (t) => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;

  await t.step(
    "control, bidi and zero-width characters are removed from the name on input",
    async () => {
      const body = ticketBody({
        name: "Ana\u0000 \u202Egnip\u202C Ló\u200Bpez",
      });
      await assertJson(await postJson(ctx, TICKET, body), 200);
      const stored = await getTicket(kv, body.shareCode);
      assert.equal(stored?.name, "Ana gnip López");
      const page = await ctx.app.request(`/ruta/${body.shareCode}`);
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.match(html, /Ana gnip López/);
      // deno-lint-ignore no-control-regex -- NUL is one of the characters cleaned away
      assert.doesNotMatch(html, /[\u0000\u202A-\u202E\u200B\u2066-\u2069]/);
    },
  );

  await t.step(
    "a name of nothing visible is a 400 naming the field",
    async () => {
      const res = await postJson(
        ctx,
        TICKET,
        ticketBody({ name: "\u200B\u202E\u0007" }),
      );
      const body = await assertJson(res, 400);
      assert.equal(body.field, "name");
      assert.equal(body.details, "El nombre no tiene ningún carácter visible.");
    },
  );

  await t.step(
    "share codes are case-insensitive: one code, one ticket, one CMS post",
    async () => {
      const email = randomEmail();
      const key = { "idempotency-key": crypto.randomUUID() };
      const code = `CaseX-${crypto.randomUUID().slice(0, 6)}`;
      const upper = await assertJson(
        await postJson(
          ctx,
          TICKET,
          ticketBody({ shareCode: code, email }),
          key,
        ),
        200,
      );
      const lower = await assertJson(
        await postJson(
          ctx,
          TICKET,
          ticketBody({ shareCode: code.toLowerCase(), email }),
          key,
        ),
        200,
      );
      assert.equal(lower.wpId, upper.wpId, "the same ticket again");
      assert.equal(upper.shareCode, code, "answered as sent");
      assert.equal(lower.shareCode, code.toLowerCase());
      assert.equal((await getCmsPost(kv, code))?.wpId, upper.wpId);
      const other = await postJson(
        ctx,
        TICKET,
        ticketBody({ shareCode: code.toUpperCase() }),
      );
      await assertJson(other, 409);
      for (const variant of [code, code.toLowerCase(), code.toUpperCase()]) {
        const page = await ctx.app.request(`/ruta/${variant}`);
        await page.body?.cancel();
        assert.equal(page.status, 200, variant);
        const card = await ctx.app.request(`/api/turismo/og/${variant}`);
        await card.body?.cancel();
        assert.equal(card.status, 200, variant);
      }
    },
  );

  await t.step(
    "a ticket an earlier version stored under a mixed-case code is still found",
    async () => {
      const code = `Viejo-${crypto.randomUUID().slice(0, 6)}`;
      await kv.set(["tickets", code], {
        shareCode: code,
        name: "Ana",
        email: randomEmail(),
        phone: null,
        wpId: 99,
        userId: null,
        createdAt: new Date().toISOString(),
      });
      assert.equal((await getTicket(kv, code))?.wpId, 99);
      const page = await ctx.app.request(`/ruta/${code}`);
      await page.body?.cancel();
      assert.equal(page.status, 200);
    },
  );
});

/**
 * The ticket endpoint asked as an attacker would: a known share code with
 * guessed e-mails, an erased code, floods of retries. A taken code answers
 * one 409 to everyone who is not retrying their own request (its
 * `Idempotency-Key`), an erased one exactly the same, and every request
 * counts against the address's budget.
 */
import assert from "node:assert/strict";
import { getCmsPost } from "@/lib/db/cms_posts.ts";
import { getTicket } from "@/lib/db/tickets.ts";
import { BadGatewayError } from "@/lib/errors/mod.ts";
import { CLAIM_TTL_MS } from "@/lib/tickets/create_ticket.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  postJson,
  randomEmail,
  randomUserId,
  type TestContext,
  ticketBody,
} from "../test_utils.ts";

const TICKET = "/api/turismo/ticket";

function randomKey(): string {
  return crypto.randomUUID();
}

/** Everything a client can see of an answer: status, headers, body. */
async function seen(res: Response) {
  const headers = [...res.headers].filter(([name]) => name !== "date");
  return { status: res.status, headers, body: await res.text() };
}

function postTicket(
  ctx: TestContext,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return postJson(ctx, TICKET, body, headers);
}

Deno.test("POST /api/turismo/ticket: a taken share code tells nothing", async (t) => {
  await using ctx = await createTestContext();
  const owner = ticketBody();
  const key = randomKey();
  const made = await assertJson(
    await postTicket(ctx, owner, { "idempotency-key": key }),
    200,
  );

  await t.step(
    "the owner's e-mail, a guessed e-mail and a wrong key all get the same 409",
    async () => {
      const answers = [
        await seen(await postTicket(ctx, owner)),
        await seen(await postTicket(ctx, { ...owner, email: randomEmail() })),
        await seen(
          await postTicket(ctx, owner, { "idempotency-key": randomKey() }),
        ),
        await seen(
          await postTicket(ctx, { ...owner, email: randomEmail() }, {
            "idempotency-key": randomKey(),
          }),
        ),
      ];
      assert.equal(answers[0].status, 409);
      for (const answer of answers) assert.deepEqual(answer, answers[0]);
      assert.equal(
        (await getTicket(ctx.deps.kv, owner.shareCode))?.email,
        owner.email,
      );
    },
  );

  await t.step(
    "the request's own retry (same key, any case of the code) gets the same ticket",
    async () => {
      const again = await postTicket(
        ctx,
        { ...owner, shareCode: owner.shareCode.toUpperCase() },
        { "idempotency-key": key },
      );
      const body = await assertJson(again, 200);
      assert.equal(body.wpId, made.wpId);
    },
  );

  await t.step("the key no longer works after 24 hours", async () => {
    ctx.clock.advance(CLAIM_TTL_MS + 1);
    const late = await postTicket(ctx, owner, { "idempotency-key": key });
    await assertJson(late, 409);
  });

  await t.step(
    "a malformed Idempotency-Key is a 400 and stores nothing",
    async () => {
      for (
        const bad of ["corta", "x".repeat(129), "con espacios y más cosas"]
      ) {
        const body = ticketBody();
        const res = await postTicket(ctx, body, { "idempotency-key": bad });
        const json = await assertJson(res, 400);
        assert.match(json.details, /Idempotency-Key/);
        assert.equal(await getTicket(ctx.deps.kv, body.shareCode), null);
      }
    },
  );
});

Deno.test("POST /api/turismo/ticket: an erased code answers as any taken code", async () => {
  await using ctx = await createTestContext();
  const userId = randomUserId();
  const erased = ticketBody();
  await assertJson(await postAsUser(ctx, TICKET, userId, erased), 200);
  const res = await postAsUser(
    ctx,
    `/api/turismo/users/${userId}/erase`,
    userId,
    {},
  );
  assert.equal(res.status, 202, await res.text());
  const taken = ticketBody();
  await assertJson(await postTicket(ctx, taken), 200);

  for (const email of [erased.email, randomEmail()]) {
    const asErased = await seen(
      await postTicket(ctx, { ...erased, email }, {
        "idempotency-key": randomKey(),
      }),
    );
    const asTaken = await seen(
      await postTicket(ctx, { ...taken, email }, {
        "idempotency-key": randomKey(),
      }),
    );
    assert.equal(asErased.status, 409);
    assert.deepEqual(asErased, asTaken);
  }
});

Deno.test("POST /api/turismo/ticket: every request counts against the budget", async (t) => {
  await using ctx = await createTestContext({ env: { TRUST_PROXY: "1" } });
  const from = (ip: string, body: unknown, headers = {}) =>
    postTicket(ctx, body, { "x-forwarded-for": ip, ...headers });

  await t.step(
    "guessing e-mails for a known code: 20 answers, then 429",
    async () => {
      const known = ticketBody();
      await assertJson(await from("198.51.100.7", known), 200);
      const ip = "203.0.113.7";
      for (let i = 0; i < 20; i++) {
        await assertJson(
          await from(ip, { ...known, email: randomEmail() }),
          409,
        );
      }
      const res = await from(ip, { ...known, email: known.email });
      await assertJson(res, 429);
      assert.ok(Number(res.headers.get("retry-after")) >= 1);
    },
  );

  await t.step("retries of one's own ticket count too", async () => {
    const ip = "203.0.113.8";
    const body = ticketBody();
    const key = { "idempotency-key": randomKey() };
    for (let i = 0; i < 20; i++) {
      await assertJson(await from(ip, body, key), 200);
    }
    await assertJson(await from(ip, body, key), 429);
  });
});

Deno.test("POST /api/turismo/ticket: retries and races", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "ten copies of one request at once (one key) make one ticket, all 200",
    async () => {
      const body = ticketBody();
      const headers = { "idempotency-key": randomKey() };
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => postTicket(ctx, body, headers)),
      );
      const answers = await Promise.all(responses.map((res) => res.json()));
      assert.deepEqual(responses.map((r) => r.status), Array(10).fill(200));
      assert.equal(new Set(answers.map((a) => a.wpId)).size, 1);
    },
  );

  await t.step(
    "ten different requests for one code at once: one ticket, nine equal 409s",
    async () => {
      const code = ticketBody().shareCode;
      const responses = await Promise.all(
        Array.from(
          { length: 10 },
          () =>
            postTicket(ctx, ticketBody({ shareCode: code }), {
              "idempotency-key": randomKey(),
            }),
        ),
      );
      const answers = await Promise.all(responses.map(seen));
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status !== 200);
      assert.equal(won.length, 1);
      assert.equal(lost.length, 9);
      for (const answer of lost) assert.deepEqual(answer, lost[0]);
      assert.equal(lost[0].status, 409);
    },
  );

  await t.step(
    "the CMS made the post but its answer was lost: only the key's retry finishes it",
    async () => {
      const body = ticketBody();
      const key = { "idempotency-key": randomKey() };
      const create = ctx.deps.cms.createTicket;
      ctx.deps.cms.createTicket = async (input) => {
        await create(input);
        throw new BadGatewayError("El CMS no respondió a tiempo");
      };
      const lost = await postTicket(ctx, body, key);
      ctx.deps.cms.createTicket = create;
      await assertJson(lost, 502);
      const post = await getCmsPost(ctx.deps.kv, body.shareCode);
      assert.ok(post, "the post exists in the CMS");

      await assertJson(await postTicket(ctx, body), 409);
      await assertJson(
        await postTicket(ctx, body, { "idempotency-key": randomKey() }),
        409,
      );
      const retried = await assertJson(await postTicket(ctx, body, key), 200);
      assert.equal(retried.wpId, post.wpId, "the lost post, not a second one");
      assert.equal(
        (await getTicket(ctx.deps.kv, body.shareCode))?.wpId,
        post.wpId,
      );
    },
  );

  await t.step(
    "a CMS failure without a key leaves the code free for the same request",
    async () => {
      const body = ticketBody();
      const create = ctx.deps.cms.createTicket;
      ctx.deps.cms.createTicket = () => {
        throw new BadGatewayError("No se pudo conectar con el CMS");
      };
      const failed = await postTicket(ctx, body);
      ctx.deps.cms.createTicket = create;
      await assertJson(failed, 502);
      await assertJson(await postTicket(ctx, body), 200);
    },
  );
});

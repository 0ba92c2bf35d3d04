import assert from "node:assert/strict";
import { createKvCms } from "@/lib/cms/kv.ts";
import type { DataChange } from "@/lib/db/changes.ts";
import { keys } from "@/lib/db/keys.ts";
import { getErasedShareCodeKey, getTicket } from "@/lib/db/tickets.ts";
import {
  BadGatewayError,
  BadRequestError,
  ConflictError,
  TooManyRequestsError,
} from "@/lib/errors/mod.ts";
import type { CmsTicket, TicketCms, TicketInput } from "@/lib/types/cms.ts";
import {
  CLAIM_TTL_MS,
  createTicket,
  parseIdempotencyKey,
  TICKETS_PER_ADDRESS,
} from "./create_ticket.ts";

const CODE_IN_USE = "Ese código para compartir ya está en uso; genera otro";

/**
 * `createTicket` over a real KV and the embedded CMS, with a clock and the
 * changes it reports; `cms.onCreate` stands between it and the CMS post.
 */
async function setup() {
  const kv = await Deno.openKv(":memory:");
  const inner = createKvCms(kv);
  const created: TicketInput[] = [];
  let onCreate:
    | ((input: TicketInput, create: () => Promise<CmsTicket>) => Promise<
      CmsTicket
    >)
    | undefined;
  const cms: TicketCms = {
    ...inner,
    createTicket: (input) => {
      created.push(input);
      const create = () => inner.createTicket(input);
      return onCreate ? onCreate(input, create) : create();
    },
  };
  let nowMs = Date.parse("2026-11-22T15:00:00Z");
  const changes: DataChange[] = [];
  return {
    kv,
    inner,
    /** Every input sent to the CMS's createTicket. */
    created,
    setOnCreate(hook: typeof onCreate) {
      onCreate = hook;
    },
    changes,
    advance(ms: number) {
      nowMs += ms;
    },
    create(
      input: Partial<TicketInput> = {},
      options: Parameters<typeof createTicket>[2] = {},
    ) {
      return createTicket(
        {
          kv,
          cms,
          now: () => new Date(nowMs),
          onChange: (change) => changes.push(change),
        },
        ticketInput(input),
        options,
      );
    },
    nowIso: () => new Date(nowMs).toISOString(),
    [Symbol.dispose]() {
      kv.close();
    },
  };
}

function ticketInput(overrides: Partial<TicketInput> = {}): TicketInput {
  const id = crypto.randomUUID().slice(0, 8);
  return {
    shareCode: `ruta-${id}`,
    name: "María José Ñúñez",
    email: `viajero-${id}@ejemplo.mx`,
    ...overrides,
  };
}

function randomKey(): string {
  return crypto.randomUUID();
}

/** A promise and the function that settles it. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => open = resolve);
  return { opened, open };
}

async function rejectsWithConflict(
  promise: Promise<unknown>,
  details = CODE_IN_USE,
): Promise<ConflictError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ConflictError, String(error));
    assert.equal(error.status, 409);
    assert.equal(error.details, details);
    return error;
  }
  assert.fail("expected a 409");
}

Deno.test("createTicket: a new ticket", async (t) => {
  using ctx = await setup();

  await t.step(
    "is stored under the lower-case code with the CMS post's id, and said once",
    async () => {
      const userId = crypto.randomUUID();
      const ticket = await ctx.create({
        shareCode: "Ruta-MAYUS-01",
        phone: "+52 33 1234 5678",
        userId,
      });
      const post = await ctx.inner.findTicket("ruta-mayus-01");
      assert.ok(post, "the CMS post is under the lower-case code");
      assert.deepEqual(ctx.created.map((input) => input.shareCode), [
        "ruta-mayus-01",
      ]);
      assert.equal(ticket.shareCode, "ruta-mayus-01");
      assert.equal(ticket.wpId, post.wpId);
      assert.equal(ticket.phone, "+52 33 1234 5678");
      assert.equal(ticket.userId, userId);
      assert.equal(ticket.createdAt, ctx.nowIso());
      assert.equal("lang" in ticket, false, "the default language is not kept");
      assert.deepEqual(await getTicket(ctx.kv, "ruta-mayus-01"), ticket);
      assert.deepEqual(ctx.changes, [
        { kind: "ticket", shareCode: "ruta-mayus-01", userId },
      ]);
      assert.equal(
        (await ctx.kv.get(keys.ticketClaim("ruta-mayus-01"))).value,
        null,
        "the claim is gone once the ticket is stored",
      );
    },
  );

  await t.step(
    "without a phone or a user it stores null for both",
    async () => {
      const ticket = await ctx.create();
      assert.equal(ticket.phone, null);
      assert.equal(ticket.userId, null);
    },
  );

  await t.step(
    "keeps a language other than the default; a retry keeps the first one's",
    async () => {
      const key = randomKey();
      const input = ticketInput();
      const ticket = await ctx.create(input, {
        lang: "en",
        idempotencyKey: key,
      });
      assert.equal(ticket.lang, "en");
      const retry = await ctx.create(input, {
        lang: "fr",
        idempotencyKey: key,
      });
      assert.deepEqual(retry, ticket);
    },
  );
});

Deno.test("createTicket: one ticket per share code", async (t) => {
  using ctx = await setup();

  await t.step(
    "the request's own retry (same key, any case) gets the same ticket and makes no post",
    async () => {
      const key = randomKey();
      const input = ticketInput({ shareCode: "Ruta-Reintento" });
      const first = await ctx.create(input, { idempotencyKey: key });
      const retry = await ctx.create(
        { ...input, shareCode: "RUTA-REINTENTO" },
        { idempotencyKey: key },
      );
      assert.deepEqual(retry, first);
      assert.equal(ctx.created.length, 1);
    },
  );

  await t.step(
    "a retry after the key's lifetime is over is a 409",
    async () => {
      const key = randomKey();
      const input = ticketInput();
      await ctx.create(input, { idempotencyKey: key });
      ctx.advance(CLAIM_TTL_MS - 1);
      await ctx.create(input, { idempotencyKey: key });
      ctx.advance(2);
      await rejectsWithConflict(ctx.create(input, { idempotencyKey: key }));
    },
  );

  await t.step(
    "any other request for a taken code is the same 409, and nothing changes",
    async () => {
      const input = ticketInput();
      const first = await ctx.create(input, { idempotencyKey: randomKey() });
      const changes = ctx.changes.length;
      for (
        const other of [
          { ...input },
          { ...input, email: "otra@ejemplo.mx", name: "Otra" },
        ]
      ) {
        await rejectsWithConflict(ctx.create(other));
        await rejectsWithConflict(
          ctx.create(other, { idempotencyKey: randomKey() }),
        );
      }
      assert.deepEqual(await getTicket(ctx.kv, input.shareCode), first);
      assert.equal(ctx.changes.length, changes, "no change reported");
    },
  );

  await t.step(
    "while one request waits for the CMS, another for its code is a 409 at once",
    async () => {
      const input = ticketInput();
      const cmsCalled = gate();
      const release = gate();
      ctx.setOnCreate(async (_, create) => {
        cmsCalled.open();
        await release.opened;
        return await create();
      });
      try {
        const first = ctx.create(input, { idempotencyKey: randomKey() });
        await cmsCalled.opened;
        ctx.setOnCreate(undefined);
        await rejectsWithConflict(
          ctx.create(input, { idempotencyKey: randomKey() }),
        );
        release.open();
        assert.equal((await first).shareCode, input.shareCode);
        assert.equal(
          ctx.created.filter((c) => c.shareCode === input.shareCode).length,
          1,
          "one CMS post",
        );
      } finally {
        ctx.setOnCreate(undefined);
        release.open();
      }
    },
  );

  await t.step(
    "a copy of the same request meanwhile waits for the first and gets its ticket",
    async () => {
      const input = ticketInput();
      const key = randomKey();
      const cmsCalled = gate();
      const release = gate();
      ctx.setOnCreate(async (_, create) => {
        cmsCalled.open();
        await release.opened;
        return await create();
      });
      try {
        const first = ctx.create(input, { idempotencyKey: key });
        await cmsCalled.opened;
        let copyDone = false;
        const copy = ctx.create(input, { idempotencyKey: key }).finally(() =>
          copyDone = true
        );
        await new Promise((resolve) => setTimeout(resolve, 250));
        assert.equal(copyDone, false, "the copy waits");
        release.open();
        const [a, b] = await Promise.all([first, copy]);
        assert.deepEqual(a, b);
        assert.equal(
          ctx.created.filter((c) => c.shareCode === input.shareCode).length,
          1,
          "one CMS post",
        );
      } finally {
        ctx.setOnCreate(undefined);
        release.open();
      }
    },
  );
});

Deno.test("createTicket: when the CMS fails", async (t) => {
  using ctx = await setup();
  const failing = new BadGatewayError("El CMS no respondió a tiempo");

  await t.step(
    "a post made but its answer lost: only the key's retry finishes it, with that post",
    async () => {
      const input = ticketInput();
      const key = randomKey();
      ctx.setOnCreate(async (_, create) => {
        await create();
        throw failing;
      });
      await assert.rejects(
        ctx.create(input, { idempotencyKey: key }),
        (error) => error === failing,
      );
      ctx.setOnCreate(undefined);
      assert.equal(await getTicket(ctx.kv, input.shareCode), null);
      const post = await ctx.inner.findTicket(input.shareCode);
      assert.ok(post);
      // Anyone else, the same e-mail included, is told it is taken.
      await rejectsWithConflict(ctx.create(input));
      await rejectsWithConflict(
        ctx.create(input, { idempotencyKey: randomKey() }),
      );
      const retry = await ctx.create(input, { idempotencyKey: key });
      assert.equal(retry.wpId, post.wpId, "the post the first request made");
      assert.equal(
        ctx.created.filter((c) => c.shareCode === input.shareCode)
          .length,
        1,
        "no second post",
      );
    },
  );

  await t.step(
    "a failure without a key leaves the code free, with no claim kept",
    async () => {
      const input = ticketInput();
      ctx.setOnCreate(() => Promise.reject(failing));
      await assert.rejects(ctx.create(input), (error) => error === failing);
      ctx.setOnCreate(undefined);
      assert.equal(
        (await ctx.kv.get(keys.ticketClaim(input.shareCode))).value,
        null,
      );
      const ticket = await ctx.create(input);
      assert.equal(ticket.shareCode, input.shareCode);
    },
  );

  await t.step(
    "a code erased while the CMS answered is the same 409, and no ticket is stored",
    async () => {
      const input = ticketInput();
      ctx.setOnCreate(async (_, create) => {
        const post = await create();
        await ctx.kv.set(await getErasedShareCodeKey(input.shareCode), {
          erasedAt: ctx.nowIso(),
        });
        return post;
      });
      await rejectsWithConflict(
        ctx.create(input, { idempotencyKey: randomKey() }),
      );
      ctx.setOnCreate(undefined);
      assert.equal(await getTicket(ctx.kv, input.shareCode), null);
      assert.equal(
        (await ctx.kv.get(keys.ticket(input.shareCode))).value,
        null,
      );
    },
  );

  await t.step(
    "an erased code is never claimed again, and asks the CMS nothing",
    async () => {
      const input = ticketInput();
      await ctx.kv.set(await getErasedShareCodeKey(input.shareCode), {
        erasedAt: ctx.nowIso(),
      });
      const before = ctx.created.length;
      await rejectsWithConflict(
        ctx.create({ ...input, shareCode: input.shareCode.toUpperCase() }, {
          idempotencyKey: randomKey(),
        }),
      );
      assert.equal(ctx.created.length, before);
      assert.equal(
        (await ctx.kv.get(keys.ticketClaim(input.shareCode))).value,
        null,
      );
    },
  );
});

Deno.test("createTicket: a passport holds one ticket", async (t) => {
  using ctx = await setup();
  const userId = crypto.randomUUID();
  const first = await ctx.create({ shareCode: "Ruta-Pasaporte", userId });

  await t.step("another code is a 409 naming the first", async () => {
    const error = await rejectsWithConflict(
      ctx.create({ userId }),
      "Tu pasaporte ya tiene un boleto para compartir",
    );
    assert.deepEqual(error.options.body, { shareCode: "ruta-pasaporte" });
    assert.equal(
      error.describe("en").details,
      "Your passport already has a ticket to share",
    );
    assert.equal(ctx.created.length, 1, "no second post");
  });

  await t.step(
    "its own code again (any case, no key) is its ticket",
    async () => {
      const again = await ctx.create({
        shareCode: "RUTA-PASAPORTE",
        userId,
        email: "otra@ejemplo.mx",
      });
      assert.deepEqual(again, first);
    },
  );

  await t.step("another passport asking for that code is a 409", async () => {
    await rejectsWithConflict(
      ctx.create({ shareCode: "ruta-pasaporte", userId: crypto.randomUUID() }),
    );
  });
});

Deno.test("createTicket: tickets from one address", async (t) => {
  using ctx = await setup();
  const { limit, windowMs } = TICKETS_PER_ADDRESS;

  await t.step(
    `every request from a known address counts: ${limit} answers, then a 429 that makes no post, until the window passes`,
    async () => {
      const clientIp = "203.0.113.7";
      const taken = await ctx.create({}, { clientIp });
      for (let i = 1; i < limit; i++) {
        // Half of them for the taken code: a 409 counts too.
        if (i % 2) {
          await rejectsWithConflict(
            ctx.create({ shareCode: taken.shareCode }, { clientIp }),
          );
        } else await ctx.create({}, { clientIp });
      }
      const posts = ctx.created.length;
      const input = ticketInput();
      try {
        await ctx.create(input, { clientIp });
        assert.fail("expected a 429");
      } catch (error) {
        assert.ok(error instanceof TooManyRequestsError, String(error));
        assert.equal(error.status, 429);
        const retryAfter = error.options.retryAfterSeconds!;
        assert.ok(retryAfter > 0 && retryAfter <= windowMs / 1000);
        assert.match(error.details, /^Se crearon demasiados boletos/);
        assert.match(error.details, /Espera 60 minutos/);
      }
      assert.equal(ctx.created.length, posts);
      assert.equal(await getTicket(ctx.kv, input.shareCode), null);
      // Another address has its own budget.
      await ctx.create({}, { clientIp: "203.0.113.8" });
      // After the window the address may again.
      ctx.advance(windowMs);
      await ctx.create({}, { clientIp });
    },
  );

  await t.step(
    "no address, or an unknown one, is not counted",
    async () => {
      for (let i = 0; i <= limit; i++) {
        await ctx.create({}, { clientIp: i % 2 ? "unknown" : undefined });
      }
    },
  );
});

Deno.test("parseIdempotencyKey: 16 to 128 of A-Z a-z 0-9 _ -", async (t) => {
  await t.step("absent is undefined; a UUID is taken, trimmed", () => {
    assert.equal(parseIdempotencyKey(undefined), undefined);
    const uuid = crypto.randomUUID();
    assert.equal(parseIdempotencyKey(`  ${uuid}\t`), uuid);
    for (const key of ["a".repeat(16), "Z_-9".repeat(32)]) {
      assert.equal(parseIdempotencyKey(key), key);
    }
  });

  await t.step("anything else is a 400 that says the rule", () => {
    for (
      const key of [
        "",
        "   ",
        "a".repeat(15),
        "a".repeat(129),
        `${"a".repeat(16)}.`,
        "clave-con-acentó-1234",
        "a b c d e f g h i j",
      ]
    ) {
      assert.throws(
        () => parseIdempotencyKey(key),
        (error) =>
          error instanceof BadRequestError && error.status === 400 &&
          /de 16 a 128 caracteres/.test(error.details),
        JSON.stringify(key),
      );
    }
  });
});

/**
 * Questions the chat could not answer: the loopback model (the real
 * `openai` SDK against tests/fake_openai.ts) starts its reply with the
 * marker; the visitor never sees it, streamed or not, and the question is
 * recorded masked, grouped, for `/panel/preguntas`.
 */
import assert from "node:assert/strict";
import { NO_DATA_MARKER } from "@/lib/chat/unanswered.ts";
import { listStaffActions } from "@/lib/db/audit.ts";
import { keys } from "@/lib/db/keys.ts";
import {
  listQuestionGroups,
  MAX_NEW_GROUPS_PER_DAY,
  QUESTION_PAGE_SIZE,
  type QuestionGroup,
  type QuestionStatus,
} from "@/lib/db/unanswered_questions.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const ANSWER = "No tengo ese dato; confírmalo en el módulo de turismo.";
const DAY_MS = 24 * 60 * 60 * 1000;

/** Every kept group of a list, all pages. */
async function listGroups(ctx: TestContext, status: QuestionStatus) {
  const groups: QuestionGroup[] = [];
  let cursor = "";
  do {
    const page = await listQuestionGroups(ctx.deps.kv, {
      status,
      now: ctx.clock.now(),
      cursor,
    });
    groups.push(...page.values);
    cursor = page.cursor;
  } while (cursor);
  return groups;
}

Deno.test("POST /api/chat: unanswered questions", async (t) => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    openai: fake.client({ timeout: 10_000, maxRetries: 0 }),
  });

  await t.step(
    "a marked reply reaches the visitor without the marker, and its question is kept masked",
    async () => {
      fake.respondWith({
        type: "reply",
        content: `${NO_DATA_MARKER} ${ANSWER}`,
      });
      const res = await postJson(ctx, "/api/chat", {
        message:
          "¿Hay clases de cata de tequila? Escríbanme a ana.perez@correo.mx o al +52 (33) 1234-5678",
      });
      assert.deepEqual(await assertJson(res, 200), { reply: ANSWER });
      assert.match(
        fake.lastRequest().body.messages[0].content,
        /empieza tu respuesta exactamente con \[SIN_DATOS\]/,
      );
      const open = await listGroups(ctx, "open");
      assert.equal(open.length, 1);
      assert.equal(
        open[0].text,
        "¿Hay clases de cata de tequila? Escríbanme a [correo] o al [teléfono]",
      );
      assert.equal(open[0].count, 1);
      const stored = JSON.stringify(
        await Array.fromAsync(ctx.deps.kv.list({ prefix: [] })),
        (_, value) => typeof value === "bigint" ? String(value) : value,
      );
      assert.ok(!stored.includes("ana.perez"));
      assert.ok(!stored.includes("1234-5678"));
      assert.ok(!stored.includes("127.0.0.1"));
    },
  );

  await t.step(
    "streamed, the marker split across chunks never reaches the visitor; a similar question joins the group",
    async () => {
      // The fake streams 7 characters a chunk: the marker (11) is split.
      fake.respondWith({
        type: "reply",
        content: `${NO_DATA_MARKER}${ANSWER}`,
      });
      const res = await ctx.app.request("/api/chat", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream",
        },
        body: JSON.stringify({
          message: "hay clases de cata de Tequila!!",
        }),
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.ok(!text.includes("SIN_DATOS"));
      assert.ok(!text.includes("[SIN"));
      const deltas = text.split("\n\n").filter((b) => b.startsWith("data: "))
        .map((b) => JSON.parse(b.slice(6)).delta).join("");
      assert.equal(deltas, ANSWER);
      assert.match(text, /event: done/);
      ctx.clock.advance(60_000);
      fake.respondWith({
        type: "reply",
        content: `${NO_DATA_MARKER}${ANSWER}`,
      });
      await assertJson(
        await postJson(ctx, "/api/chat", {
          message: "¿Hay CLASES de cata de tequila?",
        }),
        200,
      );
      const open = await listGroups(ctx, "open");
      assert.equal(open.length, 2);
      assert.equal(open[0].key, "clases cata tequila");
      assert.equal(open[0].count, 2);
      assert.equal(open[0].text, "¿Hay CLASES de cata de tequila?");
    },
  );

  await t.step("a reply without the marker records nothing", async () => {
    fake.respondWith({ type: "reply", content: "La Plaza abre todo el día." });
    const res = await postJson(ctx, "/api/chat", {
      message: "¿Abre la plaza?",
    });
    assert.deepEqual(await assertJson(res, 200), {
      reply: "La Plaza abre todo el día.",
    });
    const open = await listGroups(ctx, "open");
    assert.equal(open.length, 2);
  });

  await t.step(
    "/panel/preguntas lists the group; resolving it moves it to Resueltas and is audited",
    async () => {
      const admin = await signInStaff(ctx);
      const page = await ctx.app.request("/panel/preguntas", {
        headers: { cookie: admin },
      });
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /¿Hay CLASES de cata de tequila\?/);
      const key = html.match(/name="grupo" value="([^"]+)"/)?.[1];
      assert.equal(key, "clases cata tequila", "most asked first");
      const res = await ctx.app.request("/panel/preguntas/resolver", {
        method: "POST",
        headers: {
          cookie: admin,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grupo: key }).toString(),
      });
      assert.equal(res.status, 303);
      const open = await listGroups(ctx, "open");
      const resolved = await listGroups(ctx, "resolved");
      assert.equal(open.length, 1);
      assert.deepEqual(resolved.map((g) => g.key), [key]);
      const { values } = await listStaffActions(ctx.deps.kv);
      assert.deepEqual(
        values.filter((v) => v.action === "question_resolved").map((v) =>
          v.target
        ),
        [key],
      );
      const again = await ctx.app.request("/panel/preguntas/resolver", {
        method: "POST",
        headers: {
          cookie: admin,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grupo: key }).toString(),
      });
      assert.equal(again.status, 404);
      const tooLong = await ctx.app.request("/panel/preguntas/resolver", {
        method: "POST",
        headers: {
          cookie: admin,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grupo: "a".repeat(3000) }).toString(),
      });
      assert.equal(tooLong.status, 404, "a group key KV cannot hold is none");
    },
  );

  await t.step("a question is kept 90 days, then it is gone", async () => {
    const entry = await ctx.deps.kv.get(
      keys.unansweredQuestion("clases cata tequila"),
    );
    assert.ok(entry.value);
    ctx.clock.advance(90 * DAY_MS + 1);
    const open = await listGroups(ctx, "open");
    const resolved = await listGroups(ctx, "resolved");
    assert.deepEqual([open.length, resolved.length], [0, 0]);
  });
});

Deno.test("POST /api/chat: a kept question holds no personal data", async () => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    openai: fake.client({ timeout: 10_000, maxRetries: 0 }),
  });
  fake.respondWith({ type: "reply", content: `${NO_DATA_MARKER} ${ANSWER}` });
  const pieces = [
    "Juan Pérez",
    "PEGJ850315HJCRRN07",
    "PEGJ850315AB1",
    "123456789",
    "4111 1111 1111 1111",
    "juan.perez arroba gmail punto com",
    "33.1234.5678",
    "Av. Juárez #45 int. 2",
  ];
  const res = await postJson(ctx, "/api/chat", {
    message: `Me llamo ${pieces[0]}, CURP ${pieces[1]}, RFC ${pieces[2]}, ` +
      `mi INE con CIC ${pieces[3]}, tarjeta ${pieces[4]}, correo ${
        pieces[5]
      }, cel ${pieces[6]}, vivo en ${pieces[7]}. ¿Hay tours en bicicleta?`,
  });
  assert.deepEqual(await assertJson(res, 200), { reply: ANSWER });
  const [group] = await listGroups(ctx, "open");
  assert.equal(
    group.text,
    "Me llamo [nombre], CURP [CURP], RFC [RFC], mi INE con CIC [INE], " +
      "tarjeta [tarjeta], correo [correo], cel [teléfono], vivo en " +
      "[dirección]. ¿Hay tours en bicicleta?",
  );
  const stored = JSON.stringify(
    await Array.fromAsync(ctx.deps.kv.list({ prefix: [] })),
    (_, value) => typeof value === "bigint" ? String(value) : value,
  ).normalize("NFC");
  for (const piece of [...pieces, "Juan", "Pérez", "juan", "1234", "Juárez"]) {
    assert.ok(!stored.includes(piece), piece);
  }
});

Deno.test("unanswered questions: a flood on one day stays within its bound, and the console pages to every kept question", async () => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    openai: fake.client({ timeout: 10_000, maxRetries: 0 }),
    clockStart: new Date("2026-11-02T15:00:00Z"),
    env: { TRUST_PROXY: "true" },
  });
  fake.respondWith({ type: "reply", content: `${NO_DATA_MARKER} ${ANSWER}` });
  let ip = 0;
  const ask = async (message: string) => {
    ip++;
    const res = await postJson(ctx, "/api/chat", { message }, {
      "x-forwarded-for": `10.${ip >> 16 & 255}.${ip >> 8 & 255}.${ip & 255}`,
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  };
  for (const message of ["¿Hay tours en bicicleta?", "¿Rentan caballos?"]) {
    await ask(message);
  }
  await ask("¿Hay TOURS en bicicleta?");
  await ask("Is there a vegan restaurant?");

  // The next day, 1,050 distinct questions arrive at once (in waves of 75),
  // more than the old 1,000-key read, all sorting before the real ones.
  ctx.clock.advance(DAY_MS);
  const junk = Array.from(
    { length: 1050 },
    (_, i) => `aaa junk ${String(i).padStart(4, "0")}`,
  );
  for (let i = 0; i < junk.length; i += 75) {
    await Promise.all(junk.slice(i, i + 75).map(ask));
  }
  await ask("¿Hay globo aerostático?");
  ctx.clock.advance(DAY_MS);
  await ask("¿Hay globo aerostático?");

  const open = await listGroups(ctx, "open");
  const flooded = open.filter((g) => g.key.startsWith("aaa junk"));
  assert.equal(flooded.length, MAX_NEW_GROUPS_PER_DAY);
  assert.deepEqual(
    open.filter((g) => !g.key.startsWith("aaa junk")).map((g) => [
      g.key,
      g.count,
    ]),
    [
      ["tours bicicleta", 2],
      ["globo aerostatico", 1],
      ["rentan caballos", 1],
      ["vegan restaurant", 1],
    ],
    "by count, then most recent; the flooded day's late question waits for the next day",
  );

  // The console: the first page, then "Siguientes pendientes" to the end.
  const admin = await signInStaff(ctx);
  const seen: string[] = [];
  let path: string | undefined = "/panel/preguntas";
  let pages = 0;
  while (path) {
    const page = await ctx.app.request(path, { headers: { cookie: admin } });
    assert.equal(page.status, 200);
    const html = await page.text();
    seen.push(
      ...[...html.matchAll(/name="grupo" value="([^"]+)"/g)].map((m) => m[1]),
    );
    path = html.match(/href="(\/panel\/preguntas\?desde=[^"]+)"/)?.[1]
      .replaceAll("&amp;", "&");
    pages++;
  }
  assert.equal(pages, Math.ceil(open.length / QUESTION_PAGE_SIZE));
  assert.deepEqual(seen, open.map((g) => g.key));
  assert.equal(seen[0], "tours bicicleta");
  assert.equal(seen.at(-1), "vegan restaurant");

  // A cursor edited by hand (not base64, too long for a key, another
  // list's) starts that list again: never a 500.
  const otherList = (await listStaffActions(ctx.deps.kv, { limit: 1 })).cursor;
  for (const param of ["desde", "resueltas"]) {
    for (const cursor of ["garbage", "A".repeat(5000), otherList, "%%%"]) {
      const edited = await ctx.app.request(
        `/panel/preguntas?${new URLSearchParams({ [param]: cursor })}`,
        { headers: { cookie: admin } },
      );
      assert.equal(edited.status, 200, `${param}=${cursor.slice(0, 20)}`);
      await edited.body?.cancel();
    }
  }
});

Deno.test("the privacy notice says what is kept of a question, how long, and that it is masked", async () => {
  await using ctx = await createTestContext();
  for (
    const [path, words] of [
      ["/aviso-de-privacidad", [
        "guardamos solo el texto de la pregunta",
        "ocultamos los datos personales",
        "CURP, RFC, datos de la INE, números de tarjeta, direcciones y nombres",
        "La borramos 90 días después de la última vez",
      ]],
      ["/en/aviso-de-privacidad", [
        "we keep only the text of the question",
        "we hide the personal data we recognise",
        "CURP, RFC, INE voter ID details, card numbers, street addresses and names",
        "We delete it 90 days after the last time",
      ]],
    ] as const
  ) {
    const res = await ctx.app.request(path);
    assert.equal(res.status, 200);
    const html = (await res.text()).replaceAll("&#39;", "'");
    for (const said of words) {
      assert.ok(html.includes(said), `${path}: ${said}`);
    }
  }
});

Deno.test("unanswered questions kept before the ranked index are listed after an upgrade", async () => {
  await using ctx = await createTestContext({
    clockStart: new Date("2026-11-02T15:00:00Z"),
  });
  const at = (days: number) =>
    new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString();
  // As the earlier release wrote them: the group alone, no index entry.
  for (
    const [key, count, days] of [["museo horario", 4, 3], [
      "globo",
      1,
      1,
    ]] as const
  ) {
    await ctx.deps.kv.set(
      keys.unansweredQuestion(key),
      {
        key,
        text: key,
        count,
        firstAskedAt: at(days),
        lastAskedAt: at(days),
        resolvedAt: null,
        resolvedBy: null,
      } satisfies QuestionGroup,
      { expireIn: 90 * DAY_MS },
    );
  }
  const admin = await signInStaff(ctx);
  const page = await ctx.app.request("/panel/preguntas", {
    headers: { cookie: admin },
  });
  assert.equal(page.status, 200);
  assert.deepEqual(
    [...(await page.text()).matchAll(/name="grupo" value="([^"]+)"/g)]
      .map((m) => m[1]),
    ["museo horario", "globo"],
  );
});

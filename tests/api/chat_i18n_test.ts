/**
 * The assistant in the visitor's language (issue 24): an English question
 * (the widget's `lang: "en"` or an English `Accept-Language`) gets an English
 * system prompt with the English data set and links to the English pages,
 * and English error replies; a Spanish or header-less request keeps the
 * contract's Spanish. The model is the loopback server, called through the
 * real openai SDK.
 */
import assert from "node:assert/strict";
import { localizeData } from "@/lib/data/translations.ts";
import { DEFAULT_REPLY, startFakeOpenAI } from "../fake_openai.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

const ENGLISH = localizeData(SHIPPED, "en");

let lastIp = 0;
function ask(
  ctx: TestContext,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  lastIp++;
  return postJson(ctx, "/api/chat", body, {
    "x-forwarded-for": `203.0.113.${lastIp}`,
    ...headers,
  });
}

Deno.test("POST /api/chat in the visitor's language", async (t) => {
  await using fake = startFakeOpenAI();
  const openai = fake.client({ timeout: 10_000, maxRetries: 0 });
  await using ctx = await createTestContext({
    clockStart: new Date("2026-11-22T15:00:00Z"),
    env: { TRUST_PROXY: "true" },
    openai,
  });
  const systemOf = (n: number) => fake.lastRequest().body.messages[n].content;

  await t.step(
    'the widget\'s lang "en": an English prompt with English data and /en links',
    async () => {
      fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
      const res = await ask(ctx, {
        message: "What can I see today?",
        lang: "en",
        location: { lat: 20.8829, lng: -103.8361 },
      });
      assert.deepEqual(await assertJson(res, 200), { reply: DEFAULT_REPLY });
      const prompt: string = systemOf(0);
      assert.match(
        prompt,
        /Always reply in the language the visitor writes in/,
      );
      assert.match(prompt, /\[Name\]\(\/en\/turismo\/atractivos\/<slug>\)/);
      assert.doesNotMatch(prompt, /Responde siempre en español/);
      for (const a of ENGLISH.attractions) {
        assert.ok(prompt.includes(`**${a.name}**`), a.name);
        assert.ok(prompt.includes(`/en/turismo/atractivos/${a.slug}`), a.slug);
      }
      const volcano = SHIPPED.attractions.find((a) =>
        a.i18n?.en?.name && a.i18n.en.name !== a.name
      )!;
      assert.ok(prompt.includes(volcano.i18n!.en!.name!));
      assert.ok(!prompt.includes(`**${volcano.name}**`), volcano.name);
      assert.match(prompt, /adults MX\$\d/);
      assert.match(prompt, /\/en\/turismo\/servicios\//);
      assert.match(prompt, /\[SIN_DATOS\]/);
      for (const a of SHIPPED.attractions) {
        assert.ok(!prompt.toUpperCase().includes(a.guideCode.toUpperCase()));
      }
      const context: string = systemOf(1);
      assert.match(context, /^## Context of this request/);
      assert.match(context, /It is now Sunday, November 22, 2026/);
      assert.match(context, /Nearest attractions:/);
      assert.match(context, /\(\/en\/turismo\/atractivos\/[a-z-]+\): /);
      assert.match(context, /\[Directions\]\(https:\/\/www\.google\.com/);
    },
  );

  await t.step(
    "an English Accept-Language without lang is English too",
    async () => {
      fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
      const res = await ask(ctx, { message: "Hi" }, {
        "accept-language": "en-US,en;q=0.9",
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.match(systemOf(0), /^You are the tourism assistant of /);
    },
  );

  await t.step(
    "a Spanish or header-less request keeps today's Spanish prompt",
    async () => {
      for (
        const headers of [
          {},
          { "accept-language": "es-MX,es;q=0.9,en;q=0.5" },
        ] as Record<string, string>[]
      ) {
        fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
        const res = await ask(ctx, { message: "Hola" }, headers);
        assert.equal(res.status, 200);
        await res.body?.cancel();
        assert.match(systemOf(0), /Responde siempre en español/);
        assert.match(
          systemOf(0),
          /\[Nombre\]\(\/turismo\/atractivos\/<slug>\)/,
        );
        assert.doesNotMatch(systemOf(0), /\/en\/turismo/);
        assert.match(systemOf(1), /^## Contexto de esta consulta/);
      }
    },
  );

  await t.step(
    'lang "es" wins over an English Accept-Language; an unknown lang is ignored',
    async () => {
      fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
      let res = await ask(ctx, { message: "Hola", lang: "es" }, {
        "accept-language": "en-US",
      });
      await res.body?.cancel();
      assert.match(systemOf(0), /Responde siempre en español/);
      res = await ask(ctx, { message: "Hola", lang: "xx" });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.match(systemOf(0), /Responde siempre en español/);
    },
  );

  await t.step(
    "an English question on a Spanish page gets the English prompt, and a Spanish one on an English page the Spanish prompt",
    async () => {
      fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
      let res = await ask(ctx, {
        message: "How far is Guadalajara from the distillery?",
        lang: "es",
      }, { "accept-language": "es-MX" });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.match(
        systemOf(0),
        /Always reply in the language the visitor writes in/,
      );
      assert.doesNotMatch(systemOf(0), /Responde siempre en español/);
      assert.match(systemOf(1), /^## Context of this request/);
      res = await ask(ctx, {
        message: "¿Qué horario tiene la Destilería La Rojeña?",
        lang: "en",
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.match(systemOf(0), /Responde siempre en español/);
      assert.match(systemOf(1), /^## Contexto de esta consulta/);
    },
  );

  await t.step(
    "a short ambiguous question keeps the page's language, or the language of the visitor's last clear question",
    async () => {
      fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
      for (
        const [message, lang, rule] of [
          ["Mundo Cuervo?", "es", /Responde siempre en español/],
          ["Tequila Express", "en", /Always reply in the language/],
          ["ok", "es", /Responde siempre en español/],
        ] as const
      ) {
        const res = await ask(ctx, { message, lang });
        assert.equal(res.status, 200);
        await res.body?.cancel();
        assert.match(systemOf(0), rule, message);
      }
      const res = await ask(ctx, {
        message: "Mundo Cuervo?",
        lang: "es",
        history: [
          { role: "user", content: "What is there to do in the evening?" },
          { role: "assistant", content: "You could visit..." },
        ],
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.match(systemOf(0), /Always reply in the language/);
    },
  );

  await t.step(
    "a marker-only English reply becomes the English fallback",
    async () => {
      fake.respondWith({ type: "reply", content: "[SIN_DATOS]" });
      const res = await ask(ctx, { message: "Is there a ferry?", lang: "en" });
      assert.deepEqual(await assertJson(res, 200), {
        reply:
          "I don’t have that information on the portal. I suggest checking with the tourist information office.",
      });
    },
  );

  await t.step("an English widget gets English error replies", async () => {
    fake.respondWith({ type: "status", status: 500 });
    let res = await ask(ctx, { message: "Hello", lang: "en" });
    assert.deepEqual(await assertJson(res, 502), {
      reply:
        "The assistant is having trouble answering right now. Try again in a few moments.",
    });
    res = await ask(ctx, { message: "  ", lang: "en" });
    assert.deepEqual(await assertJson(res, 400), {
      reply: "I didn’t get a valid message. Type your question and try again.",
    });
    res = await ctx.app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "text/plain", "accept-language": "en" },
      body: "hello",
    });
    assert.deepEqual(await assertJson(res, 415), {
      reply: "I didn’t get a valid message. Type your question and try again.",
    });
  });

  await t.step(
    "the same failures keep the contract's Spanish for a Spanish widget",
    async () => {
      fake.respondWith({ type: "status", status: 500 });
      const res = await ask(ctx, { message: "Hola", lang: "es" });
      assert.deepEqual(await assertJson(res, 502), {
        reply:
          "El asistente tiene problemas para responder ahora mismo. Inténtalo de nuevo en unos instantes.",
      });
    },
  );

  await t.step(
    "the rate limit's 429 is English for an English widget",
    async () => {
      fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
      const ip = "203.0.113.250";
      let last: Response | undefined;
      for (let i = 0; i < 21; i++) {
        last = await postJson(ctx, "/api/chat", {
          message: "Hi",
          lang: "en",
        }, { "x-forwarded-for": ip });
        if (i < 20) await last.body?.cancel();
      }
      const body = await assertJson(last!, 429);
      assert.match(body.reply, /^You’ve sent a lot of questions in a row/);
    },
  );
});

Deno.test("POST /api/chat without a model: 503 in the widget's language", async () => {
  await using ctx = await createTestContext({ env: { TRUST_PROXY: "true" } });
  let res = await ask(ctx, { message: "Hello", lang: "en" });
  assert.deepEqual(await assertJson(res, 503), {
    reply: "The chat isn’t available right now. Please try again later.",
  });
  res = await ask(ctx, { message: "Hola" });
  assert.deepEqual(await assertJson(res, 503), {
    reply:
      "El chat no está disponible en este momento. Vuelve a intentarlo más tarde.",
  });
});

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
import { listQuestionGroups } from "@/lib/db/unanswered_questions.ts";
import { startFakeOpenAI } from "./fake_openai.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  signInStaff,
} from "./test_utils.ts";

const ORIGIN = "http://localhost";
const ANSWER = "No tengo ese dato; confírmalo en el módulo de turismo.";
const DAY_MS = 24 * 60 * 60 * 1000;

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
      const { open } = await listQuestionGroups(ctx.deps.kv, ctx.clock.now());
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
      const { open } = await listQuestionGroups(ctx.deps.kv, ctx.clock.now());
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
    const { open } = await listQuestionGroups(ctx.deps.kv, ctx.clock.now());
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
      const { open, resolved } = await listQuestionGroups(
        ctx.deps.kv,
        ctx.clock.now(),
      );
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
    },
  );

  await t.step("a question is kept 90 days, then it is gone", async () => {
    const entry = await ctx.deps.kv.get(
      keys.unansweredQuestion("clases cata tequila"),
    );
    assert.ok(entry.value);
    ctx.clock.advance(90 * DAY_MS + 1);
    const { open, resolved } = await listQuestionGroups(
      ctx.deps.kv,
      ctx.clock.now(),
    );
    assert.deepEqual([open.length, resolved.length], [0, 0]);
  });
});

import assert from "node:assert/strict";
import {
  askAssistant,
  buildHistory,
  type ChatMessage,
  isChatMessage,
} from "./chat_client.ts";
import { createTranslate } from "./messages.ts";
import { getIslandMessages } from "@/lib/i18n/island_messages.ts";

/** The chat island's `t` in a language, from the real catalogue. */
function chatTranslate(lang: string) {
  const { messages, locale } = getIslandMessages(lang, "chat");
  return createTranslate(messages, locale);
}
const spanish = chatTranslate("es");

function sse(body: string, status = 200): typeof fetch {
  return () =>
    Promise.resolve(
      new Response(body, {
        status,
        headers: { "content-type": "text/event-stream" },
      }),
    );
}

Deno.test("buildHistory", async (t) => {
  await t.step(
    "sends the last 8 messages, without errors, each cut at 500",
    () => {
      const messages: ChatMessage[] = Array.from({ length: 12 }, (_, i) => ({
        role: i % 2 ? "assistant" : "user",
        content: `m${i}`,
      }));
      messages.push({ role: "assistant", content: "falló", error: true });
      messages.push({ role: "user", content: "x".repeat(600) });
      const history = buildHistory(messages);
      assert.equal(history.length, 8);
      assert.deepEqual(history[0], { role: "assistant", content: "m5" });
      assert.equal(history.at(-1)!.content.length, 500);
      assert.ok(history.every((m) => !("error" in m)));
    },
  );
});

Deno.test("isChatMessage", async (t) => {
  await t.step(
    "keeps messages and drops anything else read from storage",
    () => {
      const stored = [
        { role: "user", content: "hola" },
        { role: "assistant", content: "¡Hola!", error: true },
        { role: "system", content: "x" },
        { role: "user", content: 5 },
        null,
        "texto",
      ];
      assert.deepEqual(stored.filter(isChatMessage), stored.slice(0, 2));
    },
  );
});

Deno.test("askAssistant", async (t) => {
  await t.step("streams deltas and resolves with the whole reply", async () => {
    const seen: string[] = [];
    const result = await askAssistant({
      t: spanish,
      message: "hola",
      history: [],
      onText: (text) => seen.push(text),
      fetchFn: sse(
        'data: {"delta":"¡Ho"}\n\ndata: {"delta":"la!"}\n\nevent: done\ndata: {}\n\n',
      ),
    });
    assert.deepEqual(result, { ok: true, reply: "¡Hola!" });
    assert.deepEqual(seen, ["¡Ho", "¡Hola!"]);
  });

  await t.step(
    "an error event is the server's Spanish reply, marked as failed",
    async () => {
      const result = await askAssistant({
        t: spanish,
        message: "hola",
        history: [],
        fetchFn: sse(
          'data: {"delta":"Ho"}\n\nevent: error\ndata: {"reply":"Inténtalo luego."}\n\n',
        ),
      });
      assert.deepEqual(result, { ok: false, reply: "Inténtalo luego." });
    },
  );

  await t.step(
    "a JSON answer and a JSON error are read from {reply}",
    async () => {
      const json = (status: number, body: unknown): typeof fetch => () =>
        Promise.resolve(Response.json(body, { status }));
      assert.deepEqual(
        await askAssistant({
          t: spanish,
          message: "a",
          history: [],
          fetchFn: json(200, { reply: "**sí**" }),
        }),
        { ok: true, reply: "**sí**" },
      );
      assert.deepEqual(
        await askAssistant({
          t: spanish,
          message: "a",
          history: [],
          fetchFn: json(429, { reply: "Espera un momento." }),
        }),
        { ok: false, reply: "Espera un momento." },
      );
    },
  );

  await t.step("a network failure is a Spanish message", async () => {
    const result = await askAssistant({
      t: spanish,
      message: "a",
      history: [],
      fetchFn: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    assert.deepEqual(result, {
      ok: false,
      reply:
        "No pude conectar con el asistente. Revisa tu conexión e inténtalo de nuevo.",
    });
  });

  await t.step(
    "asked from an English page, a network failure is an English message",
    async () => {
      const result = await askAssistant({
        t: chatTranslate("en"),
        lang: "en",
        message: "a",
        history: [],
        fetchFn: () => Promise.reject(new TypeError("Failed to fetch")),
      });
      assert.deepEqual(result, {
        ok: false,
        reply:
          "I couldn't reach the assistant. Check your connection and try again.",
      });
    },
  );

  await t.step(
    "a stream cut before any text is the page language's broken-connection message",
    async () => {
      const result = await askAssistant({
        t: chatTranslate("en"),
        message: "a",
        history: [],
        fetchFn: sse(""),
      });
      assert.deepEqual(result, {
        ok: false,
        reply:
          "Something went wrong with the connection. Please try again later.",
      });
    },
  );

  await t.step(
    "an English page's question says its language, in the body and in Accept-Language",
    async () => {
      let sent: Request | undefined;
      await askAssistant({
        t: chatTranslate("en"),
        lang: "en",
        message: "What can I see in one day?",
        history: [],
        fetchFn: (input, init) => {
          sent = new Request(
            new URL(String(input), "http://portal.test"),
            init,
          );
          return Promise.resolve(Response.json({ reply: "ok" }));
        },
      });
      assert.equal(sent!.headers.get("accept-language"), "en");
      assert.equal((await sent!.json()).lang, "en");
    },
  );

  await t.step(
    "a Spanish page's question says Accept-Language: es and keeps the body as before",
    async () => {
      let sent: Request | undefined;
      await askAssistant({
        t: spanish,
        lang: "es",
        message: "hola",
        history: [],
        fetchFn: (input, init) => {
          sent = new Request(
            new URL(String(input), "http://portal.test"),
            init,
          );
          return Promise.resolve(Response.json({ reply: "ok" }));
        },
      });
      assert.equal(sent!.headers.get("accept-language"), "es");
      assert.deepEqual(await sent!.json(), { message: "hola", history: [] });
    },
  );

  await t.step(
    "sends message, history, location and asks for a stream",
    async () => {
      let sent: Request | undefined;
      await askAssistant({
        t: spanish,
        message: "x".repeat(600),
        history: [{ role: "user", content: "antes" }],
        location: { lat: 20.88, lng: -103.83 },
        fetchFn: (input, init) => {
          sent = new Request(
            new URL(String(input), "http://portal.test"),
            init,
          );
          return Promise.resolve(Response.json({ reply: "ok" }));
        },
      });
      assert.equal(sent!.method, "POST");
      assert.equal(new URL(sent!.url).pathname, "/api/chat");
      assert.match(sent!.headers.get("accept")!, /^text\/event-stream/);
      const body = await sent!.json();
      assert.equal(body.message.length, 500);
      assert.deepEqual(body.history, [{ role: "user", content: "antes" }]);
      assert.deepEqual(body.location, { lat: 20.88, lng: -103.83 });
      assert.equal(body.lang, undefined, "no language: the API's default");
      assert.equal(sent!.headers.get("accept-language"), null);
    },
  );
});

import assert from "node:assert/strict";
import {
  createSessionApi,
  describeFailure,
  describeRateError,
  describeVerifyError,
  SessionExpiredError,
} from "./session_client.ts";
import { createTranslate } from "./messages.ts";
import { getIslandMessages } from "@/lib/i18n/island_messages.ts";

/** A check-in island's `t` in a language, from the real catalogue. */
function checkInTranslate(lang: string) {
  const { messages, locale } = getIslandMessages(lang, "checkin", {
    shared: ["session", "rating"],
  });
  return createTranslate(messages, locale);
}

/** A stand-in for the portal: answers by path and records every call. */
function createFakeServer(
  answer: (path: string, init: RequestInit, n: number) => Response,
) {
  const calls: {
    path: string;
    authorization: string | null;
    language: string | null;
  }[] = [];
  const fetchFn = ((input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    calls.push({
      path: input,
      authorization: headers.get("authorization"),
      language: headers.get("accept-language"),
    });
    return Promise.resolve(answer(input, init, calls.length));
  }) as typeof fetch;
  return { calls, fetchFn };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });

Deno.test("session API client of the passport islands", async (t) => {
  await t.step(
    "one token serves many calls until shortly before it expires",
    async () => {
      let now = 0;
      let issued = 0;
      const server = createFakeServer((path) =>
        path === "/api/session-token"
          ? json({ token: `t${++issued}`, expiresIn: 600 })
          : json({ ok: true })
      );
      const api = createSessionApi({ fetchFn: server.fetchFn, now: () => now });
      await api.post("/api/a", {});
      await api.post("/api/b", {});
      now = 569_000; // 600 s minus the 30 s margin, not yet reached
      await api.post("/api/c", {});
      now = 570_000;
      await api.post("/api/d", {});
      assert.deepEqual(
        server.calls.map((c) => `${c.path} ${c.authorization ?? "-"}`),
        [
          "/api/session-token -",
          "/api/a Bearer t1",
          "/api/b Bearer t1",
          "/api/c Bearer t1",
          "/api/session-token -",
          "/api/d Bearer t2",
        ],
      );
    },
  );

  await t.step("a 401 gets one fresh token and one retry", async () => {
    let issued = 0;
    const server = createFakeServer((path, init) => {
      if (path === "/api/session-token") {
        return json({ token: `t${++issued}`, expiresIn: 600 });
      }
      const auth = new Headers(init.headers).get("authorization");
      return auth === "Bearer t1"
        ? json({ error: "caducó" }, 401)
        : json({ ok: 1 });
    });
    const api = createSessionApi({ fetchFn: server.fetchFn });
    const result = await api.post("/api/x", { a: 1 });
    assert.deepEqual(result, { status: 200, body: { ok: 1 } });
    assert.equal(server.calls.length, 4);
  });

  await t.step("a lost session rejects with SessionExpiredError", async () => {
    const server = createFakeServer(() =>
      json({ error: "No autorizado" }, 401)
    );
    const api = createSessionApi({ fetchFn: server.fetchFn });
    await assert.rejects(api.post("/api/x", {}), SessionExpiredError);
  });

  await t.step(
    "an answer that is not JSON reads as an empty body",
    async () => {
      const server = createFakeServer((path) =>
        path === "/api/session-token"
          ? json({ token: "t", expiresIn: 600 })
          : new Response("<html>502</html>", { status: 502 })
      );
      const api = createSessionApi({ fetchFn: server.fetchFn });
      assert.deepEqual(await api.post("/api/x", {}), { status: 502, body: {} });
    },
  );
  await t.step(
    "every call of an English page says Accept-Language: en; a Spanish one says none",
    async () => {
      const answer = (path: string) =>
        path === "/api/session-token"
          ? json({ token: "t", expiresIn: 600 })
          : json({ ok: true });
      const english = createFakeServer(answer);
      await createSessionApi({ fetchFn: english.fetchFn, lang: "en" })
        .post("/api/x", {});
      assert.deepEqual(english.calls.map((c) => c.language), ["en", "en"]);
      const spanish = createFakeServer(answer);
      await createSessionApi({ fetchFn: spanish.fetchFn }).post("/api/x", {});
      assert.deepEqual(spanish.calls.map((c) => c.language), [null, null]);
    },
  );
});

Deno.test("the session islands' error messages", async (t) => {
  const es = checkInTranslate("es");
  const en = checkInTranslate("en");
  const notFound = (remainingAttempts?: number) => ({
    status: 404,
    body: remainingAttempts === undefined ? {} : { remainingAttempts },
  });

  await t.step(
    "a wrong code counts the attempts left with each language's plural",
    () => {
      assert.equal(
        describeVerifyError(notFound(9), es),
        "Ese código no corresponde a ningún atractivo. Revísalo e inténtalo de nuevo. Te quedan 9 intentos.",
      );
      assert.equal(
        describeVerifyError(notFound(1), es),
        "Ese código no corresponde a ningún atractivo. Revísalo e inténtalo de nuevo. Te queda 1 intento.",
      );
      assert.equal(
        describeVerifyError(notFound(9), en),
        "That code doesn't match any attraction. Check it and try again. 9 attempts left.",
      );
      assert.equal(
        describeVerifyError(notFound(1), en),
        "That code doesn't match any attraction. Check it and try again. 1 attempt left.",
      );
      assert.equal(
        describeVerifyError(notFound(), es),
        "Ese código no corresponde a ningún atractivo. Revísalo e inténtalo de nuevo.",
      );
    },
  );

  await t.step("a lockout says the minutes to wait, rounded up", () => {
    const locked = (retryAfter: number) => ({
      status: 429,
      body: {},
      retryAfter,
    });
    assert.equal(
      describeVerifyError(locked(61), es),
      "Demasiados códigos incorrectos seguidos. Podrás intentarlo de nuevo en 2 minutos.",
    );
    assert.equal(
      describeVerifyError(locked(30), en),
      "Too many wrong codes in a row. You can try again in 1 minute.",
    );
  });

  await t.step(
    "other statuses, ratings and lost connections have their own message",
    () => {
      assert.equal(
        describeVerifyError({ status: 409, body: {} }, es),
        "Ya habías registrado tu visita a este atractivo.",
      );
      assert.equal(
        describeVerifyError({ status: 500, body: {} }, en),
        "We couldn't check you in right now. Please try again in a few minutes.",
      );
      assert.equal(
        describeRateError({ status: 404, body: {} }, es),
        "Primero registra tu visita a este atractivo.",
      );
      assert.equal(
        describeRateError({ status: 500, body: {} }, en),
        "We couldn't save your rating. Please try again in a few minutes.",
      );
      assert.equal(
        describeFailure(new TypeError("Failed to fetch"), es),
        "No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.",
      );
      assert.equal(
        describeFailure(new SessionExpiredError("gone"), en),
        "Your session has ended. Sign in again to continue.",
      );
    },
  );
});

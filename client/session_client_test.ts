import assert from "node:assert/strict";
import { createSessionApi, SessionExpiredError } from "./session_client.ts";

/** A stand-in for the portal: answers by path and records every call. */
function createFakeServer(
  answer: (path: string, init: RequestInit, n: number) => Response,
) {
  const calls: { path: string; authorization: string | null }[] = [];
  const fetchFn = ((input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    calls.push({ path: input, authorization: headers.get("authorization") });
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
});

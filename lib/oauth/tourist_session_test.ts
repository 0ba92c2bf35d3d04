import assert from "node:assert/strict";
import { Hono } from "hono";
import { createSession } from "@/lib/db/sessions.ts";
import type { AppEnv } from "@/lib/http/router.ts";
import {
  findTourist,
  getTourist,
  readTouristSession,
  requireTourist,
} from "./tourist_session.ts";

const NOW = new Date("2026-05-01T12:00:00Z");

/** A cookie route behind the middleware, over a real `:memory:` KV. */
function createApp(kv: Deno.Kv) {
  return new Hono<AppEnv>()
    .use(
      readTouristSession({
        kv,
        now: () => NOW,
        config: { baseUrl: undefined },
      }),
    )
    .get("/optional", (c) => c.json({ userId: findTourist(c)?.userId ?? null }))
    .get(
      "/required",
      requireTourist((c) => c.json({ error: "signed out", details: "" }, 401)),
      (c) => c.json({ userId: getTourist(c).userId }),
    );
}

Deno.test("tourist access: one middleware puts the session on the context", async (t) => {
  await using kv = await Deno.openKv(":memory:");
  const app = createApp(kv);
  const { sessionId } = await createSession(kv, {
    userId: "7f1c9c35-5d5e-4a55-9b0a-5b0e0e6c3a11",
    name: null,
    now: NOW,
    ttlMs: 60_000,
  });
  const cookie = { Cookie: `session=${sessionId}` };

  await t.step("a live session cookie: both routes see its user", async () => {
    for (const path of ["/optional", "/required"]) {
      const res = await app.request(path, { headers: cookie });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {
        userId: "7f1c9c35-5d5e-4a55-9b0a-5b0e0e6c3a11",
      });
    }
  });

  await t.step(
    "no cookie: the optional route passes, the required one refuses",
    async () => {
      const optional = await app.request("/optional");
      assert.deepEqual(await optional.json(), { userId: null });
      const required = await app.request("/required");
      assert.equal(required.status, 401);
      assert.deepEqual(await required.json(), {
        error: "signed out",
        details: "",
      });
    },
  );

  await t.step("an unknown or tampered cookie is no session", async () => {
    const res = await app.request("/required", {
      headers: { Cookie: "session=not-a-session" },
    });
    assert.equal(res.status, 401);
  });
});

Deno.test("tourist access: no route reads the session cookie by hand", async () => {
  // Sign-in, its callback and sign-out handle the cookie itself; every other
  // route reads the session the middleware put on the context.
  const allowed = new Set([
    "routes/auth/callback.ts",
    "routes/auth/signin.ts",
    "routes/auth/signout.ts",
  ]);
  const root = new URL("../../", import.meta.url);
  const offenders: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, root))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.tsx?$/.test(entry.name) && !allowed.has(path)) {
        const text = await Deno.readTextFile(new URL(path, root));
        if (/readSessionCookie|getSignedInSession/.test(text)) {
          offenders.push(path);
        }
      }
    }
  };
  await walk("routes");
  assert.deepEqual(offenders, []);
});

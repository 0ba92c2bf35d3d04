import assert from "node:assert/strict";
import { getSafeNextPath } from "@/lib/oauth/sign_in.ts";
import { keys } from "./keys.ts";
import { openKv } from "./kv.ts";
import {
  consumeOAuthFlow,
  createSession,
  deleteSession,
  generateSessionId,
  getOrCreateUserForIdentity,
  getSession,
  type OAuthFlow,
  saveOAuthFlow,
} from "./sessions.ts";

const NOW = new Date("2026-11-22T15:00:00Z");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function randomState(): string {
  return generateSessionId();
}

function flow(overrides: Partial<OAuthFlow> = {}): OAuthFlow {
  return {
    codeVerifier: generateSessionId(),
    nonce: generateSessionId(),
    next: "/mi-pasaporte",
    expiresAt: NOW.getTime() + 600_000,
    ...overrides,
  };
}

/** Runs `fn` against KV in memory and in a real file (shared by two handles). */
async function onEachKv(
  t: Deno.TestContext,
  name: string,
  fn: (kv: Deno.Kv, other: Deno.Kv) => Promise<void>,
) {
  await t.step(`${name} (KV in memory)`, async () => {
    const kv = await openKv(":memory:");
    try {
      await fn(kv, kv);
    } finally {
      kv.close();
    }
  });
  await t.step(`${name} (KV file, two connections)`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "sessions-test-" });
    const kv = await openKv(`${dir}/test.kv`);
    const other = await openKv(`${dir}/test.kv`);
    try {
      await fn(kv, other);
    } finally {
      kv.close();
      other.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("sessions, sign-in flows and identities in KV", async (t) => {
  await onEachKv(
    t,
    "a session id is 256 random bits and never reused",
    async (kv) => {
      const ids = new Set<string>();
      for (let i = 0; i < 50; i++) {
        const { sessionId } = await createSession(kv, {
          userId: crypto.randomUUID(),
          name: null,
          now: NOW,
          ttlMs: 60_000,
        });
        assert.match(sessionId, /^[A-Za-z0-9_-]{43}$/);
        ids.add(sessionId);
      }
      assert.equal(ids.size, 50);
    },
  );

  await onEachKv(
    t,
    "a session is live until its expiry, then reads as null",
    async (kv) => {
      const { sessionId, session } = await createSession(kv, {
        userId: "u-1",
        name: "Ana",
        now: NOW,
        ttlMs: 60_000,
      });
      assert.deepEqual(await getSession(kv, sessionId, NOW), session);
      assert.deepEqual(
        await getSession(kv, sessionId, new Date(NOW.getTime() + 59_999)),
        session,
      );
      assert.equal(
        await getSession(kv, sessionId, new Date(NOW.getTime() + 60_000)),
        null,
      );
      // KV holds the session under the id's hash, never the cookie's id.
      assert.notEqual(session.handle, sessionId);
      assert.equal((await kv.get(keys.session(sessionId))).value, null);
      assert.deepEqual(
        (await kv.get(keys.session(session.handle))).value,
        session,
      );
      await deleteSession(kv, sessionId);
      assert.equal((await kv.get(keys.session(session.handle))).value, null);
    },
  );

  await onEachKv(
    t,
    "malformed or oversized session ids are not looked up and read as null",
    async (kv) => {
      for (const id of ["", "abc", "x".repeat(5000), "a/b".padEnd(43, "c")]) {
        assert.equal(await getSession(kv, id, NOW), null);
        await deleteSession(kv, id);
      }
    },
  );

  await onEachKv(
    t,
    "a flow consumed by many concurrent callbacks is given to exactly one",
    async (kv, other) => {
      const state = randomState();
      const stored = flow();
      await saveOAuthFlow(kv, state, stored, { ttlMs: 600_000 });
      const results = await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) => consumeOAuthFlow(i % 2 ? kv : other, state, NOW),
        ),
      );
      const winners = results.filter((r) => r !== null);
      assert.equal(winners.length, 1);
      assert.deepEqual(winners[0], stored);
      assert.equal((await kv.get(keys.oauthFlow(state))).value, null);
    },
  );

  await onEachKv(
    t,
    "an expired flow is refused (and removed)",
    async (kv) => {
      const state = randomState();
      await saveOAuthFlow(kv, state, flow({ expiresAt: NOW.getTime() }), {
        ttlMs: 600_000,
      });
      assert.equal(await consumeOAuthFlow(kv, state, NOW), null);
      assert.equal((await kv.get(keys.oauthFlow(state))).value, null);
      assert.equal(await consumeOAuthFlow(kv, "no es un state", NOW), null);
      assert.equal(await consumeOAuthFlow(kv, "x".repeat(4000), NOW), null);
    },
  );

  await onEachKv(
    t,
    "concurrent first sign-ins of one identity agree on one user id",
    async (kv, other) => {
      const identity = { issuer: "https://idp.example", subject: "sub-1" };
      const results = await Promise.all(
        Array.from(
          { length: 10 },
          (_, i) =>
            getOrCreateUserForIdentity(i % 2 ? kv : other, {
              ...identity,
              now: NOW,
            }),
        ),
      );
      assert.equal(new Set(results.map((r) => r.userId)).size, 1);
      assert.equal(results.filter((r) => r.created).length, 1);
      assert.match(results[0].userId, UUID);
      const again = await getOrCreateUserForIdentity(kv, {
        ...identity,
        now: NOW,
      });
      assert.deepEqual(again, { userId: results[0].userId, created: false });
      const otherIssuer = await getOrCreateUserForIdentity(kv, {
        issuer: "https://otro.example",
        subject: "sub-1",
        now: NOW,
      });
      assert.notEqual(otherIssuer.userId, results[0].userId);
    },
  );
});

Deno.test("getSafeNextPath keeps same-site paths and refuses the rest", () => {
  const kept = [
    "/mi-pasaporte",
    "/turismo/atractivos/plaza-principal?ver=1#mapa",
    "/ruta/abc_123",
  ];
  for (const next of kept) assert.equal(getSafeNextPath(next), next);
  const refused = [
    undefined,
    null,
    "",
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    " /mi-pasaporte",
    "javascript:alert(1)",
    "evil.example/path",
    `/${"a".repeat(600)}`,
    // Only another host once normalised (URL resolution).
    "/.//evil.example",
    "/..//evil.example/path",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/%2e%2e//evil.example",
    "/%2E//evil.example",
    "/.%2e//evil.example",
    "/././/evil.example",
    "/.//evil.example?next=/mi-pasaporte",
    "///evil.example",
    "/\\/evil.example",
    "/%09/evil.example".replace("%09", "\t"),
    "https:evil.example",
    "http://portal.invalid/mi-pasaporte",
  ];
  for (const next of refused) {
    assert.equal(getSafeNextPath(next), "/mi-pasaporte", JSON.stringify(next));
  }
});

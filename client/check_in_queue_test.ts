import "fake-indexeddb/auto";
import assert from "node:assert/strict";
import { openDB } from "idb";
import {
  clearCheckInQueue,
  enqueueCheckIn,
  listQueuedCheckIns,
  makeCheckIn,
  PASSPORT_CHANNEL,
  type QueuedCheckIn,
  sendCheckInNow,
  syncQueuedCheckIns,
  syncQueuedCheckInsInBackground,
} from "./check_in_queue.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A JSON response as the API gives it. */
function json(status: number, body: unknown, headers: HeadersInit = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * A fake server: a guest token for every session-token call, and the
 * check-in endpoint's answers from `answer` (a thrown error is a network
 * failure). Records the check-ins it was sent.
 */
function fakeServer(
  answer: (body: Record<string, unknown>) => Response | Promise<Response>,
) {
  const sent: Record<string, unknown>[] = [];
  const languages: (string | null)[] = [];
  let tokens = 0;
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path === "/api/session-token") {
      tokens++;
      return json(200, {
        token: `t-${tokens}`,
        userId: "u-1",
        expiresIn: 900,
      });
    }
    assert.equal(path, "/api/turismo/check-in");
    const body = JSON.parse(String(init?.body));
    sent.push(body);
    languages.push(new Headers(init?.headers).get("accept-language"));
    return await answer(body);
  }) as typeof fetch;
  return {
    fetchFn,
    sent,
    languages,
    get tokens() {
      return tokens;
    },
  };
}

const NOW = new Date("2026-11-20T18:30:00.000Z");
const LATER = new Date("2026-11-20T19:45:00.000Z");
const LATLNG = { lat: 20.9, lng: -103.8, accuracy: 12 };

async function fresh() {
  await clearCheckInQueue();
}

/** Every record of the queue's database as stored, read past the module. */
async function readStored(): Promise<Record<string, unknown>[]> {
  const db = await openDB("pasaporte-cola");
  try {
    return await db.getAll("check-ins");
  } finally {
    db.close();
  }
}

Deno.test("the device's check-in queue", async (t) => {
  await t.step(
    "a code is kept as pending with its own id and the device's time, and the pages are told",
    async () => {
      await fresh();
      const channel = new BroadcastChannel(PASSPORT_CHANNEL);
      const heard = new Promise((resolve) => {
        channel.onmessage = (event) => resolve(event.data);
      });
      const item = await enqueueCheckIn({
        slug: "plaza-principal",
        code: "AB12",
      }, {
        now: () => NOW,
      });
      assert.deepEqual(await heard, { type: "check-ins" });
      channel.close();
      assert.match(item.checkInId, UUID);
      assert.deepEqual(item, {
        checkInId: item.checkInId,
        slug: "plaza-principal",
        code: "AB12",
        claimedAt: NOW.toISOString(),
        status: "pending",
      });
      assert.deepEqual(await listQueuedCheckIns(), [item]);
      const other = await enqueueCheckIn({ slug: null, code: "CD34" }, {
        now: () => LATER,
      });
      assert.notEqual(other.checkInId, item.checkInId);
      assert.deepEqual(
        (await listQueuedCheckIns()).map((i) => i.code),
        ["AB12", "CD34"],
      );
    },
  );

  await t.step(
    "a sync sends each as the session's user and keeps the server's answer",
    async () => {
      await fresh();
      const code = await enqueueCheckIn({
        slug: "plaza-principal",
        code: "AB12",
      }, {
        now: () => NOW,
      });
      const gps = await enqueueCheckIn({
        slug: "barranca",
        position: { lat: 20.9, lng: -103.8, accuracy: 12 },
      }, { now: () => LATER });
      const badge = { id: "explorador", name: "Explorador", icon: "🧭" };
      const server = fakeServer((body) =>
        json(200, {
          success: true,
          checkInId: body.checkInId,
          visitId: `v-${body.checkInId}`,
          atractivo: body.code ? "plaza-principal" : "barranca",
          badge: body.code ? badge : null,
          method: body.code ? "code" : "gps",
        })
      );
      const queue = await syncQueuedCheckIns({
        lang: "en",
        fetchFn: server.fetchFn,
        now: () => LATER,
      });
      assert.deepEqual(server.sent, [
        {
          userId: "u-1",
          checkInId: code.checkInId,
          claimedAt: NOW.toISOString(),
          code: "AB12",
        },
        {
          userId: "u-1",
          checkInId: gps.checkInId,
          claimedAt: LATER.toISOString(),
          position: { lat: 20.9, lng: -103.8, accuracy: 12 },
          atractivo: "barranca",
        },
      ]);
      assert.deepEqual(server.languages, ["en", "en"]);
      assert.equal(server.tokens, 1);
      assert.deepEqual(queue, await listQueuedCheckIns());
      const { code: _sent, ...made } = code;
      assert.deepEqual(queue, [
        // The code is forgotten once the server has decided.
        {
          ...made,
          status: "verified",
          visitId: `v-${code.checkInId}`,
          atractivo: "plaza-principal",
          badge,
          resolvedAt: LATER.toISOString(),
        },
        // The position is forgotten once the server has decided.
        {
          checkInId: gps.checkInId,
          slug: "barranca",
          claimedAt: LATER.toISOString(),
          status: "verified",
          visitId: `v-${gps.checkInId}`,
          atractivo: "barranca",
          badge: null,
          resolvedAt: LATER.toISOString(),
        },
      ]);
      // Nothing pending: nothing is sent again.
      await syncQueuedCheckIns({ fetchFn: server.fetchFn });
      assert.equal(server.sent.length, 2);
    },
  );

  await t.step(
    "final refusals end rejected with the server's words and the reason as data",
    async () => {
      await fresh();
      const wrong = await enqueueCheckIn({ slug: "a", code: "NOPE" });
      const already = await enqueueCheckIn({ slug: "b", code: "B1B1" });
      const far = await enqueueCheckIn({
        slug: "c",
        position: { lat: 1, lng: 2, accuracy: 30 },
      });
      const reused = await enqueueCheckIn({ slug: "d", code: "D1D1" });
      const bad = await enqueueCheckIn({ slug: "e", code: "" });
      const near = await enqueueCheckIn({
        slug: "f",
        position: { lat: 1, lng: 2, accuracy: 30 },
      });
      const answers: Record<string, Response> = {
        [wrong.checkInId]: json(404, {
          error: "No encontrado",
          details: "Ese código no corresponde a ningún atractivo.",
          remainingAttempts: 9,
        }),
        [already.checkInId]: json(409, {
          error: "Ya registrado",
          details: "Ya habías registrado tu visita a este atractivo.",
          reason: "already_visited",
          visitId: "v-0",
          atractivo: "b",
        }),
        [far.checkInId]: json(422, {
          error: "Fuera de lugar",
          details: { reason: "outside_radius", distanceM: 812, radiusM: 150 },
        }),
        [reused.checkInId]: json(409, {
          error: "Conflicto",
          details: "Ese registro ya se envió con otro código.",
          reason: "id_reused",
        }),
        // The facts beside `reason` at the top, as the app's error funnel puts them.
        [near.checkInId]: json(422, {
          error: "No procesable",
          details: "Estás a 300 m del lugar.",
          reason: "outside_radius",
          distanceM: 300,
          radiusM: 150,
        }),
        [bad.checkInId]: json(400, {
          error: "Solicitud inválida",
          details: "code: demasiado corto",
        }),
      };
      const server = fakeServer((body) => answers[String(body.checkInId)]);
      const queue = await syncQueuedCheckIns({ fetchFn: server.fetchFn });
      assert.equal(server.sent.length, 6);
      const by = new Map(queue.map((item) => [item.checkInId, item]));
      const pick = (item: QueuedCheckIn) => {
        const { status, message, refusal, visitId, atractivo, position } = by
          .get(item.checkInId)!;
        return { status, message, refusal, visitId, atractivo, position };
      };
      assert.deepEqual(pick(wrong), {
        status: "rejected",
        message: "Ese código no corresponde a ningún atractivo.",
        refusal: { status: 404, remainingAttempts: 9 },
        visitId: undefined,
        atractivo: undefined,
        position: undefined,
      });
      assert.deepEqual(pick(already), {
        status: "rejected",
        message: "Ya habías registrado tu visita a este atractivo.",
        refusal: { status: 409, reason: "already_visited" },
        visitId: "v-0",
        atractivo: "b",
        position: undefined,
      });
      assert.deepEqual(pick(far), {
        status: "rejected",
        message: "Fuera de lugar",
        refusal: {
          status: 422,
          reason: "outside_radius",
          distanceM: 812,
          radiusM: 150,
        },
        visitId: undefined,
        atractivo: undefined,
        position: undefined,
      });
      assert.deepEqual(pick(near).refusal, {
        status: 422,
        reason: "outside_radius",
        distanceM: 300,
        radiusM: 150,
      });
      assert.equal(pick(near).message, "Estás a 300 m del lugar.");
      assert.equal(pick(reused).refusal?.reason, "id_reused");
      assert.equal(pick(bad).status, "rejected");
      assert.equal(pick(bad).message, "code: demasiado corto");
    },
  );

  await t.step(
    "the device keeps a code only while it is pending: gone once verified or rejected",
    async () => {
      await fresh();
      // A minute apart: sent in this order.
      const at = (minute: number) => ({
        now: () => new Date(NOW.getTime() + minute * 60_000),
      });
      const ok = await enqueueCheckIn({ slug: "a", code: "AB12" }, at(0));
      const wrong = await enqueueCheckIn({ slug: null, code: "NOPE99" }, at(1));
      const already = await enqueueCheckIn({ slug: "b", code: "CD34" }, at(2));
      const waits = await enqueueCheckIn({ slug: "c", code: "EF56" }, at(3));
      const answers: Record<string, () => Response> = {
        [ok.checkInId]: () =>
          json(200, { visitId: "v-1", atractivo: "a", badge: null }),
        [wrong.checkInId]: () =>
          json(404, { error: "x", details: "y", remainingAttempts: 3 }),
        [already.checkInId]: () =>
          json(409, {
            error: "x",
            details: "y",
            reason: "already_visited",
            visitId: "v-0",
            atractivo: "b",
          }),
        [waits.checkInId]: () =>
          json(503, { error: "x", details: "y" }, { "retry-after": "5" }),
      };
      const server = fakeServer((body) => answers[String(body.checkInId)]());
      await syncQueuedCheckIns({ fetchFn: server.fetchFn });
      assert.deepEqual(server.sent.map((body) => body.code), [
        "AB12",
        "NOPE99",
        "CD34",
        "EF56",
      ]);
      const stored = new Map(
        (await readStored()).map((item) => [item.checkInId, item]),
      );
      // What the pages need stays: the attraction, the state, the times, why.
      assert.deepEqual(
        [ok, wrong, already].map((item) => {
          const { status, slug, claimedAt, resolvedAt, refusal } = stored.get(
            item.checkInId,
          ) as QueuedCheckIn;
          return { status, slug, claimed: claimedAt, resolvedAt, refusal };
        }),
        [
          {
            status: "verified",
            slug: "a",
            claimed: ok.claimedAt,
            resolvedAt: stored.get(ok.checkInId)?.resolvedAt,
            refusal: undefined,
          },
          {
            status: "rejected",
            slug: null,
            claimed: wrong.claimedAt,
            resolvedAt: stored.get(wrong.checkInId)?.resolvedAt,
            refusal: { status: 404, remainingAttempts: 3 },
          },
          {
            status: "rejected",
            slug: "b",
            claimed: already.claimedAt,
            resolvedAt: stored.get(already.checkInId)?.resolvedAt,
            refusal: { status: 409, reason: "already_visited" },
          },
        ],
      );
      for (const item of [ok, wrong, already]) {
        const record = stored.get(item.checkInId)!;
        assert.equal(typeof record.resolvedAt, "string");
        assert.ok(!("code" in record), `${record.status}: no code field`);
        assert.ok(!JSON.stringify(record).includes(item.code!));
      }
      // Still to be sent: its code stays until the server answers.
      assert.equal(stored.get(waits.checkInId)?.status, "pending");
      assert.equal(stored.get(waits.checkInId)?.code, "EF56");
      answers[waits.checkInId] = () =>
        json(200, { visitId: "v-2", atractivo: "c", badge: null });
      await syncQueuedCheckIns({ fetchFn: server.fetchFn });
      const sent = (await readStored()).find((item) =>
        item.checkInId === waits.checkInId
      )!;
      assert.equal(sent.status, "verified");
      assert.ok(!("code" in sent));
    },
  );

  await t.step(
    "a code an older version left on an answered check-in is deleted at the next sync or check-in",
    async () => {
      for (const next of ["sync", "check-in"] as const) {
        await fresh();
        const item = await enqueueCheckIn({ slug: "a", code: "AB12" });
        // As the queue stored verified check-ins before it forgot codes.
        const db = await openDB("pasaporte-cola");
        await db.put("check-ins", {
          ...item,
          status: "verified",
          visitId: "v-1",
          atractivo: "a",
          resolvedAt: LATER.toISOString(),
        });
        db.close();
        if (next === "sync") {
          const server = fakeServer(() => json(500, {}));
          await syncQueuedCheckIns({ fetchFn: server.fetchFn });
          assert.equal(server.sent.length, 0, "nothing pending is sent");
        } else {
          await enqueueCheckIn({ slug: "b", position: LATLNG });
        }
        const old = (await readStored()).find((each) =>
          each.checkInId === item.checkInId
        )!;
        assert.equal(old.status, "verified", next);
        assert.equal(old.visitId, "v-1", next);
        assert.ok(!("code" in old), `${next}: its code deleted`);
      }
    },
  );

  await t.step(
    "a network failure keeps it pending; the next sync sends the same id and gets the answer",
    async () => {
      await fresh();
      // Made a minute apart: the queue is sent oldest first.
      const item = await enqueueCheckIn({ slug: "a", code: "AB12" }, {
        now: () => NOW,
      });
      const later = await enqueueCheckIn({ slug: "b", code: "CD34" }, {
        now: () => LATER,
      });
      let online = false;
      const server = fakeServer(() => {
        if (!online) throw new TypeError("Failed to fetch");
        return json(200, { visitId: "v-1", atractivo: "a", badge: null });
      });
      const first = await syncQueuedCheckIns({ fetchFn: server.fetchFn });
      assert.deepEqual(first.map((i) => i.status), ["pending", "pending"]);
      // The first failure stops the round: the next one would fail too.
      assert.equal(server.sent.length, 1);
      online = true;
      const second = await syncQueuedCheckIns({ fetchFn: server.fetchFn });
      assert.deepEqual(second.map((i) => i.status), ["verified", "verified"]);
      assert.deepEqual(
        server.sent.map((body) => body.checkInId),
        [item.checkInId, item.checkInId, later.checkInId],
      );
      assert.deepEqual(server.sent[0], server.sent[1]);
    },
  );

  await t.step(
    "in the background, a sync that leaves one pending fails, so the browser tries again",
    async () => {
      await fresh();
      await enqueueCheckIn({ slug: "a", code: "AB12" });
      let online = false;
      const server = fakeServer(() => {
        if (!online) throw new TypeError("Failed to fetch");
        return json(200, { visitId: "v-1", atractivo: "a", badge: null });
      });
      await assert.rejects(
        syncQueuedCheckInsInBackground({ fetchFn: server.fetchFn }),
        /still pending/,
      );
      online = true;
      const queue = await syncQueuedCheckInsInBackground({
        fetchFn: server.fetchFn,
      });
      assert.deepEqual(queue.map((i) => i.status), ["verified"]);
    },
  );

  await t.step(
    "5xx, 429 and a 401 after a fresh token leave it pending",
    async () => {
      for (const answer of [500, 503, 429, 401]) {
        await fresh();
        await enqueueCheckIn({ slug: "a", code: "AB12" });
        const server = fakeServer(() =>
          json(answer, { error: "x", details: "y" }, { "retry-after": "60" })
        );
        const queue = await syncQueuedCheckIns({ fetchFn: server.fetchFn });
        assert.deepEqual(queue.map((i) => i.status), ["pending"], `${answer}`);
        assert.deepEqual(queue[0].deferred, { status: answer, retryAfter: 60 });
        assert.equal(server.sent.length, answer === 401 ? 2 : 1);
        assert.equal(server.tokens, answer === 401 ? 2 : 1);
      }
    },
  );

  await t.step(
    "no session token (offline, or the server down) never throws",
    async () => {
      await fresh();
      await enqueueCheckIn({ slug: "a", code: "AB12" });
      const down =
        (() => Promise.reject(new TypeError("offline"))) as typeof fetch;
      const queue = await syncQueuedCheckIns({ fetchFn: down });
      assert.deepEqual(queue.map((i) => i.status), ["pending"]);
    },
  );

  await t.step(
    "syncs started together send each check-in once",
    async () => {
      await fresh();
      await enqueueCheckIn({ slug: "a", code: "AB12" });
      await enqueueCheckIn({ slug: "b", code: "CD34" });
      const server = fakeServer(async (body) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return json(200, {
          visitId: `v-${body.code}`,
          atractivo: "x",
          badge: null,
        });
      });
      const results = await Promise.all([
        syncQueuedCheckIns({ fetchFn: server.fetchFn }),
        syncQueuedCheckIns({ fetchFn: server.fetchFn }),
        syncQueuedCheckIns({ fetchFn: server.fetchFn }),
      ]);
      assert.equal(server.sent.length, 2);
      for (const queue of results) {
        assert.deepEqual(queue.map((i) => i.status), ["verified", "verified"]);
      }
    },
  );

  await t.step(
    "a queue cleared while its check-in was on the way stays empty",
    async () => {
      await fresh();
      await enqueueCheckIn({ slug: "a", code: "AB12" });
      const server = fakeServer(async () => {
        await clearCheckInQueue();
        return json(200, { visitId: "v-1", atractivo: "a", badge: null });
      });
      assert.deepEqual(
        await syncQueuedCheckIns({ fetchFn: server.fetchFn }),
        [],
      );
      assert.deepEqual(await listQueuedCheckIns(), []);
    },
  );

  await t.step(
    "rejected check-ins older than 30 days are dropped when a new one is made",
    async () => {
      await fresh();
      const old = await enqueueCheckIn({ slug: "a", code: "NOPE" }, {
        now: () => NOW,
      });
      const recent = await enqueueCheckIn({ slug: "a", code: "AB12" }, {
        now: () => NOW,
      });
      const server = fakeServer((body) =>
        body.code === "NOPE"
          ? json(404, { error: "x", details: "y" })
          : json(200, { visitId: "v", atractivo: "a", badge: null })
      );
      await syncQueuedCheckIns({ fetchFn: server.fetchFn, now: () => NOW });
      const month = new Date(NOW.getTime() + 31 * 24 * 60 * 60 * 1000);
      const next = await enqueueCheckIn({ slug: "b", code: "EF56" }, {
        now: () => month,
      });
      assert.deepEqual(
        (await listQueuedCheckIns()).map((i) => i.checkInId),
        [recent.checkInId, next.checkInId],
      );
      assert.ok(old);
    },
  );
});

Deno.test("a check-in sent now, without the queue (no IndexedDB)", async (t) => {
  const item = makeCheckIn({ slug: "plaza-principal", code: "AB12" }, NOW);

  await t.step("a stamp: verified, and nothing is queued", async () => {
    await fresh();
    const server = fakeServer(() =>
      json(200, { visitId: "v-1", atractivo: "plaza-principal", badge: null })
    );
    const sent = await sendCheckInNow(item, {
      fetchFn: server.fetchFn,
      now: () => LATER,
    });
    assert.ok("settled" in sent);
    assert.equal(sent.settled.status, "verified");
    assert.equal(sent.settled.visitId, "v-1");
    assert.ok(!("code" in sent.settled), "its code forgotten");
    assert.deepEqual(server.sent, [{
      userId: "u-1",
      checkInId: item.checkInId,
      claimedAt: NOW.toISOString(),
      code: "AB12",
    }]);
    assert.deepEqual(await listQueuedCheckIns(), []);
  });

  await t.step("a refusal is final: rejected with its reason", async () => {
    const server = fakeServer(() =>
      json(404, { error: "Not found", details: "x", remainingAttempts: 4 })
    );
    const sent = await sendCheckInNow(item, { fetchFn: server.fetchFn });
    assert.ok("settled" in sent);
    assert.equal(sent.settled.status, "rejected");
    assert.equal(sent.settled.refusal?.remainingAttempts, 4);
  });

  await t.step("no answer at all: offline", async () => {
    const server = fakeServer(() => {
      throw new TypeError("Failed to fetch");
    });
    assert.deepEqual(await sendCheckInNow(item, { fetchFn: server.fetchFn }), {
      failed: "offline",
    });
  });

  await t.step("a retryable status: later, with the answer", async () => {
    const server = fakeServer(() =>
      json(503, { error: "Unavailable", details: "x" }, { "retry-after": "5" })
    );
    const sent = await sendCheckInNow(item, { fetchFn: server.fetchFn });
    assert.ok("failed" in sent && sent.failed === "later");
    assert.equal(sent.result.status, 503);
  });
});

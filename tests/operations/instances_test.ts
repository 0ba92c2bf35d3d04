/**
 * Several instances, one truth: three service processes (`deno run -A
 * main.ts`) on three ports share one KV file, as instances behind a load
 * balancer share Deno Deploy's KV. The chat limit, badges and tickets must
 * come out exactly as with one process, because nothing that matters lives
 * in process memory; the per-IP budget, counted by each instance in its
 * own memory (lib/limits/ip_budget.ts), as its own budget each.
 */
import assert from "node:assert/strict";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { getCmsPost } from "@/lib/db/cms_posts.ts";
import { keys } from "@/lib/db/keys.ts";
import { openKv } from "@/lib/db/kv.ts";
import { getRateLimitEntry } from "@/lib/db/rate_limits.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import { getTicket } from "@/lib/db/tickets.ts";
import { getUserStats, listBadges, listVisits } from "@/lib/db/visits.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  getFreePort,
  postJsonTo,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import {
  DATA_PATH,
  loadShippedData,
  randomUserId,
  SHIPPED,
  ticketBody,
} from "../test_utils.ts";

const IP_BUDGET = 120;

Deno.test("three instances on one KV file", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-instances-" });
  const kvPath = `${dir}/turismo.kv`;
  await using model = startFakeOpenAI();
  // The test reads and seeds the very file the instances share.
  const kv = await openKv(kvPath);
  const { secret } = await getOrCreateSigningSecret(kv);
  const instances: ServiceProcess[] = [];
  try {
    // Every request comes from 127.0.0.1: one client as far as limits go.
    const env = {
      KV_PATH: kvPath,
      TOURISM_DATA: DATA_PATH,
      OPENAI_API_KEY: "x",
      OPENAI_BASE_URL: model.url,
      IP_BUDGET_PER_MINUTE: String(IP_BUDGET),
    };
    for (let i = 0; i < 3; i++) {
      instances.push(startService({ env, port: await getFreePort() }));
    }
    await Promise.all(instances.map(waitUntilHealthy));
    const at = (i: number) => instances[i % instances.length].url;
    // The per-IP budget's estimate is exact within one fixed minute and
    // weighs the previous minute's hits by how much of it is still in the
    // window: hits counted before a minute's turn and the flood after it
    // let one more through. The steps up to the budget's take well under
    // 30 s, so they start with at least that much of a minute ahead.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 30_000) await new Promise((done) => setTimeout(done, left));

    await t.step(
      "30 concurrent chat requests from one IP get exactly 20 answers and 10 × 429",
      async () => {
        const responses = await Promise.all(
          Array.from(
            { length: 30 },
            (_, i) =>
              postJsonTo(`${at(i)}/api/chat`, { message: `Pregunta ${i}` }),
          ),
        );
        const bodies = await Promise.all(responses.map((res) => res.json()));
        const ok = responses.filter((res) => res.status === 200);
        const limited = responses.filter((res) => res.status === 429);
        assert.equal(
          ok.length,
          20,
          `statuses ${responses.map((r) => r.status)}`,
        );
        assert.equal(limited.length, 10);
        for (const [i, res] of responses.entries()) {
          assert.deepEqual(Object.keys(bodies[i]), ["reply"]);
          if (res.status === 429) assert.ok(res.headers.get("retry-after"));
        }
        assert.equal(model.requests.length, 20);
        const stored = await getRateLimitEntry(kv, {
          scope: "chat",
          subject: "127.0.0.1",
        });
        assert.equal(stored.value?.length, 20);
      },
    );

    await t.step(
      "one user's 17 concurrent verifications count 17 and unlock each badge exactly once",
      async () => {
        const codes = [...(await loadShippedData()).slugByGuideCode.keys()];
        assert.equal(codes.length, 17);
        const userId = randomUserId();
        const token = await signOwnToken(secret, userId);
        const responses = await Promise.all(
          codes.map((code, i) =>
            postJsonTo(`${at(i)}/api/turismo/verify-visit`, { code, userId }, {
              authorization: `Bearer ${token}`,
            })
          ),
        );
        const bodies = await Promise.all(responses.map((res) => res.json()));
        assert.deepEqual(
          responses.map((res) => res.status),
          Array(17).fill(200),
          JSON.stringify(bodies),
        );
        const unlocked = bodies.flatMap((body) =>
          body.badge ? [body.badge.id] : []
        );
        assert.deepEqual(unlocked.sort(), [
          "explorador",
          "leyenda",
          "veterano",
        ]);
        assert.equal(new Set(bodies.map((body) => body.visitId)).size, 17);
        assert.deepEqual(await getUserStats(kv, userId), {
          visitCount: 17,
          badgeCount: 3,
        });
        assert.equal((await listVisits(kv, userId)).length, 17);
        assert.deepEqual(
          (await listBadges(kv, userId)).map((badge) => badge.id).sort(),
          ["explorador", "leyenda", "veterano"],
        );
      },
    );

    await t.step(
      "the same request posted to all three at once creates one ticket",
      async () => {
        const body = ticketBody();
        // One request sent three times: its Idempotency-Key makes it so.
        const key = { "idempotency-key": crypto.randomUUID() };
        const responses = await Promise.all(
          instances.map(({ url }) =>
            postJsonTo(`${url}/api/turismo/ticket`, body, key)
          ),
        );
        const bodies = await Promise.all(responses.map((res) => res.json()));
        assert.deepEqual(
          responses.map((res) => res.status),
          [200, 200, 200],
          JSON.stringify(bodies),
        );
        assert.equal(new Set(bodies.map((b) => b.wpId)).size, 1);
        const ticket = await getTicket(kv, body.shareCode);
        assert.equal(ticket?.wpId, bodies[0].wpId);
        assert.equal(
          (await getCmsPost(kv, body.shareCode))?.wpId,
          ticket?.wpId,
        );
        // The embedded CMS handed out exactly one post id.
        assert.equal((await kv.get(keys.cmsPostCounter())).value, 1n);
      },
    );

    await t.step(
      "the per-IP budget is counted by each instance: exactly its own budget each, three budgets together",
      async () => {
        const slug = SHIPPED.attractions[0].slug;
        // What each instance counted so far: the requests above went to
        // instance i % 3 (chat 10 each, verifications 6, 6, 5, one ticket).
        const counted = [17, 17, 16];
        let allowed = 0;
        for (const [i, instance] of instances.entries()) {
          const responses = await Promise.all(
            Array.from(
              { length: IP_BUDGET + 10 },
              () => fetch(`${instance.url}/turismo/atractivos/${slug}`),
            ),
          );
          const statuses = responses.map((res) => res.status);
          await Promise.all(responses.map((res) => res.body?.cancel()));
          const ok = statuses.filter((s) => s === 200).length;
          assert.equal(ok, IP_BUDGET - counted[i], `instance ${i}`);
          assert.equal(
            statuses.filter((s) => s === 429).length,
            10 + counted[i],
          );
          allowed += ok + counted[i];
        }
        assert.equal(allowed, 3 * IP_BUDGET);
        // Nothing of the budget is in KV: no shared write per request.
        for await (const entry of kv.list({ prefix: [] })) {
          assert.ok(
            !JSON.stringify(entry.key).includes("127.0.0.1") ||
              entry.key[0] === "rate_limits",
            JSON.stringify(entry.key),
          );
        }
      },
    );

    await t.step("no instance logged an unexpected error", () => {
      for (const instance of instances) {
        assert.doesNotMatch(
          instance.output(),
          /Unhandled error|database is locked|limiter failed/,
        );
      }
    });
  } finally {
    await stopServices(instances);
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

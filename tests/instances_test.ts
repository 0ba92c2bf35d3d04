/**
 * Several instances, one truth: three service processes (`deno run -A
 * main.ts`) on three ports share one KV file, as instances behind a load
 * balancer share Deno Deploy's KV. The chat limit, badges and tickets must
 * come out exactly as with one process, because nothing that matters lives
 * in process memory; the per-IP budget, shared through KV every flush
 * interval, within its stated slack.
 */
import assert from "node:assert/strict";
import { getShareStep } from "@/lib/limits/approximate_limiter.ts";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { getCmsPost } from "@/lib/db/cms_posts.ts";
import { keys } from "@/lib/db/keys.ts";
import { openKv } from "@/lib/db/kv.ts";
import { getRateLimitEntry, getRateLimitTotals } from "@/lib/db/rate_limits.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import { getTicket } from "@/lib/db/tickets.ts";
import { getUserStats, listBadges, listVisits } from "@/lib/db/visits.ts";
import {
  IP_BUDGET_FLUSH_INTERVAL_MS,
  IP_BUDGET_SCOPE,
  IP_BUDGET_WINDOW_MS,
} from "@/lib/limits/ip_budget.ts";
import { startFakeOpenAI } from "./fake_openai.ts";
import {
  getFreePort,
  postJsonTo,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "./service_process.ts";
import {
  DATA_PATH,
  randomEmail,
  randomShareCode,
  randomUserId,
} from "./test_utils.ts";

const IP_BUDGET = 120;

/** Every instance's stored budget counts of 127.0.0.1, by minute. */
async function getStoredBudget(kv: Deno.Kv): Promise<Map<number, number>> {
  const bucket = Math.floor(Date.now() / IP_BUDGET_WINDOW_MS);
  const totals = await getRateLimitTotals(kv, {
    scope: IP_BUDGET_SCOPE,
    subject: "127.0.0.1",
    fromBucket: bucket - 5,
    toBucket: bucket + 1,
  });
  return new Map([...totals].map(([b, { total }]) => [b, total]));
}

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
    let counted = 0;

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
        counted += 30;
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
        const loaded = await loadTourismData(DATA_PATH);
        const codes = [...loaded.slugByGuideCode.keys()];
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
        counted += 17;
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
      "the same share code posted to all three at once creates one ticket",
      async () => {
        const body = {
          name: "Lucía Fernández",
          email: randomEmail(),
          shareCode: randomShareCode(),
        };
        const responses = await Promise.all(
          instances.map(({ url }) =>
            postJsonTo(`${url}/api/turismo/ticket`, body)
          ),
        );
        counted += 3;
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
      "the per-IP budget is shared: refused past it with bounded slack, then by every instance",
      async () => {
        const slug = (await loadTourismData(DATA_PATH)).data.attractions[0]
          .slug;
        const left = IP_BUDGET - counted;
        // Waves of 5 requests per instance, each wave after the instances
        // have exchanged their counts (a flush, then a read-back: at most two
        // flush intervals). Within a wave an instance cannot see the other
        // two's requests, and each instance may keep fewer than δ hits to
        // itself while far from the budget: that is the slack.
        const perInstance = 5;
        const slack = 2 * perInstance + 3 * (getShareStep(IP_BUDGET) - 1);
        let allowed = 0;
        for (let wave = 0;; wave++) {
          assert.ok(wave < 30, "refused eventually");
          const responses = await Promise.all(
            Array.from(
              { length: 3 * perInstance },
              (_, i) => fetch(`${at(i)}/turismo/atractivos/${slug}`),
            ),
          );
          const statuses = responses.map((res) => res.status);
          await Promise.all(responses.map((res) => res.body?.cancel()));
          assert.ok(
            statuses.every((s) => s === 200 || s === 429),
            `${statuses}`,
          );
          const ok = statuses.filter((s) => s === 200).length;
          allowed += ok;
          if (ok === 0) break; // every instance refused its 5
          await new Promise((resolve) =>
            setTimeout(resolve, 3 * IP_BUDGET_FLUSH_INTERVAL_MS + 150)
          );
        }
        // Never refused below the budget (earlier minutes only weigh less).
        assert.ok(allowed >= left, `allowed ${allowed}, left ${left}`);
        // Once flushed, KV holds exactly what the instances allowed...
        const deadline = Date.now() + 5_000;
        let stored = 0;
        while (Date.now() < deadline) {
          stored = [...(await getStoredBudget(kv)).values()]
            .reduce((sum, n) => sum + n, 0);
          if (stored === counted + allowed) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.equal(stored, counted + allowed);
        // ...and the sliding estimate exceeds the budget by at most the slack.
        const now = Date.now();
        const bucket = Math.floor(now / IP_BUDGET_WINDOW_MS);
        const elapsed = (now - bucket * IP_BUDGET_WINDOW_MS) /
          IP_BUDGET_WINDOW_MS;
        const totals = await getStoredBudget(kv);
        const estimate = (totals.get(bucket - 1) ?? 0) * (1 - elapsed) +
          (totals.get(bucket) ?? 0);
        assert.ok(
          estimate <= IP_BUDGET + slack,
          `estimate ${estimate} ≤ ${IP_BUDGET} + ${slack}`,
        );
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

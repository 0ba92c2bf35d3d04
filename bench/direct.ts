/**
 * The same work as a write endpoint, without HTTP: the endpoint's library
 * call in a loop on a fresh KV file (or `:memory:`) for a fixed time, with as
 * many calls in flight as the load generator keeps connections open. It is
 * the limit the endpoint's HTTP figure is compared with (bench/load.ts).
 *
 *   deno run -A bench/direct.ts <op> <kvPath> <seconds> <concurrency> [modelUrl]
 *
 * op: verify (recordVisit, the transaction behind verify-visit),
 * lean-verify (the least a verification can write: one read, two checks,
 * three sets, the limit verify-visit is measured against), rate
 * (rateVisit), ticket (createTicket on the KV CMS), chat (limiter, prompt and
 * a model call to the stand-in at modelUrl). Prints one JSON line.
 */
import OpenAI from "openai";
import { parseChatInput } from "@/lib/chat/input.ts";
import { completeChat } from "@/lib/chat/model.ts";
import { buildChatMessages, buildRequestContext } from "@/lib/chat/prompt.ts";
import { createPromptCache } from "@/lib/chat/prompt_cache.ts";
import { CHAT_RATE_LIMIT } from "@/lib/limits/chat_limit.ts";
import { createKvCms } from "@/lib/cms/kv.ts";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { openKv } from "@/lib/db/kv.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import { createTicket } from "@/lib/tickets/create_ticket.ts";
import { GUIDE_CODE_LIMIT } from "@/lib/check_in/rules.ts";

/** What one run measured. */
export interface DirectResult {
  op: string;
  ops: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const DATA_PATH = new URL("../data/turismo.json", import.meta.url).pathname;

/** Runs `call(i)` with `concurrency` in flight until `seconds` pass. */
export async function runLoop(
  op: string,
  call: (i: number) => Promise<unknown>,
  { seconds, concurrency }: { seconds: number; concurrency: number },
): Promise<DirectResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  async function lane() {
    while (performance.now() < end) {
      const i = next++;
      const t0 = performance.now();
      try {
        await call(i);
        latencies.push(performance.now() - t0);
      } catch (error) {
        if (errors++ === 0) console.error(`${op}:`, error);
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies.length
      ? latencies[
        Math.min(latencies.length - 1, Math.floor(q * latencies.length))
      ]
      : NaN;
  return {
    op,
    ops: latencies.length,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors,
  };
}

/** Call i's user and attraction: u = i mod U, attraction (u + i div U) mod 17. */
export function spread<T>(
  i: number,
  users: T[],
  slugs: string[],
): { user: T; slug: string } {
  const u = i % users.length;
  const k = Math.floor(i / users.length);
  return { user: users[u], slug: slugs[(u + k) % slugs.length] };
}

if (import.meta.main) {
  const [op, kvPath, secondsArg, concurrencyArg, modelUrl] = Deno.args;
  const seconds = Number(secondsArg ?? 5);
  const concurrency = Number(concurrencyArg ?? 32);
  const kv = await openKv(kvPath ?? ":memory:");
  const loaded = await loadTourismData(DATA_PATH);
  const slugs = loaded.data.attractions.map((a) => a.slug);
  const now = () => new Date();
  const run = (call: (i: number) => Promise<unknown>) =>
    runLoop(op, call, { seconds, concurrency });
  let result: DirectResult;

  switch (op) {
    case "verify": {
      // Fresh users and codes, spread as bench/lua/verify.lua spreads them:
      // call i is user u = i mod U at attraction (u + k) mod 17, k = i div U,
      // so every call creates a visit and calls in flight touch different
      // users and attractions.
      const users = Array.from({ length: 4000 }, () => crypto.randomUUID());
      result = await run(async (i) => {
        const { user, slug } = spread(i, users, slugs);
        const outcome = await recordVisit(kv, {
          userId: user,
          slug,
          now: now(),
          totalAttractions: loaded.totalAttractions,
          rateLimits: [{ ...GUIDE_CODE_LIMIT, subject: user }],
        });
        if (outcome.status !== "created") throw new Error(outcome.status);
      });
      break;
    }
    case "lean-verify": {
      // The floor of any verification: read the visit, check it and its id
      // are new, write the visit, its id and the user's count.
      const users = Array.from({ length: 4000 }, () => crypto.randomUUID());
      result = await run(async (i) => {
        const { user, slug } = spread(i, users, slugs);
        const visitKey = ["lean_visits", user, slug];
        const visit = await kv.get(visitKey);
        if (visit.value) throw new Error("duplicate");
        const visitId = crypto.randomUUID();
        const committed = await kv.atomic()
          .check(visit)
          .check({ key: ["lean_visits_by_id", visitId], versionstamp: null })
          .set(visitKey, { visitId, visitedAt: now().toISOString() })
          .set(["lean_visits_by_id", visitId], [user, slug])
          .set(["lean_user_stats", user], { visitCount: i })
          .commit();
        if (!committed.ok) throw new Error("conflict");
      });
      break;
    }
    case "rate": {
      const users = Array.from({ length: 100 }, () => crypto.randomUUID());
      for (const userId of users) {
        for (const slug of slugs) {
          await recordVisit(kv, {
            userId,
            slug,
            now: now(),
            totalAttractions: loaded.totalAttractions,
          });
        }
      }
      result = await run(async (i) => {
        const { user, slug } = spread(i, users, slugs);
        const visit = await rateVisit(kv, {
          userId: user,
          slug,
          rating: 1 + (i % 5),
          notes: "Muy recomendable",
          now: now(),
        });
        if (!visit) throw new Error("no visit");
      });
      break;
    }
    case "ticket": {
      const cms = createKvCms(kv);
      const prefix = crypto.randomUUID().slice(0, 8);
      result = await run((i) =>
        createTicket({ kv, cms, now, onChange: () => {} }, {
          shareCode: `d${prefix}-${i}`,
          name: "Viajera de prueba",
          email: `v${prefix}-${i}@ejemplo.mx`,
          phone: "+52 33 1234 5678",
        })
      );
      break;
    }
    case "chat": {
      if (!modelUrl) throw new Error("chat needs the stand-in model's URL");
      const openai = new OpenAI({
        apiKey: "x",
        baseURL: modelUrl,
        timeout: 30_000,
        maxRetries: 1,
      });
      const prompts = createPromptCache();
      const salt = Math.floor(Math.random() * 200);
      result = await run(async (i) => {
        const limit = await hitRateLimit(kv, {
          scope: "chat",
          subject: `10.${salt}.${(i >> 8) & 255}.${i & 255}`,
          ...CHAT_RATE_LIMIT,
          now: now(),
        });
        if (!limit.allowed) throw new Error("limited");
        const input = parseChatInput({
          message: "¿Qué puedo visitar hoy?",
        });
        await completeChat(openai, {
          model: "bench",
          messages: buildChatMessages({
            stablePrompt: await prompts.get(loaded, now()),
            requestContext: buildRequestContext(loaded.data, { now: now() }),
            input,
          }),
        });
      });
      break;
    }
    default:
      throw new Error(`Unknown op ${op}`);
  }
  kv.close();
  console.log(JSON.stringify(result));
}

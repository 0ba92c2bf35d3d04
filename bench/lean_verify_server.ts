/**
 * The limit of verify-visit over HTTP: a bare `Deno.serve` that, for each
 * `POST /api/turismo/verify-visit`, parses the JSON body and does the KV
 * work of a new visit as leanly as it can be done, with as many keys as the
 * service's own verification touches: one `getMany` of the keys it reads,
 * a list of the user's visits if the service reads one (it reads them from
 * the counters entry now), and one `kv.atomic()` with its checks and
 * its writes (visit, visit id, counters, badge, the attraction's count, the
 * dashboard's day counters). No token check, no validation, no log.
 *
 * The numbers are not written down here: at start it runs the service's
 * own `verifyVisit` once on an in-memory KV whose calls it counts, so the
 * lean transaction follows the real one when that changes.
 *
 *   deno run -A bench/lean_verify_server.ts <port> <kv-path>
 *
 * `deno run -A bench/lean_verify_server.ts --shape` prints the shape alone.
 */
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { normalizeGuideCode } from "@/lib/data/guide_code.ts";
import type { DataStore } from "@/lib/data/data_store.ts";
import { openKv } from "@/lib/db/kv.ts";
import { verifyVisit } from "@/lib/check_in/verify_visit.ts";

/** What one new visit costs in KV calls. */
export interface VerifyShape {
  /** Keys read with `get`/`getMany`, over all the reads. */
  readKeys: number;
  /** `get`/`getMany` calls. */
  reads: number;
  /** `list` calls. */
  lists: number;
  /** Checks in the committed atomic. */
  checks: number;
  /** `set`s in it. */
  sets: number;
  /** `sum`s in it. */
  sums: number;
  /** Atomics committed. */
  commits: number;
}

const DATA_PATH = new URL("../data/turismo.json", import.meta.url).pathname;

/** Counts the KV calls of one new verification by the service's own code. */
export async function measureVerifyShape(): Promise<VerifyShape> {
  const loaded = await loadTourismData(DATA_PATH);
  const real = await Deno.openKv(":memory:");
  const shape: VerifyShape = {
    readKeys: 0,
    reads: 0,
    lists: 0,
    checks: 0,
    sets: 0,
    sums: 0,
    commits: 0,
  };
  const counting = new Proxy(real, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      if (name === "getMany") {
        return (keys: Deno.KvKey[], ...rest: unknown[]) => {
          shape.reads++;
          shape.readKeys += keys.length;
          return target.getMany(keys, ...rest as []);
        };
      }
      if (name === "get") {
        return (key: Deno.KvKey, ...rest: unknown[]) => {
          shape.reads++;
          shape.readKeys++;
          return target.get(key, ...rest as []);
        };
      }
      if (name === "list") {
        return (...args: unknown[]) => {
          shape.lists++;
          return target.list(...args as [Deno.KvListSelector]);
        };
      }
      if (name === "atomic") {
        return () => countAtomic(target.atomic(), shape);
      }
      return value.bind(target);
    },
  });
  const [code, slug] = [...loaded.slugByGuideCode][0];
  const result = await verifyVisit({
    kv: counting,
    data: { current: () => loaded } as unknown as DataStore,
    now: () => new Date(),
    onChange: () => {},
  }, { userId: crypto.randomUUID(), code, clientIp: "10.0.0.1" });
  real.close();
  if (result.atractivo !== slug) throw new Error("probe: wrong attraction");
  return shape;
}

function countAtomic(
  operation: Deno.AtomicOperation,
  shape: VerifyShape,
): Deno.AtomicOperation {
  let checks = 0, sets = 0, sums = 0;
  const proxy: Deno.AtomicOperation = new Proxy(operation, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (name === "check") checks += args.length;
        if (name === "set") sets++;
        if (name === "sum") sums++;
        if (name === "commit") {
          return (value as () => Promise<Deno.KvCommitResult>).call(target)
            .then((r) => {
              shape.commits++;
              shape.checks += checks;
              shape.sets += sets;
              shape.sums += sums;
              return r;
            });
        }
        value.apply(target, args);
        return proxy;
      };
    },
  });
  return proxy;
}

/** Serves the lean verification on `kvPath` with `shape`'s keys. */
export async function serveLeanVerify(
  port: number,
  kvPath: string,
  shape: VerifyShape,
): Promise<Deno.HttpServer> {
  const kv = await openKv(kvPath);
  const loaded = await loadTourismData(DATA_PATH);
  const slugByCode = loaded.slugByGuideCode;
  // Beyond the visit and the counters: the other keys it reads, checks
  // and writes, named after the user (or the attraction, for sums).
  const extraReads = Math.max(0, shape.readKeys - 2);
  const extraChecks = Math.max(0, shape.checks - 3);
  const extraSets = Math.max(0, shape.sets - 3);
  const json = { "content-type": "application/json" };
  return Deno.serve({ hostname: "127.0.0.1", port }, async (request) => {
    if (request.method !== "POST") return new Response("ok");
    const { code, userId } = await request.json();
    const slug = slugByCode.get(normalizeGuideCode(String(code))) ?? "none";
    const visitKey = ["lean_visits", userId, slug];
    const statsKey = ["lean_user_stats", userId];
    const readKeys: Deno.KvKey[] = [visitKey, statsKey];
    for (let i = 0; i < extraReads; i++) {
      readKeys.push(["lean_read", userId, i]);
    }
    const entries = await kv.getMany(readKeys);
    if (entries[0].value) {
      return new Response('{"error":"duplicate"}', {
        status: 409,
        headers: json,
      });
    }
    for (let i = 0; i < shape.lists; i++) {
      for await (const _ of kv.list({ prefix: ["lean_visits", userId] })) {
        // the user's other visits
      }
    }
    const visitId = crypto.randomUUID();
    const operation = kv.atomic().check(entries[0], entries[1]).check({
      key: ["lean_visits_by_id", visitId],
      versionstamp: null,
    });
    for (let i = 0; i < extraChecks; i++) {
      operation.check(entries[Math.min(2 + i, entries.length - 1)]);
    }
    const visitedAt = new Date().toISOString();
    operation
      .set(visitKey, { visitId, userId, slug, visitedAt })
      .set(["lean_visits_by_id", visitId], [userId, slug])
      .set(statsKey, { visitCount: 1, badgeCount: 0, badges: [] });
    for (let i = 0; i < extraSets; i++) {
      operation.set(["lean_set", userId, slug, i], { visitedAt });
    }
    for (let i = 0; i < shape.sums; i++) {
      operation.sum(["lean_count", slug, visitedAt.slice(0, 10), i], 1n);
    }
    const committed = await operation.commit();
    if (!committed.ok) {
      return new Response('{"error":"conflict"}', {
        status: 409,
        headers: json,
      });
    }
    return new Response(
      JSON.stringify({ success: true, visitId, atractivo: slug, badge: null }),
      { headers: json },
    );
  });
}

if (import.meta.main) {
  const shape = await measureVerifyShape();
  if (Deno.args[0] === "--shape") {
    console.log(JSON.stringify(shape));
  } else {
    console.log(`LEAN_SHAPE ${JSON.stringify(shape)}`);
    await serveLeanVerify(Number(Deno.args[0]), Deno.args[1], shape);
  }
}

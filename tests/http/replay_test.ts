/**
 * Kept answers replayed before Hono (lib/http/replay.ts): the same bytes and
 * headers as the app's own answer, counted against the address's budget and
 * logged as any request, never for a request whose answer may differ, and
 * never once what they show has changed.
 */
import assert from "node:assert/strict";
import { RequestLog } from "@/lib/http/request_log.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  type TestContext,
  ticketBody,
} from "../test_utils.ts";

const CONNECTION = { remoteAddr: { hostname: "203.0.113.9", port: 5000 } };

/** A GET as `Deno.serve` hands it to the app: an absolute URL and the connection's address. */
function serve(
  ctx: TestContext,
  path: string,
  headers: Record<string, string> = {},
  init: RequestInit = {},
): Promise<Response> {
  return Promise.resolve(
    ctx.app.fetch(
      new Request(`http://turismo.test${path}`, { headers, ...init }),
      CONNECTION,
    ),
  );
}

async function read(res: Response) {
  return {
    status: res.status,
    headers: [...res.headers].sort(),
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

Deno.test("a kept page is replayed with its very bytes and headers, without rendering", async () => {
  await using ctx = await createTestContext({ cachePages: true });
  const headers = { "accept-encoding": "br, gzip" };
  const first = await read(await serve(ctx, "/turismo/atractivos", headers));
  assert.equal(first.status, 200);
  const { hits, misses } = ctx.deps.pageCache!.stats;
  const again = await read(await serve(ctx, "/turismo/atractivos", headers));
  assert.deepEqual(again, first);
  // Answered before the router: the page cache was not even asked.
  assert.deepEqual(
    [ctx.deps.pageCache!.stats.hits, ctx.deps.pageCache!.stats.misses],
    [hits, misses],
  );
  assert.equal(ctx.deps.replayedAnswers.stats.replays, 1);
  // Another coding is another answer (its own bytes), not this one's.
  const plain = await read(await serve(ctx, "/turismo/atractivos"));
  assert.equal(
    plain.headers.some(([name]) => name === "content-encoding"),
    false,
  );
  assert.notDeepEqual(plain.body, first.body);
});

Deno.test("a write drops the replayed route page at once", async () => {
  await using ctx = await createTestContext({ cachePages: true });
  const { shareCode } = await assertJson(
    await postJson(ctx, "/api/turismo/ticket", ticketBody({ name: "Lucía" })),
    200,
  );
  const path = `/ruta/${shareCode}`;
  assert.match(await (await serve(ctx, path)).text(), /Lucía/);
  assert.match(await (await serve(ctx, path)).text(), /Lucía/);
  assert.equal(ctx.deps.replayedAnswers.stats.replays, 1);
  // A write that drops the page (here an erasure of its ticket) drops the
  // kept answer with it.
  ctx.deps.onChange({
    kind: "erasure",
    userId: null,
    shareCodes: [shareCode],
    slugs: [],
  });
  const { misses } = ctx.deps.pageCache!.stats;
  await (await serve(ctx, path)).body?.cancel();
  assert.equal(ctx.deps.pageCache!.stats.misses, misses + 1);
  assert.equal(ctx.deps.replayedAnswers.stats.replays, 1);
  // The page's TTL passes: not current any more either.
  await (await serve(ctx, path)).body?.cancel();
  assert.equal(ctx.deps.replayedAnswers.stats.replays, 2);
  ctx.clock.advance(60_000);
  await (await serve(ctx, path)).body?.cancel();
  assert.equal(ctx.deps.replayedAnswers.stats.replays, 2);
});

Deno.test("replayed answers count against the address's budget and are logged", async () => {
  const lines: string[] = [];
  const requestLog = new RequestLog({
    write: (text) => {
      lines.push(...text.trimEnd().split("\n"));
      return Promise.resolve();
    },
  });
  await using ctx = await createTestContext({
    cachePages: true,
    requestLog,
    env: { IP_BUDGET_PER_MINUTE: "5" },
  });
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await serve(ctx, "/turismo/atractivos");
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
  await requestLog.flush();
  const pageLines = lines.filter((line) =>
    line.startsWith("GET /turismo/atractivos ")
  );
  assert.equal(pageLines.length, 7);
  assert.match(pageLines[3], /^GET \/turismo\/atractivos 200 \d+\.\dms$/);
});

Deno.test("requests whose answer may differ are never replayed", async (t) => {
  await using ctx = await createTestContext({ cachePages: true });
  await (await serve(ctx, "/turismo/atractivos")).body?.cancel();
  await (await serve(ctx, "/turismo/atractivos")).body?.cancel();
  assert.equal(ctx.deps.replayedAnswers.stats.replays, 1);
  const cases: [string, Record<string, string>, RequestInit][] = [
    ["Authorization", { authorization: "Bearer x" }, {}],
    ["Origin", { origin: "https://elsewhere.example" }, {}],
    ["If-None-Match", { "if-none-match": '"x"' }, {}],
    ["Range", { range: "bytes=0-10" }, {}],
    ["HEAD", {}, { method: "HEAD" }],
  ];
  for (const [name, headers, init] of cases) {
    await t.step(name, async () => {
      const { replays } = ctx.deps.replayedAnswers.stats;
      const res = await serve(ctx, "/turismo/atractivos", headers, init);
      await res.body?.cancel();
      assert.equal(res.status < 500, true);
      assert.equal(ctx.deps.replayedAnswers.stats.replays, replays);
    });
  }
});

Deno.test("the health check is replayed only while KV's last answer is fresh", async () => {
  await using ctx = await createTestContext();
  const ok = await serve(ctx, "/healthz");
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).status, "ok");
  ctx.deps.kv.close();
  // Within the ping's second: the answer KV gave is still the one.
  assert.equal((await serve(ctx, "/healthz")).status, 200);
  ctx.clock.advance(1_000);
  const down = await serve(ctx, "/healthz");
  assert.equal(down.status, 503);
  assert.equal((await down.json()).error !== undefined, true);
});

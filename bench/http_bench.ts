/**
 * Per-request cost of the hot paths, in process (`deno task bench`): the
 * real app answering `app.request()` on a KV file, without sockets, so the
 * figures are the service's own CPU time per request. The load harness
 * (bench/load.ts) gives the throughput over HTTP; this one is quick enough
 * to run after any change to a hot path.
 */
import { formatDate, plural } from "@/lib/format/format.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import { createTestContext } from "@/tests/test_utils.ts";
import { seedRouteUser } from "./seed.ts";

const dir = await Deno.makeTempDir({ prefix: "turismo-http-bench-" });
const ctx = await createTestContext({
  kvPath: `${dir}/bench.kv`,
  // The per-IP budget is measured separately (bench/load.ts).
  env: { IP_BUDGET_PER_MINUTE: "0" },
});
const { kv } = ctx.deps;
const loaded = ctx.deps.data.current();
const slugs = loaded.data.attractions.map((a) => a.slug);
const codes = slugs.map((slug) =>
  [...loaded.slugByGuideCode].find(([, s]) => s === slug)![0]
);

// A route with seven visits, some rated, and its ticket.
const routeUser = await seedRouteUser(kv, slugs, {
  now: ctx.clock.now(),
  totalAttractions: loaded.totalAttractions,
});
await saveTicket(kv, {
  shareCode: "bench-ruta",
  name: "María José Ñúñez",
  email: "maria@ejemplo.mx",
  phone: null,
  wpId: 1,
  userId: routeUser,
  createdAt: ctx.clock.now().toISOString(),
});

async function get(path: string): Promise<void> {
  const res = await ctx.app.request(path);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
}

// Warm the share card's render cache.
await get("/api/turismo/og/bench-ruta");

Deno.bench("GET /healthz", { group: "read" }, async () => {
  await get("/healthz");
});

Deno.bench(
  "GET /turismo/atractivos/<slug>",
  { group: "read" },
  async () => {
    await get(`/turismo/atractivos/${slugs[0]}`);
  },
);

Deno.bench("GET /ruta/<code> (7 visits)", { group: "read" }, async () => {
  await get("/ruta/bench-ruta");
});

Deno.bench(
  "GET /api/turismo/og/<code> (render cached)",
  { group: "read" },
  async () => {
    await get("/api/turismo/og/bench-ruta");
  },
);

// verify-visit: a fresh user and code each time; signing tokens is setup.
let pair = 0;
let user = { id: "", token: "" };
Deno.bench(
  "POST /api/turismo/verify-visit (fresh user and code)",
  { group: "write" },
  async (b) => {
    const i = pair++;
    if (i % codes.length === 0) {
      const id = crypto.randomUUID();
      user = { id, token: await ctx.tokenFor(id) };
    }
    b.start();
    const res = await ctx.app.request("/api/turismo/verify-visit", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${user.token}`,
      },
      body: JSON.stringify({ code: codes[i % codes.length], userId: user.id }),
    });
    await res.arrayBuffer();
    b.end();
    if (res.status !== 200) throw new Error(`verify-visit: ${res.status}`);
  },
);

Deno.bench(
  "recordVisit alone (the same transaction)",
  { group: "write" },
  async (b) => {
    const i = pair++;
    if (i % codes.length === 0) user = { id: crypto.randomUUID(), token: "" };
    b.start();
    await recordVisit(kv, {
      userId: user.id,
      slug: slugs[i % slugs.length],
      now: ctx.clock.now(),
      totalAttractions: loaded.totalAttractions,
    });
    b.end();
  },
);

const iso = "2026-11-22T15:00:00Z";
Deno.bench("formatDate (memoised formatter)", { group: "format" }, () => {
  formatDate(iso, "America/Mexico_City");
  plural(7, "visita", "visitas");
});

Deno.bench(
  "new Intl.DateTimeFormat per call (before)",
  { group: "format", baseline: true },
  () => {
    new Intl.DateTimeFormat("es-MX", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "America/Mexico_City",
    }).format(new Date(iso));
    (7).toLocaleString("es-MX");
  },
);

globalThis.addEventListener("unload", () => {
  ctx[Symbol.asyncDispose]();
  Deno.removeSync(dir, { recursive: true });
});

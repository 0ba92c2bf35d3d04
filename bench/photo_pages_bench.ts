/**
 * What photos add to an attraction page's render (`deno bench -A
 * bench/photo_pages_bench.ts`): the page rendered on every request (no page
 * cache, as a cache miss is), without photos and with three, on a KV file.
 * With the page cache a hit reads nothing either way.
 */
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { makeJpeg } from "@/tests/photo_fixtures.ts";
import {
  createTestContext,
  mutateShipped,
  SHIPPED,
} from "@/tests/test_utils.ts";

const dir = await Deno.makeTempDir({ prefix: "turismo-photo-bench-" });
const setup = await createTestContext({ kvPath: `${dir}/bench.kv` });
const ids: string[] = [];
for (let i = 0; i < 3; i++) {
  const photo = await setup.deps.photos.upload({
    file: { bytes: await makeJpeg(1600 + i * 8, 1200), name: `${i}.jpg` },
    altEs: `Foto ${i}`,
    altEn: `Photo ${i}`,
    credit: "Oficina de Turismo",
    staff: { id: "bench", email: "bench@municipio.gob.mx", role: "admin" },
  });
  ids.push(photo.id);
}
const env = { IP_BUDGET_PER_MINUTE: "0" };
// The same attraction's page, from the shipped data set and from one that
// gives it the three photos, on one KV.
const plain = await createTestContext({ kv: setup.deps.kv, env });
const withPhotos = await createTestContext({
  kv: setup.deps.kv,
  env,
  data: new DataStore(
    await parseTourismData(mutateShipped((data) => {
      data.attractions[0].photos = ids;
    })),
  ),
});
const path = `/turismo/atractivos/${SHIPPED.attractions[0].slug}`;

async function get(ctx: typeof plain): Promise<void> {
  const res = await ctx.app.request(path);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
}

Deno.bench(
  "GET /turismo/atractivos/<slug>, no photos",
  { group: "attraction", baseline: true, warmup: 50 },
  async () => await get(plain),
);

Deno.bench(
  "GET /turismo/atractivos/<slug>, three photos",
  { group: "attraction", warmup: 50 },
  async () => await get(withPhotos),
);

/**
 * Route pages and share cards are served from each instance's memory,
 * without a KV read per request, and a rename or an erasure on one
 * instance still shows on every other within a second: two service
 * processes on one KV file, as two instances behind a load balancer. Deno's
 * local KV does not tell one process of another's writes (`kv.watch` stays
 * silent across processes), so this is what the watcher's bounded polling
 * of `route_changes` keeps (lib/db/route_changes.ts).
 */
import assert from "node:assert/strict";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { openKv } from "@/lib/db/kv.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import {
  getFreePort,
  postJsonTo,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { DATA_PATH, randomUserId, ticketBody } from "../test_utils.ts";

/** The promise: a rename or an erasure shows on every instance within this. */
const WITHIN_MS = 1_000;

/** What B answers for a route: the page's status and whether it shows `name`, the card's status and ETag. */
async function readRoute(service: ServiceProcess, code: string, name: string) {
  const [page, card] = await Promise.all([
    fetch(`${service.url}/ruta/${code}`),
    fetch(`${service.url}/api/turismo/og/${code}`),
  ]);
  const html = await page.text();
  await card.body?.cancel();
  return {
    page: page.status,
    showsName: html.includes(name),
    card: card.status,
    etag: card.headers.get("etag"),
  };
}

/**
 * Asks `service` again (every 20 ms) until `done` holds of its answer and
 * returns how long after `since` the first such answer was asked for;
 * fails once it has waited past {@linkcode WITHIN_MS}.
 */
async function waitFor<T>(
  since: number,
  ask: () => Promise<T>,
  done: (answer: T) => boolean,
): Promise<number> {
  for (;;) {
    const askedAt = performance.now() - since;
    const answer = await ask();
    if (done(answer)) return askedAt;
    assert.ok(
      askedAt <= WITHIN_MS,
      `still ${JSON.stringify(answer)} ${Math.round(askedAt)} ms after`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("a rename or an erasure on instance A shows on instance B within 1 s", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-route-changes-" });
  const kvPath = `${dir}/turismo.kv`;
  const kv = await openKv(kvPath);
  const { secret } = await getOrCreateSigningSecret(kv);
  kv.close();
  const env = { KV_PATH: kvPath, TOURISM_DATA: DATA_PATH };
  const [a, b] = [
    startService({ env, port: await getFreePort() }),
    startService({ env, port: await getFreePort() }),
  ];
  try {
    await Promise.all([a, b].map(waitUntilHealthy));
    const userId = randomUserId();
    const auth = {
      authorization: `Bearer ${await signOwnToken(secret, userId)}`,
    };
    const body = ticketBody({ name: "Nombre Anterior" });
    const code = body.shareCode;
    const made = await postJsonTo(`${a.url}/api/turismo/ticket`, body, auth);
    assert.equal(made.status, 200, await made.text());
    // B has the page and the card in memory (asked twice).
    const before = await readRoute(b, code, "Nombre Anterior");
    assert.deepEqual(await readRoute(b, code, "Nombre Anterior"), before);
    assert.equal(before.page, 200);
    assert.ok(before.showsName);
    assert.equal(before.card, 200);

    await t.step(
      "a rename on A: B's route page and card show the new name within 1 s",
      async () => {
        const res = await postJsonTo(
          `${a.url}/api/turismo/users/${userId}/name`,
          { name: "Nombre Corregido" },
          auth,
        );
        const renamedAt = performance.now();
        assert.equal(res.status, 200, await res.text());
        const waited = await waitFor(
          renamedAt,
          () => readRoute(b, code, "Nombre Anterior"),
          (route) =>
            route.page === 200 && !route.showsName && route.card === 200 &&
            route.etag !== before.etag,
        );
        console.log(`B showed the rename ${Math.round(waited)} ms after it`);
        const after = await readRoute(b, code, "Nombre Corregido");
        assert.equal(after.showsName, true, "the new name on B's page");
        assert.ok(waited <= WITHIN_MS);
      },
    );

    await t.step(
      "an erasure on A: B's route page and card are a 404 within 1 s",
      async () => {
        // Both in B's memory again, with the new name.
        await readRoute(b, code, "Nombre Corregido");
        const res = await postJsonTo(
          `${a.url}/api/turismo/users/${userId}/erase`,
          {},
          auth,
        );
        const erasedAt = performance.now();
        assert.equal(res.status, 202, await res.text());
        const waited = await waitFor(
          erasedAt,
          () => readRoute(b, code, "Nombre Corregido"),
          (route) =>
            route.page === 404 && !route.showsName && route.card === 404,
        );
        console.log(`B showed the erasure ${Math.round(waited)} ms after it`);
        assert.ok(waited <= WITHIN_MS);
      },
    );
  } finally {
    const statuses = await stopServices([a, b]);
    assert.deepEqual(statuses.map((status) => status.code), [0, 0]);
    await Deno.remove(dir, { recursive: true });
  }
});

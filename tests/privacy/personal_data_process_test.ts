/**
 * Erasure with real service processes on one KV file: the route page and
 * card answer 404 on a second instance once the erasure is done; an
 * erasure cut short by `kill -9` while the CMS hangs is finished by the
 * next start by itself; the store is then listed for anything naming the
 * person. The CMS is a small stand-in of WordPress's REST API (posts by
 * slug, private, deleted with `force=true`), served by this test.
 */
import assert from "node:assert/strict";
import { assertNothingNames } from "../kv_dump.ts";
import {
  getFreePort,
  postJsonTo,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { serveApp, SHIPPED, ticketBody } from "../test_utils.ts";

/** A stand-in of WordPress's posts endpoint; `hangDeletes` holds DELETEs unanswered. */
function startFakeWordPress() {
  const posts = new Map<number, Record<string, unknown>>();
  let nextId = 1;
  const state = {
    hangDeletes: false,
    deleteSeen: Promise.withResolvers<void>(),
    /** Ends the DELETEs held so far (answered 503, nothing deleted). */
    release: Promise.withResolvers<void>(),
  };
  const server = serveApp(async (req) => {
    const url = new URL(req.url);
    const match = url.pathname.match(/^\/wp-json\/wp\/v2\/posts(?:\/(\d+))?$/);
    if (!match) return new Response("{}", { status: 404 });
    const id = match[1] ? Number(match[1]) : undefined;
    if (req.method === "GET") {
      const slug = url.searchParams.get("slug");
      return Response.json([...posts.values()].filter((p) => p.slug === slug));
    }
    if (req.method === "POST") {
      const body = await req.json();
      const post: Record<string, unknown> | undefined = id
        ? posts.get(id)
        : { id: nextId++, slug: body.slug };
      if (!post) {
        return Response.json({ code: "rest_post_invalid_id" }, { status: 404 });
      }
      Object.assign(post, {
        title: { raw: body.title ?? (post.title as { raw?: string })?.raw },
        meta: { ...(post.meta as object), ...body.meta },
      });
      posts.set(post.id as number, post);
      return Response.json(post);
    }
    if (req.method === "DELETE" && id) {
      state.deleteSeen.resolve();
      if (state.hangDeletes) {
        await state.release.promise;
        return new Response("{}", { status: 503 });
      }
      if (!posts.delete(id)) {
        return Response.json({ code: "rest_post_invalid_id" }, { status: 404 });
      }
      return Response.json({ deleted: true });
    }
    return new Response("{}", { status: 405 });
  });
  return {
    origin: server.origin,
    posts,
    state,
    async [Symbol.asyncDispose]() {
      state.release.resolve();
      await server[Symbol.asyncDispose]();
    },
  };
}

/** Seeds a guest with two visits, a note and a ticket through `service`. */
async function seed(service: ServiceProcess) {
  const opened = await postJsonTo(`${service.url}/api/session-token`, {
    guest: true,
  }, { origin: service.url });
  assert.equal(opened.status, 200);
  const { token, userId } = await opened.json();
  const auth = { authorization: `Bearer ${token}` };
  for (const attraction of SHIPPED.attractions.slice(0, 2)) {
    const res = await postJsonTo(`${service.url}/api/turismo/verify-visit`, {
      code: attraction.guideCode,
      userId,
    }, auth);
    assert.equal(res.status, 200, await res.text());
  }
  const note = `Nota de prueba ${crypto.randomUUID().slice(0, 8)}`;
  const rated = await postJsonTo(`${service.url}/api/turismo/rate-visit`, {
    userId,
    atractivoSlug: SHIPPED.attractions[0].slug,
    rating: 4,
    notes: note,
  }, auth);
  assert.equal(rated.status, 200, await rated.text());
  const ticket = ticketBody({
    name: `Persona ${crypto.randomUUID().slice(0, 8)}`,
  });
  const created = await postJsonTo(
    `${service.url}/api/turismo/ticket`,
    ticket,
    auth,
  );
  assert.equal(created.status, 200, await created.text());
  return { userId, token, note, ticket, code: ticket.shareCode.toLowerCase() };
}

/** Polls the erasure's status on `service` until it is done. */
async function waitUntilErased(service: ServiceProcess, erasureId: string) {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${service.url}/api/turismo/erasures/${erasureId}`);
    const body = await res.json();
    if (body.status === "done") return;
    assert.equal(body.status, "pending", "never anything but pending or done");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`erasure ${erasureId} not done:\n${service.output()}`);
}

async function status(url: string): Promise<number> {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.status;
}

Deno.test("erasure across service processes", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-erasure-" });
  const kvPath = `${dir}/turismo.kv`;
  await using wordpress = startFakeWordPress();
  const env = {
    KV_PATH: kvPath,
    WP_URL: wordpress.origin,
    WP_USER: "turismo",
    WP_APP_PASSWORD: "abcd efgh ijkl mnop",
  };
  const services: ServiceProcess[] = [];
  const start = async () => {
    const service = startService({ env, port: await getFreePort() });
    services.push(service);
    await waitUntilHealthy(service);
    return service;
  };

  try {
    await t.step(
      "the route page and card are 404 on a second instance, and the code is dead there",
      async () => {
        const [a, b] = [await start(), await start()];
        const tourist = await seed(a);
        const card = `/api/turismo/og/${tourist.code}`;
        // Instance B has the page and the card in memory.
        assert.equal(await status(`${b.url}/ruta/${tourist.code}`), 200);
        assert.equal(await status(`${b.url}${card}`), 200);
        assert.equal(await status(`${b.url}${card}?v=2-0`), 200);

        const erase = await postJsonTo(
          `${a.url}/api/turismo/users/${tourist.userId}/erase`,
          {},
          { authorization: `Bearer ${tourist.token}` },
        );
        assert.equal(erase.status, 202);
        const { erasureId } = await erase.json();
        await waitUntilErased(a, erasureId);
        for (const path of [`/ruta/${tourist.code}`, card, `${card}?v=2-0`]) {
          assert.equal(await status(`${b.url}${path}`), 404, path);
        }
        const again = await postJsonTo(
          `${b.url}/api/turismo/ticket`,
          tourist.ticket,
        );
        assert.equal(again.status, 409);
        await again.body?.cancel();
        assert.equal(wordpress.posts.size, 0, "the CMS post is gone");
        await stopServices(services.splice(0));
      },
    );

    await t.step(
      "an erasure cut by kill -9 while the CMS hangs is finished by the next start",
      async () => {
        const first = await start();
        const tourist = await seed(first);
        assert.equal(wordpress.posts.size, 1);
        wordpress.state.hangDeletes = true;
        wordpress.state.deleteSeen = Promise.withResolvers<void>();
        const erasing = postJsonTo(
          `${first.url}/api/turismo/users/${tourist.userId}/erase`,
          {},
          { authorization: `Bearer ${tourist.token}` },
        ).catch(() => null);
        await wordpress.state.deleteSeen.promise;
        await stopServices(services.splice(0), "SIGKILL");
        assert.equal(await erasing, null, "the request died with the process");
        assert.equal(wordpress.posts.size, 1, "the post outlived the kill");

        // Recorded and pending: the tourist is told "en proceso".
        const kv = await Deno.openKv(kvPath);
        let erasureId: string;
        try {
          const pending = await Array.fromAsync(
            kv.list<string>({ prefix: ["erasures_pending"] }),
          );
          assert.equal(pending.length, 1);
          erasureId = pending[0].key[1] as string;
        } finally {
          kv.close();
        }
        wordpress.state.hangDeletes = false;
        wordpress.state.release.resolve();
        const second = await start();
        const res = await fetch(
          `${second.url}/api/turismo/erasures/${erasureId}`,
        );
        assert.equal((await res.json()).status, "pending");
        await waitUntilErased(second, erasureId);
        assert.equal(wordpress.posts.size, 0, "the CMS post is gone");
        await stopServices(services.splice(0));
        const after = await Deno.openKv(kvPath);
        try {
          await assertNothingNames(after, {
            "user id": tourist.userId,
            name: tourist.ticket.name,
            "e-mail": tourist.ticket.email,
            phone: tourist.ticket.phone,
            "share code": tourist.code,
            note: tourist.note,
          });
        } finally {
          after.close();
        }
      },
    );
  } finally {
    await stopServices(services);
    await Deno.remove(dir, { recursive: true });
  }
});

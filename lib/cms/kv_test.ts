import assert from "node:assert/strict";
import { parseConfig } from "@/lib/config/config.ts";
import type { TicketInput } from "@/lib/types/cms.ts";
import { createKvCms } from "./kv.ts";
import { createCms } from "./mod.ts";

function ticketInput(overrides: Partial<TicketInput> = {}): TicketInput {
  const id = crypto.randomUUID().slice(0, 8);
  return {
    shareCode: `ruta-${id}`,
    name: "María José Ñúñez",
    email: `viajero-${id}@ejemplo.mx`,
    phone: "+52 (33) 1234-5678",
    ...overrides,
  };
}

Deno.test("createKvCms: the embedded CMS in Deno KV", async (t) => {
  await using kv = await Deno.openKv(":memory:");
  const cms = createKvCms(kv);

  await t.step("is named kv in the logs", () => {
    assert.equal(cms.kind, "kv");
  });

  await t.step("a created ticket is found with its fields and id", async () => {
    const input = ticketInput({ userId: crypto.randomUUID() });
    const created = await cms.createTicket(input);
    assert.deepEqual(created, { ...input, wpId: created.wpId });
    assert.ok(Number.isInteger(created.wpId) && created.wpId > 0);
    assert.deepEqual(await cms.findTicket(input.shareCode), created);
  });

  await t.step("an unknown share code is null", async () => {
    assert.equal(await cms.findTicket("ruta-nadie"), null);
  });

  await t.step(
    "creating a taken share code answers the first post, unchanged, with no new id",
    async () => {
      const first = await cms.createTicket(ticketInput());
      const again = await cms.createTicket(
        ticketInput({ shareCode: first.shareCode, name: "Otra Persona" }),
      );
      assert.deepEqual(again, first);
      assert.deepEqual(await cms.findTicket(first.shareCode), first);
      const next = await cms.createTicket(ticketInput());
      assert.equal(next.wpId, first.wpId + 1, "no id was used up");
    },
  );

  await t.step(
    "ids increase by one and never repeat under concurrent creates",
    async () => {
      const before = (await cms.createTicket(ticketInput())).wpId;
      const posts = await Promise.all(
        Array.from({ length: 12 }, () => cms.createTicket(ticketInput())),
      );
      const ids = posts.map((post) => post.wpId).sort((a, b) => a - b);
      assert.deepEqual(
        ids,
        Array.from({ length: 12 }, (_, i) => before + 1 + i),
      );
      for (const post of posts) {
        assert.deepEqual(await cms.findTicket(post.shareCode), post);
      }
    },
  );

  await t.step(
    "a rename changes the name only, and is null without a post",
    async () => {
      const post = await cms.createTicket(ticketInput());
      const renamed = await cms.renameTicket(post.shareCode, "Ana Ruiz");
      assert.deepEqual(renamed, { ...post, name: "Ana Ruiz" });
      assert.deepEqual(await cms.findTicket(post.shareCode), renamed);
      assert.equal(await cms.renameTicket("ruta-nadie", "Ana Ruiz"), null);
      assert.equal(await cms.findTicket("ruta-nadie"), null, "none created");
    },
  );

  await t.step(
    "a delete removes the post for good, and deleting again is no error",
    async () => {
      const kept = await cms.createTicket(ticketInput());
      const post = await cms.createTicket(ticketInput());
      await cms.deleteTicket(post.shareCode);
      assert.equal(await cms.findTicket(post.shareCode), null);
      await cms.deleteTicket(post.shareCode);
      assert.deepEqual(await cms.findTicket(kept.shareCode), kept);
      // The id of a deleted post is not given again.
      const next = await cms.createTicket(ticketInput());
      assert.equal(next.wpId, post.wpId + 1);
    },
  );
});

Deno.test("createKvCms: posts and the id counter survive closing a KV file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-cms-" });
  const path = `${dir}/cms.kv`;
  try {
    const input = ticketInput();
    let first;
    {
      await using kv = await Deno.openKv(path);
      const cms = createKvCms(kv);
      first = await cms.createTicket(input);
      await cms.createTicket(ticketInput());
    }
    await using kv = await Deno.openKv(path);
    const cms = createKvCms(kv);
    assert.deepEqual(await cms.findTicket(input.shareCode), first);
    const next = await cms.createTicket(ticketInput());
    assert.equal(next.wpId, first.wpId + 2, "the counter goes on");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createCms: WordPress when WP_URL is set, else the embedded KV CMS", async () => {
  await using kv = await Deno.openKv(":memory:");
  assert.equal((await createCms(parseConfig({}), kv)).kind, "kv");
  const wordpress = await createCms(
    parseConfig({
      WP_URL: "http://127.0.0.1:9/",
      WP_USER: "turismo",
      WP_APP_PASSWORD: "abcd efgh ijkl mnop",
    }),
    kv,
  );
  assert.equal(wordpress.kind, "wordpress");
  // The embedded CMS is left alone: nothing was written to KV.
  assert.deepEqual(await Array.fromAsync(kv.list({ prefix: [] })), []);
});

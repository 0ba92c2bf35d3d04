/**
 * The WordPress driver against a real WordPress (Debian's package, MariaDB,
 * PHP's built-in server on 127.0.0.1), set up by scripts/wordpress/setup.sh.
 * Without root (the script installs packages), the test is skipped with a
 * printed reason.
 */
import assert from "node:assert/strict";
import {
  createWordPressCms,
  type WordPressOptions,
} from "@/lib/cms/wordpress.ts";
import { getTicket } from "@/lib/db/tickets.ts";
import {
  createTestContext,
  postJson,
  randomEmail,
  randomUserId,
  serveApp,
  ticketBody,
} from "../test_utils.ts";

const TICKET = "/api/turismo/ticket";
const scripts = new URL("../../scripts/wordpress/", import.meta.url).pathname;

async function run(script: string, ...args: string[]) {
  const output = await new Deno.Command("bash", {
    args: [`${scripts}${script}`, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(
      `${script} failed:\n${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return stdout;
}

const skipReason = Deno.uid() !== 0
  ? "WordPress tests need root to install Debian packages (scripts/wordpress/setup.sh)"
  : undefined;
if (skipReason) console.warn(`SKIPPED: ${skipReason}`);

function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    text.trim().split("\n").map((line) => [
      line.slice(0, line.indexOf("=")),
      line.slice(line.indexOf("=") + 1),
    ]),
  );
}

/** A proxy in front of WordPress that can drop answers, stall, or answer garbage. */
function startProxy(target: string) {
  let mode: "forward" | "lose-answer" | "slow" | "garbage" | "error" =
    "forward";
  const server = serveApp(async (req) => {
    const url = new URL(req.url);
    const forward = () =>
      fetch(`${target}${url.pathname}${url.search}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
      });
    switch (mode) {
      case "lose-answer": {
        const res = await forward();
        if (req.method === "GET") return res;
        await res.body?.cancel();
        return new Response("upstream connection reset", { status: 504 });
      }
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return await forward();
      case "garbage":
        return new Response("<html>Mantenimiento</html>", { status: 200 });
      case "error":
        return new Response('{"code":"internal_server_error"}', {
          status: 500,
        });
      default:
        return await forward();
    }
  });
  return {
    url: server.origin,
    setMode(next: typeof mode) {
      mode = next;
    },
    shutdown: () => server[Symbol.asyncDispose](),
  };
}

Deno.test({
  name: "POST /api/turismo/ticket (WordPress driver, real WordPress)",
  ignore: skipReason !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const env = parseEnv(await run("setup.sh"));
    const wp: WordPressOptions = {
      url: env.WP_URL,
      user: env.WP_USER,
      appPassword: env.WP_APP_PASSWORD,
      postType: env.WP_POST_TYPE,
    };
    const proxy = startProxy(wp.url);
    const errors: string[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) =>
      errors.push(args.map(String).join(" "));

    const endpoint = `${wp.url}/wp-json/wp/v2/${wp.postType}`;
    const authorization = `Basic ${btoa(`${wp.user}:${wp.appPassword}`)}`;
    async function readPosts(shareCode: string) {
      const res = await fetch(
        `${endpoint}?slug=${shareCode.toLowerCase()}&status=any&context=edit`,
        { headers: { authorization } },
      );
      assert.equal(res.status, 200);
      return await res.json();
    }

    await using direct = await createTestContext({
      cms: createWordPressCms(wp),
    });
    await using proxied = await createTestContext({
      cms: createWordPressCms({ ...wp, url: proxy.url, timeoutMs: 500 }),
    });

    try {
      await t.step(
        "creates a private post whose slug is the share code and meta the fields",
        async () => {
          const userId = randomUserId();
          const body = ticketBody({
            shareCode: `Ruta-${crypto.randomUUID().slice(0, 6)}`,
          });
          const res = await postJson(direct, TICKET, body, {
            authorization: `Bearer ${await direct.tokenFor(userId)}`,
          });
          assert.equal(res.status, 200);
          const json = await res.json();
          const [post, ...others] = await readPosts(body.shareCode);
          assert.equal(others.length, 0);
          assert.equal(json.wpId, post.id);
          assert.equal(post.slug, body.shareCode.toLowerCase());
          assert.equal(post.status, "private");
          assert.equal(post.title.raw, body.name);
          assert.deepEqual(post.meta, {
            turismo_name: body.name,
            turismo_email: body.email,
            turismo_phone: body.phone,
            // Share codes are case-insensitive and kept in lower case.
            turismo_share_code: body.shareCode.toLowerCase(),
            turismo_user_id: userId,
          });
          const stored = await getTicket(direct.deps.kv, body.shareCode);
          assert.equal(stored?.wpId, post.id);
          assert.equal(stored?.userId, userId);
        },
      );

      await t.step(
        "a name correction updates the post's title and name field",
        async () => {
          const userId = randomUserId();
          const token = await direct.tokenFor(userId);
          const body = ticketBody();
          await postJson(direct, TICKET, body, {
            authorization: `Bearer ${token}`,
          });
          const res = await postJson(
            direct,
            `/api/turismo/users/${userId}/name`,
            { name: "Nombre Corregido" },
            { authorization: `Bearer ${token}` },
          );
          assert.equal(res.status, 200, await res.text());
          const [post] = await readPosts(body.shareCode);
          assert.equal(post.title.raw, "Nombre Corregido");
          assert.equal(post.meta.turismo_name, "Nombre Corregido");
          assert.equal(post.meta.turismo_email, body.email);
        },
      );

      await t.step(
        "an erasure deletes the post for good (not to the trash)",
        async () => {
          const userId = randomUserId();
          const token = await direct.tokenFor(userId);
          const body = ticketBody();
          await postJson(direct, TICKET, body, {
            authorization: `Bearer ${token}`,
          });
          assert.equal((await readPosts(body.shareCode)).length, 1);
          const res = await postJson(
            direct,
            `/api/turismo/users/${userId}/erase`,
            {},
            { authorization: `Bearer ${token}` },
          );
          assert.equal(res.status, 202, await res.text());
          // status=any includes trashed posts: none is left.
          assert.deepEqual(await readPosts(body.shareCode), []);
          // Deleting again (a retry after a lost answer) is no error.
          await direct.deps.cms.deleteTicket(body.shareCode);
        },
      );

      await t.step("the post is not readable without credentials", async () => {
        const body = ticketBody();
        await postJson(direct, TICKET, body);
        for (
          const query of [
            `slug=${body.shareCode}`,
            `slug=${body.shareCode}&status=any`,
          ]
        ) {
          const res = await fetch(`${endpoint}?${query}`);
          assert.ok(
            res.status === 401 || res.status === 400,
            `${query}: ${res.status}`,
          );
          assert.ok(!(await res.text()).includes(body.email));
        }
      });

      await t.step(
        "a retry with the same Idempotency-Key makes no second post",
        async () => {
          const body = ticketBody();
          const key = { "idempotency-key": crypto.randomUUID() };
          const first = await (await postJson(direct, TICKET, body, key))
            .json();
          const again = await postJson(direct, TICKET, body, key);
          assert.equal(again.status, 200);
          assert.equal((await again.json()).wpId, first.wpId);
          assert.equal((await readPosts(body.shareCode)).length, 1);
        },
      );

      await t.step(
        "CaseX-0001 and casex-0001 of one request are one ticket and one post",
        async () => {
          const body = ticketBody({
            shareCode: `CaseX-${crypto.randomUUID().slice(0, 6)}`,
          });
          const key = { "idempotency-key": crypto.randomUUID() };
          const first = await (await postJson(direct, TICKET, body, key))
            .json();
          const again = await postJson(direct, TICKET, {
            ...body,
            shareCode: body.shareCode.toLowerCase(),
          }, key);
          assert.equal(again.status, 200);
          assert.equal((await again.json()).wpId, first.wpId);
          assert.equal((await readPosts(body.shareCode)).length, 1);
          const stored = [];
          for await (
            const entry of direct.deps.kv.list({ prefix: ["tickets"] })
          ) {
            if (
              String(entry.key[1]).toLowerCase() ===
                body.shareCode.toLowerCase()
            ) {
              stored.push(entry.key);
            }
          }
          assert.equal(stored.length, 1, "one ticket in KV");
        },
      );

      await t.step(
        "a share code whose post is in WordPress, not made by this key, is a 409",
        async () => {
          const body = ticketBody();
          await postJson(direct, TICKET, body);
          await using fresh = await createTestContext({
            cms: createWordPressCms(wp),
          });
          const res = await postJson(fresh, TICKET, {
            ...body,
            email: randomEmail(),
          });
          assert.equal(res.status, 409);
          await res.body?.cancel();
        },
      );

      await t.step(
        "an answer lost after WordPress created the post: the retry finds it",
        async () => {
          const body = ticketBody();
          const key = { "idempotency-key": crypto.randomUUID() };
          proxy.setMode("lose-answer");
          const lost = await postJson(proxied, TICKET, body, key);
          assert.equal(lost.status, 502);
          assert.deepEqual(Object.keys(await lost.json()).sort(), [
            "details",
            "error",
          ]);
          assert.equal(await getTicket(proxied.deps.kv, body.shareCode), null);
          const [created] = await readPosts(body.shareCode);
          proxy.setMode("forward");
          // Anyone else, the same e-mail included, is told it is taken.
          const other = await postJson(proxied, TICKET, body);
          assert.equal(other.status, 409);
          await other.body?.cancel();
          const retry = await postJson(proxied, TICKET, body, key);
          assert.equal(retry.status, 200);
          assert.equal((await retry.json()).wpId, created.id);
          assert.equal((await readPosts(body.shareCode)).length, 1);
        },
      );

      await t.step(
        "WordPress answering slowly is a 502 after the timeout, nothing stored",
        async () => {
          const body = ticketBody();
          proxy.setMode("slow");
          const res = await postJson(proxied, TICKET, body);
          assert.equal(res.status, 502);
          assert.match((await res.json()).details, /a tiempo/);
          assert.equal(await getTicket(proxied.deps.kv, body.shareCode), null);
          proxy.setMode("forward");
        },
      );

      await t.step("garbage or a 5xx from WordPress is a 502", async () => {
        for (const mode of ["garbage", "error"] as const) {
          const body = ticketBody();
          proxy.setMode(mode);
          const res = await postJson(proxied, TICKET, body);
          assert.equal(res.status, 502, mode);
          assert.equal(
            (await res.json()).error,
            "Error de un servicio externo",
          );
          assert.equal(await getTicket(proxied.deps.kv, body.shareCode), null);
        }
        proxy.setMode("forward");
      });

      await t.step(
        "wrong credentials are a 502 that leaks no credential",
        async () => {
          const wrong = "wrong pass word 1234";
          await using bad = await createTestContext({
            cms: createWordPressCms({ ...wp, appPassword: wrong }),
          });
          errors.length = 0;
          const res = await postJson(bad, TICKET, ticketBody());
          assert.equal(res.status, 502);
          const text = await res.text();
          for (
            const secret of [wrong, wp.appPassword, btoa(`${wp.user}:${wrong}`)]
          ) {
            assert.ok(!text.includes(secret));
            assert.ok(!errors.join("\n").includes(secret));
          }
          assert.match(errors.join("\n"), /HTTP 401/);
        },
      );

      await t.step(
        "WordPress stopped: 502, nothing stored; back up: the retry succeeds",
        async () => {
          const body = ticketBody();
          await run("php-server.sh", "stop");
          try {
            const res = await postJson(direct, TICKET, body);
            assert.equal(res.status, 502);
            assert.match((await res.json()).details, /conectar/);
            assert.equal(await getTicket(direct.deps.kv, body.shareCode), null);
          } finally {
            await run("php-server.sh", "start");
          }
          const retry = await postJson(direct, TICKET, body);
          assert.equal(retry.status, 200);
          const [post] = await readPosts(body.shareCode);
          assert.equal((await retry.json()).wpId, post.id);
        },
      );
    } finally {
      console.error = originalError;
      await proxy.shutdown();
      await run("stop.sh");
    }
  },
});

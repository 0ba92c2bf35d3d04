/**
 * Secrets in addresses (lib/http/secret_urls.ts): a staff sign-in link's
 * token and an erasure's id are used at their real addresses while the
 * real request log listens; no log line, no `Referer` a browser would
 * send on, and no audit entry holds them. The app runs in process on
 * `:memory:` KV.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import { RequestLog } from "@/lib/http/request_log.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import { dumpKv } from "../kv_dump.ts";
import {
  assertJson,
  capture,
  createTestContext,
  postJson,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";

Deno.test("secrets in addresses", async (t) => {
  const written: string[] = [];
  const log = new RequestLog({
    write: (text) => Promise.resolve(void written.push(text)),
  });
  await using ctx = await createTestContext({ requestLog: log });
  const logged = async () => {
    await log.flush();
    return written.join("");
  };
  /** The secrets used so far: none may appear in a log line. */
  const secrets: string[] = [];

  await t.step(
    "a staff link opened by a preview, then used: its token is in no log line, no Referer, no audit entry",
    async () => {
      const { url } = await createStaffSignInLink(ctx.deps.kv, {
        email: "ana@municipio.gob.mx",
        role: "admin",
        baseUrl: ORIGIN,
        now: ctx.clock.now(),
      });
      const path = new URL(url).pathname;
      const token = path.split("/").at(-1)!;
      secrets.push(token);
      for (const variant of [path, `${path}/`, `${path}?utm=x`]) {
        const preview = await ctx.app.request(variant);
        await preview.body?.cancel();
        assert.equal(
          preview.headers.get("referrer-policy"),
          "no-referrer",
          variant,
        );
      }
      const used = await ctx.app.request(path, {
        method: "POST",
        headers: {
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "",
      });
      assert.equal(used.status, 303);
      assert.equal(used.headers.get("referrer-policy"), "no-referrer");
      const text = await logged();
      assert.ok(!text.includes(token), text);
      assert.match(text, /^GET \/auth\/personal\/\[redacted\] 200 /m);
      assert.match(text, /^POST \/auth\/personal\/\[redacted\] 303 /m);

      const { values } = await listStaffActions(ctx.deps.kv);
      const signIn = values.find((entry) => entry.action === "signin");
      assert.equal(signIn?.method, "link", "the sign-in says it came by link");
      const kvText = (await dumpKv(ctx.deps.kv)).join("\n");
      assert.ok(!kvText.includes(token), "the token is stored nowhere");
    },
  );

  await t.step(
    "the staff sign-in pages beside the links keep their paths",
    async () => {
      written.length = 0;
      for (const path of ["/auth/personal", "/auth/personal/proveedor"]) {
        const res = await ctx.app.request(path);
        await res.body?.cancel();
      }
      const text = await logged();
      assert.match(text, /^GET \/auth\/personal \d{3} /m);
      assert.match(text, /^GET \/auth\/personal\/proveedor \d{3} /m);
    },
  );

  await t.step(
    "an erasure's id, at its status page and API, is in no log line and no Referer",
    async () => {
      const opened = await postJson(ctx, "/api/session-token", {
        guest: true,
      }, { origin: ORIGIN });
      await assertJson(opened, 200);
      const cookie = opened.headers.getSetCookie()[0].split(";")[0];
      const erased = await ctx.app.request("/mi-pasaporte/borrar", {
        method: "POST",
        headers: {
          cookie,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "",
      });
      assert.equal(erased.status, 303);
      const location = erased.headers.get("location")!;
      const id = location.split("/").at(-1)!;
      assert.match(id, /^[0-9a-f-]{36}$/);
      secrets.push(id);
      for (
        const path of [
          `/mi-pasaporte/borrado/${id}`,
          `/en/mi-pasaporte/borrado/${id}`,
          `/api/turismo/erasures/${id}`,
        ]
      ) {
        const res = await ctx.app.request(path);
        assert.equal(res.status, 200, path);
        await res.body?.cancel();
        assert.equal(res.headers.get("referrer-policy"), "no-referrer", path);
      }
      const text = await logged();
      assert.ok(!text.includes(id), text);
      assert.match(text, /^GET \/mi-pasaporte\/borrado\/\[redacted\] 200 /m);
      assert.match(
        text,
        /^GET \/en\/mi-pasaporte\/borrado\/\[redacted\] 200 /m,
      );
      assert.match(text, /^GET \/api\/turismo\/erasures\/\[redacted\] 200 /m);
    },
  );

  await t.step(
    "the provider's code and state on the way back: never logged, no Referer",
    async () => {
      const code = `code-${crypto.randomUUID()}`;
      const state = `state${crypto.randomUUID().replaceAll("-", "")}`;
      secrets.push(code, state);
      const res = await ctx.app.request(
        `/auth/callback?code=${code}&state=${state}`,
      );
      await res.body?.cancel();
      assert.equal(res.headers.get("referrer-policy"), "no-referrer");
      const text = await logged();
      assert.ok(!text.includes(code) && !text.includes(state), text);
    },
  );

  await t.step(
    "an unexpected error on a link's address is logged without its token",
    async () => {
      const { url } = await createStaffSignInLink(ctx.deps.kv, {
        email: "luis@municipio.gob.mx",
        role: "viewer",
        baseUrl: ORIGIN,
        now: ctx.clock.now(),
      });
      const path = new URL(url).pathname;
      const token = path.split("/").at(-1)!;
      secrets.push(token);
      ctx.deps.kv.close();
      const { result, logged: errors } = await capture(
        "error",
        () =>
          Promise.resolve(ctx.app.request(path, {
            method: "POST",
            headers: {
              origin: ORIGIN,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: "",
          })),
      );
      assert.equal(result.status, 500);
      await result.body?.cancel();
      assert.ok(!errors.includes(token), errors);
      assert.match(errors, /POST \/auth\/personal\/\[redacted\]/);
    },
  );

  await t.step("no secret reached any line of the log", async () => {
    const text = await logged();
    for (const secret of secrets) assert.ok(!text.includes(secret), secret);
  });
});

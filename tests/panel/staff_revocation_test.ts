/**
 * Staff access can be taken back (lib/staff/guard.ts): `STAFF` is read on
 * every request, so a member removed from it is out at their next request
 * and a demoted admin is a viewer at once; an admin sees the open staff
 * sessions on the console and ends any of them; `deno task staff-link
 * --revoke` ends someone's sessions from a shell. Several app instances
 * share one KV file, as the service runs on Deno Deploy.
 */
import assert from "node:assert/strict";
import { listStaffActions } from "@/lib/db/audit.ts";
import { createStaffSession } from "@/lib/db/staff_sessions.ts";
import type { StaffRole } from "@/lib/types/staff.ts";
import { ROOT, serviceEnv } from "../service_process.ts";
import {
  createTestContext,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const ANA = "ana@municipio.gob.mx";
const LUIS = "luis@municipio.gob.mx";
const NOT_FOUND = "No encontramos esta página";

/** The settings of an identity provider (never called here) and `STAFF`. */
function staffEnv(staff: string): Record<string, string> {
  return {
    BASE_URL: ORIGIN,
    OIDC_ISSUER: "https://id.municipio.example",
    OIDC_CLIENT_ID: "portal",
    OIDC_CLIENT_SECRET: "secreto",
    STAFF: staff,
  };
}

/** A staff session as the provider's sign-in opens it; its `Cookie` header. */
async function signInWithProvider(
  ctx: TestContext,
  { email, role, subject }: { email: string; role: StaffRole; subject: string },
): Promise<string> {
  const { sessionId } = await createStaffSession(ctx.deps.kv, {
    staff: { id: email, email, role },
    now: ctx.clock.now(),
    method: "provider",
    subject,
  });
  return `staff=${sessionId}`;
}

async function get(
  ctx: TestContext,
  path: string,
  cookie: string,
  headers: Record<string, string> = {},
) {
  const res = await ctx.app.request(path, { headers: { cookie, ...headers } });
  return { res, html: await res.text() };
}

function post(
  ctx: TestContext,
  path: string,
  cookie: string,
  headers: Record<string, string> = {},
) {
  return Promise.resolve(ctx.app.request(path, {
    method: "POST",
    headers: {
      cookie,
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: "",
  }));
}

async function countSessions(kv: Deno.Kv): Promise<number> {
  let count = 0;
  for await (const _ of kv.list({ prefix: ["staff_sessions"] })) count++;
  return count;
}

async function withKvFile<T>(fn: (kvPath: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "turismo-staff-" });
  try {
    return await fn(`${dir}/turismo.kv`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("STAFF is read on every request", async (t) => {
  await withKvFile(async (kvPath) => {
    const both = `admin:${ANA},admin:${LUIS}`;
    await using before = await createTestContext({
      kvPath,
      env: staffEnv(both),
    });
    const ana = await signInWithProvider(before, {
      email: ANA,
      role: "admin",
      subject: "ana-1",
    });
    const luis = await signInWithProvider(before, {
      email: LUIS,
      role: "admin",
      subject: "luis-1",
    });
    assert.equal((await get(before, "/panel/auditoria", ana)).res.status, 200);

    // The operator changes STAFF and redeploys: a new instance on the same KV.
    await using after = await createTestContext({
      kvPath,
      env: staffEnv(`viewer:${LUIS}`),
    });

    await t.step(
      "a member removed from STAFF: the next request is a stranger's and the session is deleted",
      async () => {
        const { res, html } = await get(after, "/panel", ana);
        assert.equal(res.status, 404);
        assert.ok(html.includes(NOT_FOUND));
        assert.ok(
          res.headers.getSetCookie().some((c) => /^staff=;/.test(c)),
          "the cookie is cleared",
        );
        assert.equal(await countSessions(after.deps.kv), 1, "only Luis's");
        // The old instance too: the session is gone from KV.
        assert.equal((await get(before, "/panel", ana)).res.status, 404);
        const { values } = await listStaffActions(after.deps.kv);
        const removed = values.find((e) => e.action === "access_removed");
        assert.equal(removed?.staff.email, ANA);
      },
    );

    await t.step(
      "a demoted admin is a viewer at once, with the session they hold",
      async () => {
        const audit = await get(after, "/panel/auditoria", luis);
        assert.equal(audit.res.status, 403);
        const home = await get(after, "/panel", luis);
        assert.equal(home.res.status, 200);
        assert.match(home.html, /Consulta/);
        assert.doesNotMatch(home.html, /href="\/panel\/auditoria"/);
        const hide = await post(
          after,
          `/panel/notas/${crypto.randomUUID()}/ocultar`,
          luis,
        );
        assert.equal(hide.status, 403);
        await hide.body?.cancel();
      },
    );

    await t.step(
      "matched by the provider's subject first: a subject entry keeps its role",
      async () => {
        await using bySubject = await createTestContext({
          kvPath,
          env: staffEnv(`admin:sub:luis-1`),
        });
        const { res } = await get(bySubject, "/panel/auditoria", luis);
        assert.equal(res.status, 200);
      },
    );
  });
});

Deno.test(
  "a removed member's concurrent requests: all refused, one removal audited",
  async () => {
    await withKvFile(async (kvPath) => {
      const maria = "maria@municipio.gob.mx";
      await using before = await createTestContext({
        kvPath,
        env: staffEnv(`admin:${maria}`),
      });
      const cookie = await signInWithProvider(before, {
        email: maria,
        role: "admin",
        subject: "maria-1",
      });
      await using after = await createTestContext({
        kvPath,
        env: staffEnv(`admin:${ANA}`),
      });
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => get(after, "/panel", cookie)),
      );
      for (const { res } of answers) assert.equal(res.status, 404);
      assert.equal(await countSessions(after.deps.kv), 0);
      assert.equal((await get(before, "/panel", cookie)).res.status, 404);
      const { values } = await listStaffActions(after.deps.kv);
      assert.equal(
        values.filter((e) => e.action === "access_removed").length,
        1,
      );
    });
  },
);

Deno.test("GET/POST /panel/sesiones", async (t) => {
  await withKvFile(async (kvPath) => {
    await using one = await createTestContext({ kvPath });
    await using two = await createTestContext({ kvPath });
    const admin = await signInStaff(one, { email: ANA, role: "admin" });
    const viewer = await signInStaff(two, { email: LUIS, role: "viewer" });

    let viewerRef = "";
    await t.step(
      "an admin sees who is in, with role, way in and times, never a session's id",
      async () => {
        const { res, html } = await get(one, "/panel/sesiones", admin);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("cache-control"), "private, no-store");
        assert.match(html, /<h1>Sesiones del personal<\/h1>/);
        for (const text of [ANA, LUIS, "Administración", "Consulta"]) {
          assert.ok(html.includes(text), text);
        }
        assert.ok(html.includes("Enlace de acceso"));
        for (const cookie of [admin, viewer]) {
          assert.ok(!html.includes(cookie.split("=")[1]), "a session id");
        }
        for await (
          const { value } of one.deps.kv.list<{ handle: string; ref: string }>(
            { prefix: ["staff_sessions"] },
          )
        ) {
          assert.ok(!html.includes(value.handle), "a session handle");
        }
        const row = html.match(
          /data-session="([0-9a-f-]{36})"><td>luis@municipio\.gob\.mx/,
        );
        assert.ok(row, "Luis's row");
        viewerRef = row[1];
      },
    );

    await t.step("in English for a browser that asks for it", async () => {
      const { res, html } = await get(one, "/panel/sesiones", admin, {
        "accept-language": "en-US,en;q=0.9",
      });
      assert.equal(res.status, 200);
      assert.match(html, /<h1>Staff sessions<\/h1>/);
      assert.match(html, /End session/);
      assert.match(html, /Sign-in link/);
    });

    await t.step(
      "a viewer can neither see the sessions nor end one",
      async () => {
        assert.equal(
          (await get(two, "/panel/sesiones", viewer)).res.status,
          403,
        );
        const end = await post(
          two,
          `/panel/sesiones/${viewerRef}/cerrar`,
          viewer,
        );
        assert.equal(end.status, 403);
        await end.body?.cancel();
        assert.equal(await countSessions(one.deps.kv), 2);
      },
    );

    await t.step(
      "from another site, ending a session is refused and nothing ends",
      async () => {
        const res = await post(
          one,
          `/panel/sesiones/${viewerRef}/cerrar`,
          admin,
          { origin: "https://malo.example", "sec-fetch-site": "cross-site" },
        );
        assert.equal(res.status, 403);
        await res.body?.cancel();
        assert.equal(await countSessions(one.deps.kv), 2);
      },
    );

    await t.step(
      "an admin ends a session on one instance: the other refuses it at once, and it is audited",
      async () => {
        assert.equal((await get(two, "/panel", viewer)).res.status, 200);
        const res = await post(
          one,
          `/panel/sesiones/${viewerRef}/cerrar`,
          admin,
        );
        assert.equal(res.status, 303);
        assert.equal(
          res.headers.get("location"),
          "/panel/sesiones?aviso=cerrada",
        );
        const { res: refused, html } = await get(two, "/panel", viewer);
        assert.equal(refused.status, 404);
        assert.ok(html.includes(NOT_FOUND));
        const { values } = await listStaffActions(two.deps.kv);
        const ended = values.find((e) => e.action === "session_ended");
        assert.equal(ended?.staff.email, ANA);
        assert.equal(ended?.target, LUIS);
        const again = await post(
          one,
          `/panel/sesiones/${viewerRef}/cerrar`,
          admin,
        );
        assert.equal(again.status, 404, "an ended session is gone");
        await again.body?.cancel();
      },
    );
  });
});

Deno.test("deno task staff-link --revoke", async (t) => {
  await withKvFile(async (kvPath) => {
    await using ctx = await createTestContext({ kvPath });
    const cookie = await signInStaff(ctx, { email: LUIS, role: "admin" });
    const other = await signInStaff(ctx, { email: ANA, role: "admin" });

    await t.step(
      "ends every session of that person at once, audited; others stay",
      async () => {
        const { code, stdout, stderr } = await new Deno.Command(
          Deno.execPath(),
          {
            args: [
              "run",
              "--quiet",
              "-A",
              "scripts/staff_link.ts",
              LUIS,
              "--revoke",
            ],
            cwd: ROOT,
            env: serviceEnv({ KV_PATH: kvPath }),
            clearEnv: true,
            stdin: "null",
          },
        ).output();
        const decoder = new TextDecoder();
        assert.equal(code, 0, decoder.decode(stderr));
        assert.match(decoder.decode(stdout), /Ended 1 staff session/);
        assert.equal((await get(ctx, "/panel", cookie)).res.status, 404);
        assert.equal((await get(ctx, "/panel", other)).res.status, 200);
      },
    );

    await t.step(
      "with STAFF set, a link only for someone it lists",
      async () => {
        const { code, stderr } = await new Deno.Command(Deno.execPath(), {
          args: ["run", "--quiet", "-A", "scripts/staff_link.ts", LUIS],
          cwd: ROOT,
          env: serviceEnv({ KV_PATH: kvPath, ...staffEnv(`admin:${ANA}`) }),
          clearEnv: true,
          stdin: "null",
        }).output();
        assert.equal(code, 2);
        assert.match(new TextDecoder().decode(stderr), /STAFF .*does not list/);
      },
    );
  });
});

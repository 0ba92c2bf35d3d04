/**
 * Staff access to the console (`/panel`): the `staff-link` task as a real
 * process, single-use sign-in links, staff sessions (idle expiry,
 * sign-out), the 404 strangers get, the viewer's 403, the cross-site
 * check, the audit log, and the staff sign-in at a real OpenID provider.
 * The app runs in process (`app.request`) on `:memory:` KV unless a step
 * needs a file.
 */
import assert from "node:assert/strict";
import {
  listStaffActions,
  recordStaffAction,
  type StaffActionEntry,
} from "@/lib/db/audit.ts";
import { keys } from "@/lib/db/keys.ts";
import {
  createSession,
  generateSessionId,
  getSessionHandle,
} from "@/lib/db/sessions.ts";
import {
  STAFF_IDLE_MS,
  STAFF_LINK_TTL_MS,
  STAFF_MAX_AGE_MS,
  type StaffSession,
} from "@/lib/db/staff_sessions.ts";
import { ConfigError, parseConfig } from "@/lib/config/config.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import type { StaffRole } from "@/lib/types/staff.ts";
import { CookieClient, parseSetCookie } from "../cookie_client.ts";
import { oidcEnv, startOidcProvider } from "../oidc_provider.ts";
import { ROOT, serviceEnv } from "../service_process.ts";
import {
  createTestContext,
  randomUserId,
  serveApp,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
const NOT_FOUND = "No encontramos esta página";
const STAFF_COOKIE = /^staff=([A-Za-z0-9_-]{43})$/;

/** A fresh sign-in link's path (`/auth/personal/<token>`), made as the task makes it. */
async function createLink(
  ctx: TestContext,
  { email = "ana@municipio.gob.mx", role = "admin" as StaffRole } = {},
): Promise<string> {
  const { url } = await createStaffSignInLink(ctx.deps.kv, {
    email,
    role,
    baseUrl: ORIGIN,
    now: ctx.clock.now(),
  });
  return new URL(url).pathname;
}

/** Presses "Entrar al panel" on a link's page: a same-origin form POST. */
function pressEnter(
  ctx: TestContext,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(ctx.app.request(path, {
    method: "POST",
    headers: {
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: "",
  }));
}

/**
 * A request as a staff member's browser on the portal's own pages; `cookie`
 * is the `Cookie` header (`staff=...`), as `signInStaff` returns it.
 */
async function asStaff(
  ctx: TestContext,
  cookie: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ res: Response; html: string }> {
  const res = await ctx.app.request(path, {
    method: init.method ?? "GET",
    headers: {
      cookie,
      ...(init.method && init.method !== "GET"
        ? {
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        }
        : {}),
      ...init.headers,
    },
    ...(init.method && init.method !== "GET" ? { body: "" } : {}),
  });
  return { res, html: await res.text() };
}

async function listAll<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  const values: T[] = [];
  for await (const entry of kv.list<T>({ prefix })) values.push(entry.value);
  return values;
}

async function runStaffLink(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-A", "scripts/staff_link.ts", ...args],
    cwd: ROOT,
    env: serviceEnv(env),
    clearEnv: true,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
  };
}

Deno.test("deno task staff-link (scripts/staff_link.ts)", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-staff-link-" });
  const kvPath = `${dir}/turismo.kv`;
  try {
    let link = "";
    await t.step(
      "prints a single-use link for the address and role, storing only its hash",
      async () => {
        const run = await runStaffLink(
          ["Ana@Municipio.gob.mx", "--role", "admin"],
          { KV_PATH: kvPath, PORT: "8123" },
        );
        assert.equal(run.code, 0, run.stderr);
        const match = run.stdout.match(
          /Staff sign-in link for ana@municipio\.gob\.mx \(admin\), single use, valid 15 minutes: (http:\/\/127\.0\.0\.1:8123\/auth\/personal\/([A-Za-z0-9_-]{43}))\n/,
        );
        assert.ok(match, run.stdout);
        link = match[1];
        const kv = await Deno.openKv(kvPath);
        try {
          const stored = [];
          for await (const entry of kv.list({ prefix: ["staff_links"] })) {
            stored.push(entry);
          }
          assert.equal(stored.length, 1);
          assert.ok(!JSON.stringify(stored).includes(match[2]));
          assert.deepEqual(
            (stored[0].value as { staff: unknown }).staff,
            {
              id: "ana@municipio.gob.mx",
              email: "ana@municipio.gob.mx",
              role: "admin",
            },
          );
        } finally {
          kv.close();
        }
      },
    );

    await t.step(
      "the printed link signs in to the service on that KV",
      async () => {
        await using ctx = await createTestContext({ kvPath });
        const path = new URL(link).pathname;
        const res = await pressEnter(ctx, path);
        assert.equal(res.status, 303);
        assert.equal(res.headers.get("location"), "/panel");
      },
    );

    await t.step(
      "the role is viewer unless told, and --base-url sets the origin",
      async () => {
        const run = await runStaffLink(
          [
            "maria@municipio.gob.mx",
            "--base-url",
            "https://turismo.example.gob.mx",
          ],
          { KV_PATH: kvPath },
        );
        assert.equal(run.code, 0, run.stderr);
        assert.match(
          run.stdout,
          /maria@municipio\.gob\.mx \(viewer\).*: https:\/\/turismo\.example\.gob\.mx\/auth\/personal\/[A-Za-z0-9_-]{43}\n/,
        );
      },
    );

    await t.step(
      "a bad address, role or KV stops with what to do and writes nothing",
      async () => {
        const before = await countLinks(kvPath);
        const noEmail = await runStaffLink(["no-es-correo"], {
          KV_PATH: kvPath,
        });
        assert.equal(noEmail.code, 2);
        assert.match(noEmail.stderr, /Give one e-mail address/);
        const badRole = await runStaffLink(
          ["ana@municipio.gob.mx", "--role", "owner"],
          { KV_PATH: kvPath },
        );
        assert.equal(badRole.code, 2);
        assert.match(badRole.stderr, /--role must be admin, editor or viewer/);
        const memory = await runStaffLink(["ana@municipio.gob.mx"], {
          KV_PATH: ":memory:",
        });
        assert.equal(memory.code, 2);
        assert.match(memory.stderr, /KV_PATH is :memory:/);
        assert.equal(await countLinks(kvPath), before);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function countLinks(kvPath: string): Promise<number> {
  const kv = await Deno.openKv(kvPath);
  try {
    return (await listAll(kv, ["staff_links"])).length;
  } finally {
    kv.close();
  }
}

Deno.test("GET and POST /auth/personal/:token", async (t) => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;

  await t.step("GET shows one button and uses nothing up", async () => {
    const path = await createLink(ctx);
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.request(path);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.equal(res.headers.get("referrer-policy"), "no-referrer");
      const html = await res.text();
      assert.match(html, /<form method="post"><button[^>]*>Entrar al panel</);
      assert.match(html, /<meta name="robots" content="noindex, nofollow"/);
    }
    assert.equal((await pressEnter(ctx, path)).status, 303);
  });

  await t.step(
    "POST opens a staff session: a Strict, HttpOnly cookie and the panel",
    async () => {
      const res = await pressEnter(ctx, await createLink(ctx));
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/panel");
      const [header] = res.headers.getSetCookie();
      const cookie = parseSetCookie(header);
      assert.match(`${cookie.name}=${cookie.value}`, STAFF_COOKIE);
      assert.equal(cookie.attributes.get("samesite"), "Strict");
      assert.ok(cookie.attributes.has("httponly"));
      assert.equal(cookie.attributes.get("path"), "/");
      const { res: panel, html } = await asStaff(
        ctx,
        `${cookie.name}=${cookie.value}`,
        "/panel",
      );
      assert.equal(panel.status, 200);
      assert.equal(panel.headers.get("cache-control"), "private, no-store");
      assert.match(html, /ana@municipio\.gob\.mx/);
      assert.match(html, /<button[^>]*>Salir</);
      const sessions = await listAll<StaffSession>(kv, ["staff_sessions"]);
      assert.ok(sessions.some((s) => s.staff.email === "ana@municipio.gob.mx"));
      // Staff sessions are no tourist sessions.
      assert.equal((await listAll(kv, ["sessions"])).length, 0);
    },
  );

  await t.step(
    "a replayed link is refused with a clear message and opens nothing",
    async () => {
      const path = await createLink(ctx);
      assert.equal((await pressEnter(ctx, path)).status, 303);
      const before = (await listAll(kv, ["staff_sessions"])).length;
      const res = await pressEnter(ctx, path);
      assert.equal(res.status, 410);
      assert.equal(res.headers.getSetCookie().length, 0);
      assert.match(await res.text(), /Este enlace ya se usó o venció/);
      assert.equal((await listAll(kv, ["staff_sessions"])).length, before);
    },
  );

  await t.step("two presses at once open one session", async () => {
    const path = await createLink(ctx);
    const statuses = (await Promise.all([
      pressEnter(ctx, path),
      pressEnter(ctx, path),
    ])).map((res) => res.status).sort();
    assert.deepEqual(statuses, [303, 410]);
  });

  await t.step("a link older than 15 minutes is refused", async () => {
    const path = await createLink(ctx);
    ctx.clock.advance(STAFF_LINK_TTL_MS);
    const res = await pressEnter(ctx, path);
    assert.equal(res.status, 410);
    assert.match(await res.text(), /Pide uno nuevo/);
  });

  await t.step(
    "a made-up or malformed token is refused the same way",
    async () => {
      for (const token of ["x".repeat(43), "corto", "%00"]) {
        const res = await pressEnter(ctx, `/auth/personal/${token}`);
        assert.equal(res.status, 410, token);
        await res.body?.cancel();
      }
    },
  );

  await t.step(
    "a POST from another site is refused (403) and the link still works",
    async () => {
      const path = await createLink(ctx);
      const res = await pressEnter(ctx, path, {
        origin: "https://malo.example",
      });
      assert.equal(res.status, 403);
      assert.equal(res.headers.getSetCookie().length, 0);
      assert.match(await res.text(), /La solicitud no vino del panel/);
      assert.equal((await pressEnter(ctx, path)).status, 303);
    },
  );

  await t.step("on https the cookie is __Host-staff and Secure", async () => {
    await using secure = await createTestContext({
      env: { BASE_URL: "https://turismo.example.gob.mx" },
    });
    const { url } = await createStaffSignInLink(secure.deps.kv, {
      email: "ana@municipio.gob.mx",
      role: "viewer",
      baseUrl: "https://turismo.example.gob.mx",
      now: secure.clock.now(),
    });
    const res = await secure.app.request(url, {
      method: "POST",
      headers: {
        origin: "https://turismo.example.gob.mx",
        "content-type": "application/x-www-form-urlencoded",
      },
    });
    assert.equal(res.status, 303);
    const cookie = parseSetCookie(res.headers.getSetCookie()[0]);
    assert.equal(cookie.name, "__Host-staff");
    assert.ok(cookie.attributes.has("secure"));
  });
});

Deno.test("GET /panel/* for anyone but staff: the ordinary 404 page", async (t) => {
  await using ctx = await createTestContext();
  const paths = ["/panel", "/panel/auditoria", "/panel/codigos", "/panel/x/y"];
  const tourist = await createSession(ctx.deps.kv, {
    userId: randomUserId(),
    name: "Turista",
    now: ctx.clock.now(),
    ttlMs: 60_000,
  });
  const signedOut = await signInStaff(ctx);
  await asStaff(ctx, signedOut, "/panel/salir", { method: "POST" });
  const visitors: [string, string | undefined][] = [
    ["no cookie", undefined],
    ["a tourist's session cookie", `session=${tourist.sessionId}`],
    [
      "a tourist's session id as the staff cookie",
      `staff=${tourist.sessionId}`,
    ],
    ["a garbage cookie", "staff=%3Cscript%3E"],
    ["a well-formed unknown id", `staff=${"A".repeat(43)}`],
    ["a signed-out staff cookie", signedOut],
  ];
  for (const [who, cookie] of visitors) {
    await t.step(`${who}: 404 on every panel path, GET and POST`, async () => {
      for (const path of paths) {
        for (const method of ["GET", "POST"]) {
          const res = await ctx.app.request(path, {
            method,
            headers: {
              ...(cookie ? { cookie } : {}),
              origin: ORIGIN,
              "content-type": "application/x-www-form-urlencoded",
            },
          });
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.match(res.headers.get("content-type") ?? "", /text\/html/);
          const html = await res.text();
          assert.ok(html.includes(NOT_FOUND), `${method} ${path}`);
          assert.ok(!/panel|personal/i.test(html), `${method} ${path}`);
        }
      }
    });
  }
  await t.step("the tourist's session is left as it was", async () => {
    const session = await ctx.deps.kv.get(
      keys.session(tourist.session.handle),
    );
    assert.ok(session.value);
  });
});

Deno.test("staff session lifetime (requireStaff)", async (t) => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;

  await t.step(
    "each request slides the 8-hour idle expiry, never past 12 hours after the sign-in",
    async () => {
      const cookie = await signInStaff(ctx);
      for (let i = 0; i < 11; i++) {
        ctx.clock.advance(60 * 60_000);
        const { res } = await asStaff(ctx, cookie, "/panel");
        assert.equal(res.status, 200, `after ${i + 1} hours of work`);
      }
      ctx.clock.advance(STAFF_MAX_AGE_MS - 11 * 60 * 60_000);
      const { res } = await asStaff(ctx, cookie, "/panel");
      assert.equal(res.status, 303, "12 hours after the sign-in");
      assert.equal(
        res.headers.get("location"),
        "/auth/personal?sesion=vencida",
      );
    },
  );

  await t.step(
    "the last-seen time is written at most once a minute",
    async () => {
      const cookie = await signInStaff(ctx);
      const sessionEntry = async () => {
        for await (
          const entry of kv.list<StaffSession>({ prefix: ["staff_sessions"] })
        ) {
          if (entry.value.lastSeenAt === undefined) continue;
          if (entry.value.createdAt === sessionCreatedAt) return entry;
        }
        throw new Error("no session");
      };
      const sessionCreatedAt = ctx.clock.now().toISOString();
      const first = await sessionEntry();
      ctx.clock.advance(30_000);
      await asStaff(ctx, cookie, "/panel");
      assert.equal((await sessionEntry()).versionstamp, first.versionstamp);
      ctx.clock.advance(31_000);
      await asStaff(ctx, cookie, "/panel");
      const moved = await sessionEntry();
      assert.notEqual(moved.versionstamp, first.versionstamp);
      assert.equal(moved.value.lastSeenAt, ctx.clock.now().getTime());
    },
  );

  await t.step(
    "after 8 hours idle the panel sends the browser to a sign-in that says why",
    async () => {
      const cookie = await signInStaff(ctx);
      ctx.clock.advance(STAFF_IDLE_MS);
      for (const path of ["/panel", "/panel/auditoria"]) {
        const { res } = await asStaff(ctx, cookie, path);
        assert.equal(res.status, 303, path);
        assert.equal(
          res.headers.get("location"),
          "/auth/personal?sesion=vencida",
        );
      }
      const page = await ctx.app.request("/auth/personal?sesion=vencida");
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /Tu sesión del panel terminó/);
      assert.match(
        html,
        /Pide a la persona que administra el portal un nuevo enlace de\s+acceso/,
      );
      assert.doesNotMatch(html, /Entrar con mi cuenta institucional/);
    },
  );

  await t.step(
    "a session stored before sessions had a way in is sent to the sign-in, not let in",
    async () => {
      const sessionId = generateSessionId();
      const handle = await getSessionHandle(sessionId);
      await kv.set(keys.staffSession(handle), {
        handle,
        staff: {
          id: "ana@municipio.gob.mx",
          email: "ana@municipio.gob.mx",
          role: "admin",
        },
        createdAt: ctx.clock.now().toISOString(),
        lastSeenAt: ctx.clock.now().getTime(),
      });
      const { res } = await asStaff(ctx, `staff=${sessionId}`, "/panel");
      assert.equal(res.status, 303);
      assert.equal(
        res.headers.get("location"),
        "/auth/personal?sesion=vencida",
      );
    },
  );
});

Deno.test("POST /panel/salir", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "a POST from another site is refused and the session stays",
    async () => {
      const cookie = await signInStaff(ctx);
      const { res, html } = await asStaff(ctx, cookie, "/panel/salir", {
        method: "POST",
        headers: { origin: "https://malo.example" },
      });
      assert.equal(res.status, 403);
      assert.match(html, /No se cambió nada/);
      assert.equal((await asStaff(ctx, cookie, "/panel")).res.status, 200);
      const actions = await listStaffActions(ctx.deps.kv);
      assert.ok(!actions.values.some((a) => a.action === "signout"));
    },
  );

  await t.step(
    "signing out ends the session, clears the cookie and is audited",
    async () => {
      const cookie = await signInStaff(ctx, { email: "luis@municipio.gob.mx" });
      ctx.clock.advance(1_000);
      const { res } = await asStaff(ctx, cookie, "/panel/salir", {
        method: "POST",
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/");
      const cleared = parseSetCookie(res.headers.getSetCookie()[0]);
      assert.equal(cleared.name, "staff");
      assert.equal(cleared.attributes.get("max-age"), "0");
      assert.equal((await asStaff(ctx, cookie, "/panel")).res.status, 404);
      const [latest] = (await listStaffActions(ctx.deps.kv)).values;
      assert.equal(latest.action, "signout");
      assert.equal(latest.staff.email, "luis@municipio.gob.mx");
    },
  );

  await t.step("a GET changes nothing (no such page)", async () => {
    const cookie = await signInStaff(ctx);
    assert.equal((await asStaff(ctx, cookie, "/panel/salir")).res.status, 404);
    assert.equal((await asStaff(ctx, cookie, "/panel")).res.status, 200);
  });
});

Deno.test("GET /panel/auditoria", async (t) => {
  await using ctx = await createTestContext({
    clockStart: new Date("2026-03-10T18:00:00Z"),
  });

  await t.step("a viewer gets the 403 page and no link to it", async () => {
    const viewer = await signInStaff(ctx, {
      email: "maria@municipio.gob.mx",
      role: "viewer",
    });
    const { res, html } = await asStaff(ctx, viewer, "/panel/auditoria");
    assert.equal(res.status, 403);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    assert.match(html, /Esta acción requiere permisos de administración/);
    assert.match(html, /Volver al panel/);
    const home = await asStaff(ctx, viewer, "/panel");
    assert.doesNotMatch(home.html, /href="\/panel\/auditoria"/);
    assert.match(home.html, /href="\/panel\/exportar"/);
  });

  await t.step(
    "an admin sees sign-ins and sign-outs, newest first, in local time",
    async () => {
      ctx.clock.advance(60_000);
      const admin = await signInStaff(ctx, { email: "ana@municipio.gob.mx" });
      ctx.clock.advance(60_000);
      const other = await signInStaff(ctx, { email: "luis@municipio.gob.mx" });
      ctx.clock.advance(60_000);
      await asStaff(ctx, other, "/panel/salir", { method: "POST" });
      const { res, html } = await asStaff(ctx, admin, "/panel/auditoria");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "private, no-store");
      const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/gs)].slice(1)
        .map((m) => m[1].replace(/<[^>]+>/g, "|").replace(/\|+/g, "|"));
      assert.equal(rows.length, 4, rows.join("\n"));
      assert.match(
        rows[0],
        /12:03\|luis@municipio\.gob\.mx\|Administración\|Salió del panel/,
      );
      assert.match(
        rows[1],
        /12:02\|luis@municipio\.gob\.mx\|Administración\|Entró al panel/,
      );
      assert.match(
        rows[2],
        /12:01\|ana@municipio\.gob\.mx\|Administración\|Entró al panel/,
      );
      assert.match(
        rows[3],
        /10 mar 2026, 12:00\|maria@municipio\.gob\.mx\|Consulta\|Entró al panel/,
      );
      assert.match(
        html,
        /aria-current="page"[^>]*>Auditoría|href="\/panel\/auditoria" aria-current="page"/,
      );
    },
  );

  await t.step("the log pages by 50, older entries behind a link", async () => {
    const admin = await signInStaff(ctx);
    const staff = {
      id: "ana@municipio.gob.mx",
      email: "ana@municipio.gob.mx",
      role: "admin",
    } as const;
    for (let i = 0; i < 60; i++) {
      ctx.clock.advance(1_000);
      await recordStaffAction(ctx.deps.kv, {
        staff,
        action: "code_replaced",
        target: `atractivo-${i}`,
        at: ctx.clock.now(),
      });
    }
    const first = await asStaff(ctx, admin, "/panel/auditoria");
    assert.equal((first.html.match(/<tr>/g) ?? []).length - 1, 50);
    assert.match(first.html, /atractivo-59/);
    const next = first.html.match(/href="(\/panel\/auditoria\?antes=[^"]+)"/);
    assert.ok(next, "a link to older entries");
    const second = await asStaff(ctx, admin, next[1].replaceAll("&amp;", "&"));
    assert.equal(second.res.status, 200);
    // 4 sign-ins and a sign-out before, 60 codes, 50 on the first page.
    assert.equal((second.html.match(/<tr>/g) ?? []).length - 1, 15);
    assert.match(second.html, /atractivo-9»/);
    assert.doesNotMatch(second.html, /Ver anteriores/);
    assert.match(second.html, /Ver las más recientes/);
  });

  await t.step(
    "a cursor edited by hand shows the newest page, not an error",
    async () => {
      const admin = await signInStaff(ctx);
      const { res, html } = await asStaff(
        ctx,
        admin,
        "/panel/auditoria?antes=basura",
      );
      assert.equal(res.status, 200);
      assert.match(html, /Entró al panel/);
    },
  );

  await t.step("entries carry who, what, on what and when", async () => {
    const { values } = await listStaffActions(ctx.deps.kv, { limit: 1000 });
    const coded = values.find((v) =>
      v.target === "atractivo-0"
    ) as StaffActionEntry;
    assert.deepEqual(Object.keys(coded).sort(), [
      "action",
      "at",
      "id",
      "staff",
      "target",
    ]);
    assert.deepEqual(coded.staff, {
      id: "ana@municipio.gob.mx",
      email: "ana@municipio.gob.mx",
      role: "admin",
    });
    const times = values.map((v) => Date.parse(v.at));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
  });
});

Deno.test("STAFF (configuration)", async (t) => {
  const oidc = {
    OIDC_ISSUER: "https://idp.example",
    OIDC_CLIENT_ID: "turismo",
    OIDC_CLIENT_SECRET: "secreto",
    BASE_URL: "https://turismo.example.gob.mx",
  };
  await t.step("lists e-mail addresses and subjects with their roles", () => {
    const config = parseConfig({
      ...oidc,
      STAFF:
        " admin:Ana@Municipio.gob.mx , viewer:maria@municipio.gob.mx,admin:sub:1234 ",
    });
    assert.deepEqual(config.staff, [
      { role: "admin", email: "ana@municipio.gob.mx" },
      { role: "viewer", email: "maria@municipio.gob.mx" },
      { role: "admin", subject: "1234" },
    ]);
    assert.deepEqual(parseConfig({}).staff, []);
  });
  await t.step("a bad entry stops the start, naming STAFF", () => {
    for (
      const bad of [
        "owner:ana@municipio.gob.mx",
        "ana@municipio.gob.mx",
        "admin:ana",
        "admin:sub:",
        "admin:a@b.mx,viewer:a@b.mx",
      ]
    ) {
      assert.throws(
        () => parseConfig({ ...oidc, STAFF: bad }),
        (error) =>
          error instanceof ConfigError && /STAFF: /.test(error.message),
        bad,
      );
    }
  });
  await t.step("STAFF without a provider is refused with what to do", () => {
    assert.throws(
      () => parseConfig({ STAFF: "admin:ana@municipio.gob.mx" }),
      /STAFF .*OIDC_ISSUER.*staff-link/,
    );
  });
});

Deno.test("GET /auth/personal/proveedor: staff sign-in at the OIDC provider", async (t) => {
  let handler: Deno.ServeHandler = () => new Response(null, { status: 503 });
  await using server = serveApp((req, info) => handler(req, info));
  const { origin } = server;
  await using provider = await startOidcProvider({
    redirectUri: `${origin}/auth/callback`,
  });
  await using ctx = await createTestContext({
    clockStart: new Date(),
    env: {
      ...oidcEnv(provider, origin),
      // The provider's accounts are <name>@ejemplo.mx, verified.
      STAFF: "admin:ana@ejemplo.mx,viewer:sub:pepe",
    },
  });
  handler = (req, info) => ctx.app.fetch(req, info);

  /** Signs `account` in at the provider from the staff entry point; returns the callback's answer. */
  async function signInAt(browser: CookieClient, account: string) {
    const isCallback = (url: URL) =>
      url.href.startsWith(`${origin}/auth/callback`);
    const page = await browser.follow(`${origin}/auth/personal/proveedor`, {
      stopAt: isCallback,
    });
    const html = await page.res.text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    assert.ok(action, "the provider's login form");
    const done = await browser.follow(
      new URL(action.replaceAll("&#x2F;", "/"), page.url),
      {
        stopAt: isCallback,
        init: {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            prompt: "login",
            login: account,
            password: "x",
          }),
        },
      },
    );
    assert.ok(isCallback(done.url), String(done.url));
    return await browser.fetch(done.url);
  }

  await t.step("the sign-in page offers the provider", async () => {
    const res = await fetch(`${origin}/auth/personal`);
    const html = await res.text();
    assert.match(html, /href="\/auth\/personal\/proveedor"/);
    assert.match(html, /Entrar con mi cuenta institucional/);
  });

  await t.step(
    "a listed, verified e-mail address opens an admin staff session",
    async () => {
      const browser = new CookieClient();
      const res = await signInAt(browser, "ana");
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /<meta http-equiv="refresh" content="0;url=\/panel"/);
      assert.ok(browser.cookie("staff"));
      assert.equal(browser.cookie("session"), undefined, "no tourist session");
      const panel = await browser.fetch(`${origin}/panel/auditoria`);
      assert.equal(panel.status, 200);
      const audit = await panel.text();
      assert.match(audit, /ana@ejemplo\.mx\|?.*Entró al panel/s);
      assert.match(audit, /Entró al panel \(con el proveedor de identidad\)/);
      const { values } = await listStaffActions(ctx.deps.kv);
      assert.equal(
        values.find((entry) => entry.action === "signin")?.method,
        "provider",
      );
    },
  );

  await t.step("a listed subject opens a viewer session", async () => {
    const browser = new CookieClient();
    const res = await signInAt(browser, "pepe");
    await res.body?.cancel();
    assert.ok(browser.cookie("staff"));
    const panel = await browser.fetch(`${origin}/panel`);
    assert.equal(panel.status, 200);
    assert.match(await panel.text(), /pepe@ejemplo\.mx.*Consulta/s);
    const audit = await browser.fetch(`${origin}/panel/auditoria`);
    assert.equal(audit.status, 403);
    await audit.body?.cancel();
  });

  await t.step(
    "an identity not listed gets a 403 and no session of any kind",
    async () => {
      const browser = new CookieClient();
      const before = (await listAll(ctx.deps.kv, ["staff_sessions"])).length;
      const res = await signInAt(browser, "luis");
      assert.equal(res.status, 403);
      assert.match(await res.text(), /Esta cuenta no tiene acceso al panel/);
      assert.equal(browser.cookie("staff"), undefined);
      assert.equal(browser.cookie("session"), undefined);
      assert.equal(
        (await listAll(ctx.deps.kv, ["staff_sessions"])).length,
        before,
      );
      const panel = await browser.fetch(`${origin}/panel`);
      assert.equal(panel.status, 404);
      await panel.body?.cancel();
    },
  );

  await t.step(
    "a tourist's sign-in still asks for no e-mail address",
    async () => {
      const res = await fetch(`${origin}/auth/signin`, { redirect: "manual" });
      await res.body?.cancel();
      const scope = new URL(res.headers.get("location")!).searchParams.get(
        "scope",
      );
      assert.equal(scope, "openid profile");
    },
  );
});

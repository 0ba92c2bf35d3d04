/**
 * The pages' one error funnel (`createPageRouter` in routes/_app.tsx), as
 * the site's pages and the staff console's (`createPanelRouter`) use it: a
 * thrown 404 is the site's 404 page, a 403 and anything unexpected are the
 * router's own pages (the console's frame for a staff member, the 404 page
 * for anyone else), the unexpected logged once; should that page fail too,
 * a line of text, never an unanswered request.
 */
import assert from "node:assert/strict";
import type { AppDeps } from "@/deps.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { StaffForbiddenError } from "@/lib/staff/mod.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import { createPanelRouter } from "@/routes/panel/_page.tsx";
import { capture, createTestContext } from "../test_utils.ts";

const ADMIN: StaffMember = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
};

/** A router of `create`'s kind whose pages throw, as a staff member or a stranger. */
function throwing(
  create: (deps: AppDeps) => ReturnType<typeof createPageRouter>,
  deps: AppDeps,
  staff?: StaffMember,
) {
  return create(deps)
    .use("*", async (c, next) => {
      if (staff) c.set("staff", staff);
      await next();
    })
    .get("/missing", () => {
      throw new NotFoundError("No está.");
    })
    .get("/refused", () => {
      throw new StaffForbiddenError("role");
    })
    .get("/boom", () => {
      throw new Error("secret internals at /srv/app.ts:42");
    });
}

async function request(
  router: ReturnType<typeof throwing>,
  path: string,
): Promise<{ status: number; text: string; logged: string[] }> {
  const { result, lines } = await capture("error", async () => {
    const res = await router.request(path);
    return { status: res.status, text: await res.text() };
  });
  return { ...result, logged: lines };
}

Deno.test("the pages' one error funnel", async (t) => {
  await using ctx = await createTestContext();
  const site = throwing(createPageRouter, ctx.deps);
  const panel = throwing(createPanelRouter, ctx.deps, ADMIN);
  const stranger = throwing(createPanelRouter, ctx.deps);

  await t.step(
    "a 404 is the site's 404 page, for site and console, unlogged",
    async () => {
      for (const router of [site, panel, stranger]) {
        const res = await request(router, "/missing");
        assert.equal(res.status, 404);
        assert.match(res.text, /<!DOCTYPE html>/);
        assert.deepEqual(res.logged, []);
      }
    },
  );

  await t.step(
    "a 403: the site's page, or the console's frame, saying why",
    async () => {
      const public403 = await request(site, "/refused");
      assert.equal(public403.status, 403);
      assert.match(
        public403.text,
        /Esta acción requiere permisos de administración/,
      );
      const staff403 = await request(panel, "/refused");
      assert.equal(staff403.status, 403);
      assert.match(staff403.text, /Tu cuenta del panel es de consulta/);
      assert.match(staff403.text, /Volver al panel/);
      assert.deepEqual([...public403.logged, ...staff403.logged], []);
    },
  );

  await t.step(
    "the unexpected: logged once, a 500 page without internals",
    async () => {
      const public500 = await request(site, "/boom");
      assert.equal(public500.status, 500);
      assert.match(public500.text, /<!DOCTYPE html>/);
      const staff500 = await request(panel, "/boom");
      assert.equal(staff500.status, 500);
      assert.match(staff500.text, /Algo salió mal en el panel/);
      for (const res of [public500, staff500]) {
        assert.ok(!res.text.includes("secret internals"));
        assert.equal(res.logged.length, 1);
        assert.match(res.logged[0], /Unhandled error on GET \/boom/);
      }
    },
  );

  await t.step(
    "in the console, a stranger learns nothing: the 404 page",
    async () => {
      for (const path of ["/refused", "/boom"]) {
        assert.equal((await request(stranger, path)).status, 404, path);
      }
    },
  );

  await t.step(
    "when the error page fails too, a line of text, for both",
    async () => {
      // Every page reads the data set in force: without it, none renders.
      const data = Object.create(ctx.deps.data) as AppDeps["data"];
      data.current = () => {
        throw new Error("the data set is gone");
      };
      const broken: AppDeps = { ...ctx.deps, data };
      for (
        const router of [
          throwing(createPageRouter, broken),
          throwing(createPanelRouter, broken, ADMIN),
        ]
      ) {
        const res = await request(router, "/boom");
        assert.equal(res.status, 500);
        assert.equal(res.text, "Error interno del servidor");
      }
    },
  );
});

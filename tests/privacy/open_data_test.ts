/**
 * The open data (`/datos`) and the panel's exports: visits and ratings
 * written through the API come back out of the CSV files, parsed as a
 * harvester parses them; small counts are blank, nothing personal leaves,
 * the Frictionless descriptor matches the files, and staff downloads are
 * audited.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import AjvDraft04 from "ajv-draft-04";
// The Frictionless specification's own JSON Schema of a Tabular Data Package.
import tabularDataPackage from "datapackage/src/profiles/tabular-data-package.json" with {
  type: "json",
};
import { ConfigError, parseConfig } from "@/lib/config/config.ts";
import { listStaffActions } from "@/lib/db/audit.ts";
import {
  createTestContext,
  getPage,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const [PLAZA, SECOND] = SHIPPED.attractions;
/** Noon in Tequila (UTC-6) on 10 March 2026. */
const VISIT_DAY = new Date("2026-03-10T18:00:00Z");
const DAY_MS = 24 * 60 * 60 * 1000;
const MONTH_MS = 31 * DAY_MS;
const PRIVATE_NOTE = "Escríbanme a ana.perez@ejemplo.mx";

/** `count` new tourists verify `slug`'s code; the first `ratings.length` rate it. */
async function visitAndRate(
  ctx: TestContext,
  attraction: { slug: string; guideCode: string },
  count: number,
  ratings: number[],
) {
  for (let i = 0; i < count; i++) {
    const userId = randomUserId();
    const res = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
      code: attraction.guideCode,
      userId,
    });
    assert.equal(res.status, 200, await res.text());
    if (i < ratings.length) {
      const rated = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
        userId,
        atractivoSlug: attraction.slug,
        rating: ratings[i],
        notes: i === 0 ? PRIVATE_NOTE : null,
      });
      assert.equal(rated.status, 200, await rated.text());
    }
  }
}

/** Rows of one day or month, in the files' order: by attraction slug. */
function bySlug(rows: string[][]): string[][] {
  return rows.toSorted((a, b) => a[1] < b[1] ? -1 : 1);
}

/** GETs a CSV file: status, type, then its rows as a harvester reads them. */
async function getCsv(
  ctx: TestContext,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ res: Response; text: string; rows: string[][] }> {
  const res = await ctx.app.request(path, { headers });
  assert.equal(res.status, 200, path);
  assert.equal(
    res.headers.get("content-type"),
    "text/csv; charset=utf-8; header=present",
  );
  const text = await res.text();
  return { res, text, rows: parse(text) };
}

Deno.test("GET /datos: open data a city's portal can harvest", async (t) => {
  await using ctx = await createTestContext({ clockStart: VISIT_DAY });
  await visitAndRate(ctx, PLAZA, 6, [5, 4, 4, 5, 3]);
  await visitAndRate(ctx, SECOND, 3, [2, 5]);

  await t.step("today's visits wait until the day is complete", async () => {
    const { rows } = await getCsv(ctx, "/datos/visitas-diarias.csv");
    assert.deepEqual(rows, [["fecha", "atractivo", "nombre", "visitas"]]);
  });

  ctx.clock.advance(DAY_MS);

  await t.step(
    "visitas-diarias.csv: one row per day and attraction, under 5 left blank",
    async () => {
      const { res, rows } = await getCsv(ctx, "/datos/visitas-diarias.csv");
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.deepEqual(rows, [
        ["fecha", "atractivo", "nombre", "visitas"],
        ...bySlug([
          ["2026-03-10", PLAZA.slug, PLAZA.name, "6"],
          ["2026-03-10", SECOND.slug, SECOND.name, ""],
        ]),
      ]);
    },
  );

  await t.step(
    "this month's ratings wait until the month is over",
    async () => {
      const { rows } = await getCsv(ctx, "/datos/calificaciones-mensuales.csv");
      assert.deepEqual(rows, [[
        "mes",
        "atractivo",
        "nombre",
        "calificaciones",
        "promedio",
      ]]);
    },
  );

  ctx.clock.advance(MONTH_MS);

  await t.step(
    "calificaciones-mensuales.csv: count and average, blank under 5, no notes",
    async () => {
      const { rows, text } = await getCsv(
        ctx,
        "/datos/calificaciones-mensuales.csv",
      );
      assert.deepEqual(rows, [
        ["mes", "atractivo", "nombre", "calificaciones", "promedio"],
        ...bySlug([
          ["2026-03", PLAZA.slug, PLAZA.name, "5", "4.20"],
          ["2026-03", SECOND.slug, SECOND.name, "", ""],
        ]),
      ]);
      assert.ok(!text.includes("ana.perez"), "no note leaves the portal");
    },
  );

  await t.step(
    "datapackage.json describes each file's fields, the licence and the update time",
    async () => {
      const res = await ctx.app.request("/datos/datapackage.json");
      assert.equal(res.status, 200);
      const descriptor = await res.json();
      const validate = new AjvDraft04.default({ strict: false, logger: false })
        .compile(
          tabularDataPackage,
        );
      const errors = validate(descriptor) ? null : validate.errors;
      assert.equal(errors, null, "valid by the Frictionless schema");
      assert.equal(descriptor.profile, "tabular-data-package");
      assert.match(descriptor.name, /^[a-z0-9._-]+$/);
      assert.deepEqual(
        descriptor.licenses.map((l: { name: string }) => l.name),
        [
          "CC-BY-4.0",
        ],
      );
      assert.equal(descriptor.updated, "2026-04-11T00:00:00-06:00");
      assert.equal(descriptor.created, descriptor.updated);
      assert.equal(descriptor.resources.length, 3);
      for (const resource of descriptor.resources) {
        const url = new URL(resource.path);
        const { rows } = await getCsv(ctx, url.pathname);
        assert.deepEqual(
          resource.schema.fields.map((f: { name: string }) => f.name),
          rows[0],
          `${resource.name}: the schema's fields are the header`,
        );
        assert.deepEqual(resource.schema.missingValues, [""]);
        assert.equal(resource.encoding, "utf-8");
        const counted = resource.schema.fields.at(-1).name === "promedio"
          ? resource.schema.fields.at(-2)
          : resource.schema.fields.at(-1);
        assert.match(counted.description, /menor que 5/);
      }
    },
  );

  await t.step(
    "the /datos page links every file and names the licence",
    async () => {
      const { html } = await getPage(ctx, "/datos");
      for (
        const file of [
          "visitas-diarias.csv",
          "calificaciones-mensuales.csv",
          "premios-canjeados-mensuales.csv",
          "datapackage.json",
        ]
      ) {
        assert.ok(html.includes(`href="/datos/${file}"`), file);
      }
      assert.match(html, /Creative Commons Atribución 4\.0 Internacional/);
      assert.match(html, /menor que 5/);
    },
  );
});

Deno.test("OPEN_DATA_LICENSE: a known licence, or an identifier and its URL", () => {
  assert.equal(
    parseConfig({ OPEN_DATA_LICENSE: "CC0-1.0" }).openDataLicense.path,
    "https://creativecommons.org/publicdomain/zero/1.0/",
  );
  assert.deepEqual(
    parseConfig({
      OPEN_DATA_LICENSE: "OGL-MX-1.0,https://datos.gob.mx/libreusomx",
    }).openDataLicense,
    {
      name: "OGL-MX-1.0",
      title: "OGL-MX-1.0",
      path: "https://datos.gob.mx/libreusomx",
    },
  );
  assert.throws(
    () => parseConfig({ OPEN_DATA_LICENSE: "mía" }),
    (error) =>
      error instanceof ConfigError && /OPEN_DATA_LICENSE/.test(error.message),
  );
});

Deno.test("GET /panel/exportar: staff downloads, audited; notes for admins only", async (t) => {
  await using ctx = await createTestContext({ clockStart: VISIT_DAY });
  await visitAndRate(ctx, PLAZA, 5, [5, 4, 4, 5, 3]);
  ctx.clock.advance(DAY_MS);

  await t.step("a stranger gets the 404 page", async () => {
    const res = await ctx.app.request("/panel/exportar/visitas-diarias.csv");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  });

  await t.step(
    "a viewer downloads the open data, and it is audited",
    async () => {
      const cookie = await signInStaff(ctx, {
        email: "maria@municipio.gob.mx",
        role: "viewer",
      });
      const { html } = await getPage(ctx, "/panel/exportar", 200, { cookie });
      assert.ok(!html.includes("calificaciones-con-notas.csv"));
      const staff = await getCsv(ctx, "/panel/exportar/visitas-diarias.csv", {
        cookie,
      });
      assert.equal(staff.res.headers.get("cache-control"), "private, no-store");
      const open = await getCsv(ctx, "/datos/visitas-diarias.csv");
      assert.equal(staff.text, open.text, "the same data as /datos");
      const { values } = await listStaffActions(ctx.deps.kv, { limit: 10 });
      const download = values.find((v) => v.action === "export_downloaded");
      assert.equal(download?.target, "visitas-diarias.csv");
      assert.equal(download?.staff.email, "maria@municipio.gob.mx");

      const notes = await ctx.app.request(
        "/panel/exportar/calificaciones-con-notas.csv",
        { headers: { cookie } },
      );
      assert.equal(notes.status, 403);
      await notes.body?.cancel();
    },
  );

  await t.step("an admin gets every rating with its notes", async () => {
    const cookie = await signInStaff(ctx);
    const { rows } = await getCsv(
      ctx,
      "/panel/exportar/calificaciones-con-notas.csv",
      { cookie },
    );
    assert.deepEqual(rows[0], [
      "fecha",
      "atractivo",
      "nombre",
      "calificacion",
      "notas",
      "nota_oculta",
    ]);
    assert.equal(rows.length, 6);
    assert.deepEqual(
      rows.slice(1).map((r) => r[3]).sort(),
      ["3", "4", "4", "5", "5"],
    );
    assert.deepEqual(rows.slice(1).filter((r) => r[4]).map((r) => r[4]), [
      PRIVATE_NOTE,
    ]);
    const { values } = await listStaffActions(ctx.deps.kv, { limit: 10 });
    assert.ok(
      values.some((v) =>
        v.action === "export_downloaded" &&
        v.target === "calificaciones-con-notas.csv"
      ),
    );
  });
});

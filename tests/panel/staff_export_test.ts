/**
 * The staff's CSV downloads (`/panel/exportar`) open right in Excel on
 * Windows: each starts with a UTF-8 byte-order mark (without it Excel reads
 * "Destilería" as "DestilerÃ­a") and shows times on the municipality's
 * clock, not in UTC. The public files at /datos do not change: no
 * byte-order mark, byte for byte what the staff get after it. Every staff
 * download, whatever its kind, is an audited attachment no cache keeps.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { listStaffActions } from "@/lib/db/audit.ts";
import {
  createTestContext,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
  ticketBody,
} from "../test_utils.ts";

const [PLAZA] = SHIPPED.attractions;
/** 14:30 in Tequila (UTC-6) on 10 March 2026. */
const VISIT_AT = new Date("2026-03-10T20:30:00Z");
const MONTH_LATER = 32 * 24 * 60 * 60 * 1000;
const BOM = [0xef, 0xbb, 0xbf];

async function getBytes(
  ctx: TestContext,
  path: string,
  cookie?: string,
): Promise<Uint8Array> {
  const res = await ctx.app.request(path, {
    headers: cookie ? { cookie } : {},
  });
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get("content-type") ?? "", /^text\/csv/, path);
  return new Uint8Array(await res.arrayBuffer());
}

function startsWithBom(bytes: Uint8Array): boolean {
  return BOM.every((byte, i) => bytes[i] === byte);
}

Deno.test("GET /panel/exportar/*.csv: a byte-order mark and local times", async (t) => {
  await using ctx = await createTestContext({ clockStart: VISIT_AT });
  const userId = randomUserId();
  const visit = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
    code: PLAZA.guideCode,
    userId,
  });
  assert.equal(visit.status, 200, await visit.text());
  const rated = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
    userId,
    atractivoSlug: PLAZA.slug,
    rating: 5,
    notes: "Muy bonita la destilería",
  });
  assert.equal(rated.status, 200, await rated.text());
  ctx.clock.advance(MONTH_LATER);
  const admin = await signInStaff(ctx);

  await t.step(
    "calificaciones-con-notas.csv starts with the mark and dates the rating 14:30 local, not 20:30 UTC",
    async () => {
      const bytes = await getBytes(
        ctx,
        "/panel/exportar/calificaciones-con-notas.csv",
        admin,
      );
      assert.ok(startsWithBom(bytes), "a byte-order mark");
      const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
        bytes.subarray(BOM.length),
      );
      const rows: string[][] = parse(text);
      assert.equal(rows[0][0], "fecha", "the header right after the mark");
      const row = rows.find((r) => r[4] === "Muy bonita la destilería");
      assert.ok(row, text);
      assert.equal(row[0], "2026-03-10 14:30");
      assert.ok(!text.includes("T20:30"), "no UTC instant");
    },
  );

  for (const file of ["visitas-diarias.csv", "calificaciones-mensuales.csv"]) {
    await t.step(
      `${file}: the staff's copy is the mark and then /datos's, which has none`,
      async () => {
        const open = await getBytes(ctx, `/datos/${file}`);
        assert.ok(!startsWithBom(open), "no mark in the public file");
        assert.ok(
          new TextDecoder().decode(open).includes(PLAZA.slug),
          "the file has rows",
        );
        const staff = await getBytes(ctx, `/panel/exportar/${file}`, admin);
        assert.deepEqual(staff, new Uint8Array([...BOM, ...open]));
      },
    );
  }
});

Deno.test("every staff download: audited, an attachment, kept by no cache", async (t) => {
  await using ctx = await createTestContext({ clockStart: VISIT_AT });
  const userId = randomUserId();
  const ticket = ticketBody();
  const created = await postAsUser(ctx, "/api/turismo/ticket", userId, ticket);
  assert.equal(created.status, 200, await created.text());
  const admin = await signInStaff(ctx);
  const csv = (path: string, file = path.replace(/.*\//, "")) => ({
    path,
    file,
    type: "text/csv",
  });
  const downloads: {
    path: string;
    file: string;
    type: string;
    action?: string;
    target?: RegExp | string;
  }[] = [
    csv("/panel/exportar/visitas-diarias.csv"),
    csv("/panel/exportar/calificaciones-mensuales.csv"),
    csv("/panel/exportar/calificaciones-con-notas.csv"),
    csv("/panel/auditoria/auditoria.csv"),
    {
      path: "/panel/exportar/libro.xlsx",
      file: "turismo-cifras-2026-03.xlsx",
      type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      // Recorded by its path's name, as before.
      target: "libro.xlsx",
    },
    {
      path: "/panel/informe?mes=2026-02",
      file: "informe-turismo-2026-02.pdf",
      type: "application/pdf",
    },
    {
      path: "/panel/carteles.pdf",
      file: "carteles.pdf",
      type: "application/pdf",
    },
    {
      path: `/panel/carteles.pdf?atractivo=${PLAZA.slug}`,
      file: `cartel-${PLAZA.slug}.pdf`,
      type: "application/pdf",
    },
    {
      path: `/panel/codigos/${PLAZA.slug}/cartel.svg`,
      file: `cartel-${PLAZA.slug}.svg`,
      type: "image/svg+xml",
    },
    {
      path: `/panel/solicitudes/${ticket.shareCode.toLowerCase()}/datos.json`,
      file: "mis-datos-2026-03-10.json",
      type: "application/json",
      action: "personal_data_exported",
      target: /^ticket:[\w-]{12}$/,
    },
  ];
  for (const { path, file, type, action, target } of downloads) {
    await t.step(`${path}: ${file}, audited`, async () => {
      const before = await listStaffActions(ctx.deps.kv, { limit: 500 });
      const res = await ctx.app.request(path, { headers: { cookie: admin } });
      assert.equal(res.status, 200, path);
      assert.ok(res.headers.get("content-type")?.startsWith(type), path);
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="${file}"`,
      );
      assert.equal(res.headers.get("cache-control"), "private, no-store");
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.equal(startsWithBom(bytes), type === "text/csv", "a mark on CSVs");
      const after = await listStaffActions(ctx.deps.kv, { limit: 500 });
      const added = after.values.filter((entry) =>
        !before.values.some((old) => old.id === entry.id)
      );
      assert.deepEqual(
        added.map((entry) => ({
          action: entry.action,
          email: entry.staff.email,
        })),
        [{
          action: action ?? "export_downloaded",
          email: "ana@municipio.gob.mx",
        }],
      );
      if (target instanceof RegExp) assert.match(added[0].target!, target);
      else assert.equal(added[0].target, target ?? file);
      assert.ok(!added[0].target!.includes(ticket.shareCode), "no share code");
    });
  }
});

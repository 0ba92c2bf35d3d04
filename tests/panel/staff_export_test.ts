/**
 * The staff's CSV downloads (`/panel/exportar`) open right in Excel on
 * Windows: each starts with a UTF-8 byte-order mark (without it Excel reads
 * "Destilería" as "DestilerÃ­a") and shows times on the municipality's
 * clock, not in UTC. The public files at /datos do not change: no
 * byte-order mark, byte for byte what the staff get after it.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import {
  createTestContext,
  postAsUser,
  randomUserId,
  SHIPPED,
  signInStaff,
  type TestContext,
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

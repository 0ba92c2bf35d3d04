/**
 * The staff's reports in headless Chromium: on `/panel/exportar` an admin
 * clicks the monthly report, the workbook and the posters, and each link
 * gives a download (playwright's download event) with its file name and a
 * body that is what it says (a PDF, an XLSX: a ZIP); axe finds nothing on
 * the page. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { recordVisit } from "@/lib/db/visits.ts";
import { parseReportMonth } from "@/lib/staff/mod.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import {
  browserSkipReason,
  describeViolations,
  runAxe,
  startBrowserApp,
  watchPage,
} from "../browser.ts";

const DESKTOP = { width: 1280, height: 800 };

Deno.test({
  name:
    "GET /panel/exportar in Chromium: the report, the workbook and the posters download",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    // The real clock: the browser drops a cookie that expired by its own.
    await using app = await startBrowserApp();
    const { ctx, origin, browser } = app;
    const { data } = ctx.deps.data.current();
    const { timeZone } = data.municipality;
    const lastMonth = parseReportMonth(undefined, {
      now: ctx.clock.now(),
      timeZone,
    });
    await recordVisit(ctx.deps.kv, {
      userId: crypto.randomUUID(),
      slug: data.attractions[0].slug,
      now: new Date(ctx.clock.now().getTime() - 32 * 86_400_000),
      totalAttractions: 17,
      timeZone,
    });
    const { url } = await createStaffSignInLink(ctx.deps.kv, {
      email: "ana@municipio.gob.mx",
      role: "admin",
      baseUrl: origin,
      now: ctx.clock.now(),
    });
    const context = await browser.newContext({
      viewport: DESKTOP,
      acceptDownloads: true,
      // axe is injected as a script: the page's CSP would block it.
      bypassCSP: true,
    });
    try {
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      await page.goto(url);
      await page.getByRole("button", { name: "Entrar al panel" }).click();
      await page.waitForURL(`${origin}/panel`);
      const res = await page.goto(`${origin}/panel/exportar`);
      assert.equal(res?.status(), 200, await page.content());

      await t.step("axe finds nothing on the page", async () => {
        const violations = await runAxe(page);
        assert.equal(violations.length, 0, describeViolations(violations));
      });

      const downloads: [RegExp, string, number[]][] = [
        // %PDF
        [/Informe mensual/, `informe-turismo-${lastMonth}.pdf`, [
          0x25,
          0x50,
          0x44,
          0x46,
        ]],
        // PK: an XLSX is a ZIP
        [/Libro de Excel/, "turismo-cifras.xlsx", [0x50, 0x4b]],
        [/Carteles de todos/, "carteles.pdf", [0x25, 0x50, 0x44, 0x46]],
      ];
      for (const [name, file, magic] of downloads) {
        await t.step(`the link ${name} downloads ${file}`, async () => {
          const [download] = await Promise.all([
            page.waitForEvent("download"),
            page.getByRole("link", { name }).click(),
          ]);
          assert.equal(download.suggestedFilename(), file);
          assert.equal(await download.failure(), null);
          const path = await download.path();
          const bytes = await Deno.readFile(path);
          assert.ok(bytes.length > 1000, `${file}: ${bytes.length} bytes`);
          assert.deepEqual([...bytes.subarray(0, magic.length)], magic, file);
        });
      }
      assert.deepEqual(watch.problems, []);
    } finally {
      await context.close();
    }
  },
});

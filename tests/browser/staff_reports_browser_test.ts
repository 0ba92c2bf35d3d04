/**
 * The staff's reports in headless Chromium at 1366 px: on `/panel/exportar`
 * an admin picks a month for the report and for the workbook and each
 * button downloads that month's file (playwright's download event; the
 * report read back names the month), and the posters' links download
 * theirs; each body is what it says (a PDF, an XLSX: a ZIP); axe finds
 * nothing on the page. Skipped, with the reason printed, when Chromium is
 * missing.
 */
import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import { recordVisit } from "@/lib/db/visits.ts";
import {
  formatReportMonth,
  parseExportMonth,
  parseReportMonth,
} from "@/lib/staff/mod.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import {
  browserSkipReason,
  describeViolations,
  runAxe,
  startBrowserApp,
  watchPage,
} from "../browser.ts";

const DESKTOP = { width: 1366, height: 768 };

Deno.test({
  name:
    "GET /panel/exportar in Chromium: a month picked, its report and workbook download",
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
    })!;
    const thisMonth = parseExportMonth(undefined, {
      now: ctx.clock.now(),
      timeZone,
      fallback: "current",
    }).month;
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
      locale: "es-MX",
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

      const PDF = [0x25, 0x50, 0x44, 0x46]; // %PDF
      const ZIP = [0x50, 0x4b]; // PK: an XLSX is a ZIP
      const save = async (
        click: () => Promise<void>,
        file: string,
        magic: number[],
      ) => {
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          click(),
        ]);
        assert.equal(download.suggestedFilename(), file);
        assert.equal(await download.failure(), null);
        const bytes = await Deno.readFile(await download.path());
        assert.ok(bytes.length > 1000, `${file}: ${bytes.length} bytes`);
        assert.deepEqual([...bytes.subarray(0, magic.length)], magic, file);
        return bytes;
      };

      await t.step(
        "the report's month picked, its button downloads that month's report",
        async () => {
          const picker = page.getByLabel("Mes del informe");
          assert.equal(
            await picker.inputValue(),
            thisMonth,
            "this month first",
          );
          await picker.selectOption(lastMonth);
          const bytes = await save(
            () =>
              page.getByRole("button", { name: "Descargar el informe (PDF)" })
                .click(),
            `informe-turismo-${lastMonth}.pdf`,
            PDF,
          );
          const pdf = await getDocumentProxy(bytes);
          const { text } = await extractText(pdf, { mergePages: true });
          assert.ok(
            text.includes(
              `Informe de turismo: ${formatReportMonth(lastMonth)}`,
            ),
            text,
          );
        },
      );

      await t.step(
        "the workbook's month picked, its button downloads that month's workbook",
        async () => {
          await page.getByLabel("Mes del libro de Excel").selectOption(
            lastMonth,
          );
          await save(
            () =>
              page.getByRole("button", { name: "Descargar el libro (XLSX)" })
                .click(),
            `turismo-cifras-${lastMonth}.xlsx`,
            ZIP,
          );
        },
      );

      await t.step("the posters' links download all, or one", async () => {
        await save(
          () => page.getByRole("link", { name: /Carteles de todos/ }).click(),
          "carteles.pdf",
          PDF,
        );
        await page.getByText("El cartel de un solo atractivo").click();
        const first = data.attractions[0];
        await save(
          () =>
            page.getByRole("link", { name: `Cartel de ${first.name} (PDF)` })
              .click(),
          `cartel-${first.slug}.pdf`,
          PDF,
        );
      });
      assert.deepEqual(watch.problems, []);
    } finally {
      await context.close();
    }
  },
});

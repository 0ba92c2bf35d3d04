/**
 * The office's guide codes and moderation in headless Chromium, against the
 * service as its own process on a KV file: an admin signs in with a staff
 * link (`scripts/staff_link.ts`), replaces a code with a grace period and
 * reads the new one; tourists (other browser contexts, guest passports)
 * check in with the new code and with the old one; the admin hides a note
 * and it is gone from `/ruta/<code>`. Skipped when Chromium is missing.
 */
import assert from "node:assert/strict";
import { openKv } from "@/lib/db/kv.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { listVisits, rateVisit } from "@/lib/db/visits.ts";
import { ensureBuild } from "@/scripts/build.ts";
import { browserSkipReason, launchBrowser, watchPage } from "../browser.ts";
import {
  createStaffLinkFor,
  startServiceOnKvFile,
} from "../service_process.ts";
import { randomTicket, SHIPPED } from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 800 };
const PLAZA = SHIPPED.attractions[0];

Deno.test({
  name:
    "GET /panel/codigos and /panel/notas in Chromium: replace a code, check in with new and old, hide a note",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-panel-codes-",
    });
    const { env, kvPath, service: { port, url: origin } } = running;
    const browser = await launchBrowser();
    try {
      const link = await createStaffLinkFor({
        env,
        port,
        email: "ana@municipio.gob.mx",
        role: "admin",
      });

      const admin = await browser.newContext({
        locale: "es-MX",
        viewport: DESKTOP,
      });
      const page = await admin.newPage();
      const watch = watchPage(page, origin);
      await page.goto(link);
      await page.getByRole("button", { name: "Entrar al panel" }).click();
      await page.waitForURL(`${origin}/panel`);

      let newCode = "";
      await t.step(
        "the admin replaces the Plaza's code with 7 days of grace and reads the new one",
        async () => {
          await page.getByRole("navigation", { name: "Panel" })
            .getByRole("link", { name: "Códigos" }).click();
          await page.waitForURL(`${origin}/panel/codigos`);
          const row = page.getByRole("row", { name: new RegExp(PLAZA.name) });
          assert.equal(
            await row.locator("code.guide-code").innerText(),
            PLAZA.guideCode.toUpperCase(),
          );
          await row.getByLabel("Periodo de gracia del código anterior")
            .selectOption("7");
          await row.getByRole("button", { name: /Reemplazar código/ }).click();
          await page.getByRole("button", { name: "Sí, reemplazar el código" })
            .click();
          newCode = (await page.locator("#nuevo-codigo").innerText()).trim();
          assert.match(newCode, /^[2-9A-HJ-NP-Z]{6}$/);
          assert.equal(
            await row.locator("code.guide-code").innerText(),
            newCode,
          );
        },
      );

      await t.step(
        "tourists check in with the new code, and with the old one during the grace period",
        async () => {
          for (const typed of [newCode, PLAZA.guideCode]) {
            const tourist = await browser.newContext({ locale: "es-MX" });
            const touristPage = await tourist.newPage();
            await touristPage.goto(
              `${origin}/turismo/atractivos/${PLAZA.slug}`,
            );
            await touristPage.getByLabel("Código del atractivo").fill(typed);
            await touristPage.getByRole("button", {
              name: "Registrar mi visita",
            }).click();
            await touristPage.getByText(
              `¡Listo! Registramos tu visita a ${PLAZA.name}.`,
            ).waitFor();
            await tourist.close();
          }
        },
      );

      await t.step(
        "the admin hides a note and it is gone from /ruta/<code>",
        async () => {
          const note = `Nota de prueba ${crypto.randomUUID().slice(0, 8)}`;
          const kv = await openKv(kvPath);
          let shareCode;
          try {
            const [visit] = await listVisitsOfAnyone(kv);
            await rateVisit(kv, {
              userId: visit.userId,
              slug: visit.slug,
              rating: 4,
              notes: note,
              now: new Date(),
            });
            ({ shareCode } = await saveTicket(
              kv,
              randomTicket({ userId: visit.userId }),
            ));
          } finally {
            kv.close();
          }
          const visitor = await browser.newContext({ locale: "es-MX" });
          const routePage = await visitor.newPage();
          await routePage.goto(`${origin}/ruta/${shareCode}`);
          await routePage.getByText(note).waitFor();

          await page.getByRole("navigation", { name: "Panel" })
            .getByRole("link", { name: "Notas" }).click();
          await page.waitForURL(`${origin}/panel/notas`);
          const item = page.locator("li", { hasText: note });
          await item.getByRole("button", { name: "Ocultar" }).click();
          await page.locator("li", { hasText: note })
            .getByRole("button", { name: "Mostrar" }).waitFor();

          await routePage.reload();
          await routePage.getByText(/1 de 17 atractivos visitados/).waitFor();
          assert.equal(await routePage.getByText(note).count(), 0);
          await visitor.close();
        },
      );

      assert.deepEqual(watch.problems, []);
      assert.deepEqual(watch.dialogs, []);
    } finally {
      await browser.close();
    }
  },
});

/** The visits recorded so far, of whichever tourists made them. */
async function listVisitsOfAnyone(kv: Deno.Kv) {
  for await (const entry of kv.list<unknown>({ prefix: ["visits"] })) {
    const userId = entry.key[1] as string;
    return await listVisits(kv, userId);
  }
  throw new Error("no visits");
}

/**
 * A prize's whole loop in Chromium, as it runs in town: two service
 * processes on one KV file (two instances), a tourist's phone on instance A
 * and the partner's phone on instance B, in Spanish and then in English.
 * Four codes typed leave the prize one stamp away; the fifth unlocks it;
 * the tourist claims it, loses the signal and still opens the counter's
 * screen; the partner types what that screen shows and reads "Válido"; a
 * second try says when it was redeemed; back online, the passport says
 * so too, and the redemption is counted once. Skipped, with the reason
 * printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import {
  assertAxeClean,
  browserSkipReason,
  launchBrowser,
  PHONE,
  saveScreenshot,
  waitUntilKeptOffline,
  watchPage,
} from "@/tests/browser.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  getFreePort,
  startService,
  startServiceOnKvFile,
  stopServices,
  waitUntilHealthy,
} from "@/tests/service_process.ts";
import { seedPartnerInKv } from "@/tests/rewards_fixtures.ts";
import { SHIPPED } from "@/tests/test_utils.ts";
import { loadPrizeReport } from "@/lib/rewards/mod.ts";

const FIVE = SHIPPED.attractions.slice(0, 5);
type Place = (typeof FIVE)[number];

/** What the tourist's phone says, per language. */
const TOURIST = {
  es: {
    locale: "es-MX",
    prefix: "",
    codeLabel: "Código del atractivo",
    submit: "Registrar mi visita",
    done: (place: Place) => `¡Listo! Registramos tu visita a ${place.name}.`,
    prize: "10 % de descuento",
    oneToGo: "Te falta 1 sello",
    claim: "Canjear",
    show: "Mostrar el código",
    atCounter: "Muestra esta pantalla en el mostrador.",
    redeemed: "Este premio ya se canjeó.",
    back: "Volver al pasaporte",
    redeemedAt: /^Canjeado el \d{1,2} de \p{L}+ a las \d\d:\d\d$/u,
  },
  en: {
    locale: "en-US",
    prefix: "/en",
    codeLabel: "Attraction code",
    submit: "Check in",
    done: (place: Place) =>
      `All set! You're checked in at ${place.i18n?.en?.name ?? place.name}.`,
    prize: "10% off",
    oneToGo: "1 more stamp to go",
    claim: "Claim",
    show: "Show the code",
    atCounter: "Show this screen at the counter.",
    redeemed: "This prize has already been redeemed.",
    back: "Back to the passport",
    redeemedAt: /^Redeemed on \p{L}+ \d{1,2} at \d\d:\d\d$/u,
  },
} as const;

/** The reference and digits the counter's screen shows, once they are there. */
async function readCounterScreen(page: Page) {
  const screen = page.locator(".redemption");
  await screen.locator("[data-digits]").filter({ hasText: /^\d{4}$/ })
    .waitFor();
  return {
    reference: (await screen.locator("[data-reference]").innerText()).trim(),
    digits: (await screen.locator("[data-digits]").innerText()).trim(),
  };
}

/** Types `attraction`'s guide code on its page, as a tourist does. */
async function checkIn(
  page: Page,
  origin: string,
  words: (typeof TOURIST)["es" | "en"],
  attraction: Place,
) {
  await page.goto(
    `${origin}${words.prefix}/turismo/atractivos/${attraction.slug}`,
  );
  await page.getByLabel(words.codeLabel).fill(attraction.guideCode);
  await page.getByRole("button", { name: words.submit }).click();
  await page.locator(".check-in").getByText(words.done(attraction))
    .waitFor();
}

/** The partner's phone: signs in with the PIN, types a code, reads the answer's heading. */
async function partnerTypes(page: Page, code: string): Promise<string> {
  await page.getByLabel("Código del cliente").fill(code);
  await page.getByRole("button", { name: "Comprobar y canjear" }).click();
  const heading = page.locator(".partner-page h1, .partner-page h2").filter({
    hasText: /^(Válido|Ya canjeado|Código caducado|Este código)/,
  }).first();
  await heading.waitFor();
  return (await heading.innerText()).trim();
}

Deno.test({
  name:
    "a prize's whole loop in Chromium, both languages: five stamps, claim, no signal at the counter, the partner on a second instance, once",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-prizes-loop-",
    });
    const { env, kvPath, service: a } = running;
    const b = startService({ env, port: await getFreePort() });
    const browser = await launchBrowser();
    const kv = await Deno.openKv(kvPath);
    const contexts: BrowserContext[] = [];
    try {
      await waitUntilHealthy(b);
      const { partner, prize, pin } = await seedPartnerInKv(kv, new Date());
      const timeZone = SHIPPED.municipality.timeZone;

      // The partner's phone, on instance B, signed in once for the day.
      const partnerContext = await browser.newContext({
        locale: "es-MX",
        viewport: PHONE,
        hasTouch: true,
        isMobile: true,
      });
      contexts.push(partnerContext);
      const counter = await partnerContext.newPage();
      const counterWatch = watchPage(counter, b.url);
      // A second try's answer is a 409 page, as it should be.
      counterWatch.allow(/status of 409 .*\/socio\/canjear/);
      await counter.goto(`${b.url}/socio`);
      await counter.getByLabel("PIN del comercio").fill(pin);
      await counter.getByRole("button", { name: "Entrar" }).click();
      await counter.getByRole("heading", { name: partner.name }).waitFor();

      for (const lang of ["es", "en"] as const) {
        const words = TOURIST[lang];
        const context = await browser.newContext({
          locale: words.locale,
          viewport: PHONE,
          hasTouch: true,
          isMobile: true,
          // For axe only: the pages' CSP forbids its injected script.
          bypassCSP: true,
        });
        contexts.push(context);
        const page = await context.newPage();
        const watch = watchPage(page, a.url);
        watch.allow(/ERR_INTERNET_DISCONNECTED|Failed to fetch/);
        const passportUrl = `${a.url}${words.prefix}/mi-pasaporte`;
        const item = page.locator(".passport-prizes .prize").filter({
          hasText: words.prize,
        });
        let shown = { reference: "", digits: "" };

        await t.step(
          `${lang}: four stamps leave the prize one away`,
          async () => {
            for (const attraction of FIVE.slice(0, 4)) {
              await checkIn(page, a.url, words, attraction);
            }
            await page.goto(passportUrl);
            await item.getByText(words.oneToGo).waitFor();
            assert.equal(
              await item.getByRole("button", { name: words.claim }).count(),
              0,
              "nothing to claim yet",
            );
            assert.match(await item.innerText(), new RegExp(partner.name));
            await assertAxeClean(page, `the passport's prizes (${lang})`);
          },
        );

        await t.step(
          `${lang}: the fifth unlocks it; the claim opens the counter's screen`,
          async () => {
            await checkIn(page, a.url, words, FIVE[4]);
            await page.goto(passportUrl);
            const claim = item.getByRole("button", { name: words.claim });
            await claim.waitFor();
            await page.locator(".passport-prizes").evaluate((section) =>
              section.scrollIntoView({ block: "start", behavior: "instant" })
            );
            await saveScreenshot(page, `passport-prize-${lang}`, {
              fullPage: false,
            });
            await claim.click();
            shown = await readCounterScreen(page);
            assert.match(shown.reference, /^[2-9A-HJKMNP-Z]{5}$/);
            assert.match(
              await page.locator(".redemption").innerText(),
              new RegExp(words.atCounter.replace(".", "\\.")),
            );
            await assertAxeClean(page, `the counter's screen (${lang})`);
            await saveScreenshot(page, `prize-redemption-${lang}`, {
              fullPage: false,
            });
          },
        );

        await t.step(
          `${lang}: with no signal the passport still opens the screen`,
          async () => {
            await waitUntilKeptOffline(page);
            await context.setOffline(true);
            await page.goto(passportUrl);
            await item.getByRole("button", { name: words.show }).click();
            const offline = await readCounterScreen(page);
            assert.equal(offline.reference, shown.reference);
            shown = offline;
          },
        );

        await t.step(
          `${lang}: the partner on instance B: Válido, then when it was redeemed`,
          async () => {
            const code = `${shown.reference} ${shown.digits}`;
            assert.equal(
              await partnerTypes(counter, code),
              "Válido: 10 % de descuento",
            );
            await saveScreenshot(counter, "partner-valid", { fullPage: false });
            assert.match(
              await partnerTypes(counter, code),
              /^Ya canjeado el \d{1,2} de \p{L}+ a las \d\d:\d\d$/u,
            );
          },
        );

        await t.step(
          `${lang}: back online, the passport says it was redeemed`,
          async () => {
            await context.setOffline(false);
            await page.locator(".redemption").getByText(words.redeemed)
              .waitFor({ timeout: 15_000 });
            await page.getByRole("button", { name: words.back }).click();
            await item.getByText(words.redeemedAt).waitFor();
            assert.equal(
              await item.getByRole("button", { name: words.claim }).count(),
              0,
              "one per passport: nothing more to claim",
            );
            // A reload (the sync after the signal came back) changes nothing.
            await page.reload();
            await item.getByText(words.redeemedAt).waitFor();
          },
        );
        assert.deepEqual(watch.problems, [], lang);
      }

      await t.step(
        "counted once a passport: the store, the partner's page",
        async () => {
          const today = new Intl.DateTimeFormat("en-CA", { timeZone })
            .format(new Date());
          const report = await loadPrizeReport(kv, {
            from: today,
            to: today,
            attractionCount: SHIPPED.attractions.length,
          });
          const row = report.prizes.find((each) => each.prize.id === prize.id);
          assert.ok(row, "the prize is in the report");
          assert.equal(row.unlocked, 2, "two passports reached five stamps");
          assert.equal(row.claimed, 2);
          assert.equal(row.redeemed, 2);
          await counter.goto(`${b.url}/socio`);
          const todayRow = counter.locator(".partner-table tbody tr").first();
          assert.equal(
            (await todayRow.locator("td").first().innerText()).trim(),
            "2",
          );
        },
      );
      assert.deepEqual(counterWatch.problems, []);
    } finally {
      for (const context of contexts) await context.close();
      await browser.close();
      kv.close();
      await stopServices([b]);
    }
  },
});

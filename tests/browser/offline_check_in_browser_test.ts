/**
 * A guide code with no signal, in headless Chromium with the network
 * switched off and on (`context.setOffline`): typed offline it shows at once
 * as a pending stamp and is recorded once when the signal returns; a reply
 * lost on the way (the server committed, the phone never heard) is sent
 * again and gets the same success, one visit in KV; a wrong code typed
 * offline ends refused with the reason; another attraction's code says
 * whose it is, with its link, and offers no rating here; a page whose stamp
 * the device has shows it and the tourist's rating, offline too. Axe finds
 * nothing in each new state. Skipped, with the reason printed, when
 * Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { keys } from "@/lib/db/keys.ts";
import {
  assertAxeClean,
  browserSkipReason,
  PHONE,
  startBrowserApp,
  waitUntilKeptOffline,
  watchPage,
} from "../browser.ts";
import { countEntries as count } from "../kv_dump.ts";
import { SHIPPED } from "../test_utils.ts";

const [PLAZA, SECOND, THIRD] = SHIPPED.attractions;
const ROJENA = SHIPPED.attractions.find((a) =>
  a.name === "Destilería La Rojeña"
)!;

Deno.test({
  name:
    "a guide code with no signal in Chromium: pending at once, recorded once when the signal returns, refused with the reason",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using running = await startBrowserApp({ cachePages: true });
    const { ctx, origin, browser } = running;
    const kv = ctx.deps.kv;
    const pageOf = (slug: string) => `${origin}/turismo/atractivos/${slug}`;

    /** A new tourist's phone: its own guest passport once it checks in. */
    async function openPhone(): Promise<
      { context: BrowserContext; page: Page; problems: string[] }
    > {
      const context = await browser.newContext({
        locale: "es-MX",
        viewport: PHONE,
        hasTouch: true,
        isMobile: true,
        bypassCSP: true,
      });
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      // The browser logs the refusals' statuses, and the failed requests
      // while offline or with the reply cut.
      watch.allow(
        /404|409|422|ERR_INTERNET_DISCONNECTED|ERR_FAILED|Failed to fetch/,
      );
      return { context, page, problems: watch.problems };
    }

    const checkIn = (page: Page) => page.locator(".check-in");
    const ready = (page: Page) =>
      page.locator(".check-in button[type=submit]:not([disabled])").waitFor();

    await t.step(
      "typed offline: a pending stamp at once, nothing sent; back online: recorded once",
      async () => {
        const { context, page, problems } = await openPhone();
        await page.goto(pageOf(PLAZA.slug));
        await ready(page);
        await context.setOffline(true);
        await page.getByLabel("Código del atractivo").fill(PLAZA.guideCode);
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await checkIn(page).getByText(
          "Sello pendiente: lo enviaremos en cuanto tengas señal.",
          { exact: false },
        ).waitFor();
        assert.equal(await page.getByLabel("Código del atractivo").count(), 0);
        assert.equal(await count(kv, keys.visits()), 0);
        await assertAxeClean(page, "pending");

        await context.setOffline(false);
        await checkIn(page).getByText(
          `¡Listo! Registramos tu visita a ${PLAZA.name}.`,
        ).waitFor();
        await checkIn(page).locator(".rating-form").waitFor();
        assert.equal(await count(kv, keys.visits()), 1);
        assert.equal(await count(kv, ["check_ins"]), 1);
        // The page, the service worker's Background Sync and the next page
        // load may all try: still one visit.
        await page.reload();
        await checkIn(page).getByText(`Ya tienes el sello de ${PLAZA.name}`)
          .waitFor();
        assert.equal(await count(kv, keys.visits()), 1);
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "the first reply lost: the next sync gets the same success, one visit",
      async () => {
        const before = await count(kv, keys.visits());
        const { context, page, problems } = await openPhone();
        const replies: string[] = [];
        let cut = 0;
        await context.route("**/api/turismo/check-in", async (route) => {
          const response = await route.fetch();
          replies.push(await response.text());
          if (cut++ === 0) return await route.abort("failed");
          await route.fulfill({ response });
        });
        await page.goto(pageOf(SECOND.slug));
        await ready(page);
        await page.getByLabel("Código del atractivo").fill(SECOND.guideCode);
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await checkIn(page).getByText("Sello pendiente", { exact: false })
          .waitFor();
        // The server did record it: the phone does not know yet.
        assert.equal(await count(kv, keys.visits()), before + 1);

        // The next page load sends it again.
        await page.reload();
        await checkIn(page).getByText(`Ya tienes el sello de ${SECOND.name}`)
          .waitFor();
        assert.equal(replies.length, 2);
        assert.equal(replies[1], replies[0], "the first answer, again");
        assert.equal(JSON.parse(replies[0]).success, true);
        assert.equal(await count(kv, keys.visits()), before + 1);
        assert.equal(
          await checkIn(page).getByText("Ya registraste").count(),
          0,
          "a success, not «already stamped»",
        );
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "a wrong code typed offline ends refused with the reason, and the form is back",
      async () => {
        const { context, page, problems } = await openPhone();
        await page.goto(pageOf(THIRD.slug));
        await ready(page);
        await context.setOffline(true);
        await page.getByLabel("Código del atractivo").fill("NOEXISTE1");
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await checkIn(page).getByText("Sello pendiente", { exact: false })
          .waitFor();
        await context.setOffline(false);
        await checkIn(page).getByText(
          /Ese código no corresponde a ningún atractivo\..*Te quedan 9 intentos\./,
        ).waitFor();
        await ready(page);
        assert.equal(await checkIn(page).locator(".rating-form").count(), 0);
        await assertAxeClean(page, "refused");
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "another attraction's code says whose it is, links it, and offers no rating here",
      async () => {
        const { context, page, problems } = await openPhone();
        await page.goto(pageOf(PLAZA.slug));
        await ready(page);
        await page.getByLabel("Código del atractivo").fill(ROJENA.guideCode);
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        const message = checkIn(page).getByText(
          `Este código es de ${ROJENA.name}: registramos tu sello ahí.`,
        );
        await message.waitFor();
        assert.equal(
          await message.getByRole("link", { name: ROJENA.name }).getAttribute(
            "href",
          ),
          `/turismo/atractivos/${ROJENA.slug}`,
        );
        assert.equal(await checkIn(page).locator(".rating-form").count(), 0);
        // This attraction is still to be stamped: its form stays.
        await ready(page);
        await assertAxeClean(page, "another attraction's code");

        // Its own page knows the stamp and offers the rating.
        await message.getByRole("link", { name: ROJENA.name }).click();
        await checkIn(page).getByText(`Ya tienes el sello de ${ROJENA.name}`)
          .waitFor();
        await checkIn(page).locator(".rating-form").waitFor();
        assert.equal(await page.getByLabel("Código del atractivo").count(), 0);
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "a page with the stamp shows it and the rating, online and offline",
      async () => {
        const { context, page, problems } = await openPhone();
        await page.goto(pageOf(PLAZA.slug));
        await ready(page);
        await page.getByLabel("Código del atractivo").fill(PLAZA.guideCode);
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await checkIn(page).getByRole("radio", { name: "4 estrellas" }).check();
        await checkIn(page).getByLabel("Notas (opcional)").fill("Muy bonita");
        await checkIn(page).getByRole("button", {
          name: "Guardar calificación",
        }).click();
        await checkIn(page).getByText("Guardamos tu calificación.").waitFor();

        await page.reload();
        const stamp = checkIn(page).locator(".stamp--verified");
        await stamp.waitFor();
        assert.match(
          await stamp.innerText(),
          new RegExp(
            `Ya tienes el sello de ${PLAZA.name}: lo registraste el \\d+ de \\w+ de \\d{4}\\.`,
          ),
        );
        assert.equal(
          await checkIn(page).getByRole("radio", { name: "4 estrellas" })
            .isChecked(),
          true,
        );
        assert.equal(
          await checkIn(page).getByLabel("Notas (opcional)").inputValue(),
          "Muy bonita",
        );
        assert.equal(await page.getByLabel("Código del atractivo").count(), 0);
        await assertAxeClean(page, "stamped");

        // No signal: the page (kept by the service worker) still knows it.
        await waitUntilKeptOffline(page);
        await context.setOffline(true);
        await page.reload();
        await checkIn(page).locator(".stamp--verified").waitFor();
        assert.equal(
          await checkIn(page).getByRole("radio", { name: "4 estrellas" })
            .isChecked(),
          true,
        );
        await context.setOffline(false);
        assert.deepEqual(problems, []);
        await context.close();
      },
    );
  },
});

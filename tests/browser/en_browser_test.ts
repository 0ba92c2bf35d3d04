/**
 * An English-speaking tourist on a phone, no account: the service runs as
 * `deno task start` runs it (its own process, a KV file, nothing
 * configured) and a fresh headless Chromium checks in at English attraction
 * pages (`/en/turismo/atractivos/<slug>`), rates a visit, gets a share
 * ticket from the English passport page and watches the English route page fill
 * up to the first badge, every answer in English. The pictures of the walk
 * and the route's English share card go to test-output/screenshots/, and with
 * `PUBLISH_SCREENSHOTS=1` to docs/screenshots/ for the README too. Skipped,
 * with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { ensureBuild } from "@/scripts/build.ts";
import { localizeData } from "@/lib/data/translations.ts";
import {
  browserSkipReason,
  launchBrowser,
  PHONE,
  saveScreenshot,
  watchPage,
} from "../browser.ts";
import { startServiceOnKvFile } from "../service_process.ts";
import { SHIPPED } from "../test_utils.ts";

/** The first five attractions as an English page names them, with their codes. */
const FIVE = localizeData(SHIPPED, "en").attractions.slice(0, 5);

const DOCS = new URL("../../docs/screenshots/", import.meta.url);

/** With `PUBLISH_SCREENSHOTS=1`, copies a picture of test-output/screenshots/ to docs/screenshots/. */
async function publishScreenshot(name: string): Promise<void> {
  if (Deno.env.get("PUBLISH_SCREENSHOTS") !== "1") return;
  await Deno.copyFile(
    new URL(`../../test-output/screenshots/${name}.png`, import.meta.url),
    new URL(`${name}.png`, DOCS),
  );
}

Deno.test({
  name:
    "an English-speaking guest in Chromium: check in, rate, ticket, route, first badge, all in English",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile();
    const origin = running.service.url;
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({
        locale: "en-US",
        viewport: PHONE,
        hasTouch: true,
        isMobile: true,
      });
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      // The browser logs the API's 404 (wrong code).
      watch.allow(/404.*\/api\/turismo\/(verify-visit|check-in)/);
      // What the islands send to the API: its language, and the ticket's.
      const sent: { path: string; language?: string; body: string }[] = [];
      page.on("request", (request) => {
        const path = new URL(request.url()).pathname;
        if (!path.startsWith("/api/")) return;
        sent.push({
          path,
          language: request.headers()["accept-language"],
          body: request.postData() ?? "",
        });
      });
      const attractionPage = (slug: string) =>
        `${origin}/en/turismo/atractivos/${slug}`;
      const checkIn = page.locator(".check-in");
      const codeField = page.getByLabel("Attraction code");
      const checkInButton = page.getByRole("button", {
        name: "Check in",
        exact: true,
      });

      await t.step(
        "an English attraction page checks the visitor in and answers in English",
        async () => {
          await page.goto(attractionPage(FIVE[0].slug));
          assert.match(
            await page.locator("html").getAttribute("lang") ?? "",
            /^en\b/,
          );
          await page.locator(
            ".check-in button[type=submit]:not([disabled])",
          ).waitFor();
          await codeField.fill(FIVE[0].guideCode.toLowerCase());
          await checkInButton.click();
          await checkIn.getByText(
            `All set! You're checked in at ${FIVE[0].name}.`,
          ).waitFor();
          assert.equal(
            await checkIn.getByRole("link", { name: "See my passport" })
              .getAttribute("href"),
            "/en/mi-pasaporte",
          );
          const verify = sent.find((r) => r.path === "/api/turismo/check-in");
          assert.equal(verify?.language, "en", "Accept-Language: en");
          await saveScreenshot(page, "en-check-in", { fullPage: false });
          await publishScreenshot("en-check-in");
        },
      );

      await t.step("the visit is rated right there, in English", async () => {
        await checkIn.getByRole("radio", { name: "5 stars" }).check();
        await checkIn.getByLabel("Notes (optional)").fill("Lovely square");
        await checkIn.getByRole("button", { name: "Save rating" }).click();
        await checkIn.getByText("Your rating is saved.").waitFor();
      });

      let routeUrl = "";
      await t.step(
        "the English passport page's form makes an English ticket and opens the English route page",
        async () => {
          await page.goto(`${origin}/en/mi-pasaporte`);
          await page.locator(
            ".ticket-form button[type=submit]:not([disabled])",
          ).waitFor();
          await page.getByLabel("Full name").fill("Emily Carter");
          await page.getByLabel("Email").fill("emily@example.com");
          await page.getByRole("button", { name: "Get my ticket" }).click();
          await page.waitForURL(/\/en\/ruta\/[a-z0-9]{12}$/);
          routeUrl = page.url();
          await page.getByText(FIVE[0].name).first().waitFor();
          const ticket = sent.find((r) => r.path === "/api/turismo/ticket");
          assert.equal(JSON.parse(ticket!.body).lang, "en");
          assert.equal(ticket!.language, "en");
        },
      );

      await t.step(
        "a wrong code says in English how many attempts are left",
        async () => {
          await page.goto(attractionPage(FIVE[1].slug));
          await page.locator(
            ".check-in button[type=submit]:not([disabled])",
          ).waitFor();
          await codeField.fill("NOEXISTE");
          await checkInButton.click();
          await checkIn.getByText(
            "That code doesn't match any attraction. Check it and try again. 9 attempts left.",
          ).waitFor();
        },
      );

      await t.step(
        "the fifth code unlocks Explorer with an English celebration",
        async () => {
          for (const [i, attraction] of FIVE.slice(1).entries()) {
            if (i > 0) await page.goto(attractionPage(attraction.slug));
            await page.locator(
              ".check-in button[type=submit]:not([disabled])",
            ).waitFor();
            await codeField.fill(attraction.guideCode);
            await checkInButton.click();
            await checkIn.getByText(
              `All set! You're checked in at ${attraction.name}.`,
            ).waitFor();
            assert.equal(
              await checkIn.locator(".celebrate").count(),
              i === 3 ? 1 : 0,
              attraction.slug,
            );
          }
          const celebration = checkIn.locator(".celebrate");
          assert.match(
            await celebration.innerText(),
            /You unlocked the Explorer badge!/,
          );
          await celebration.evaluate((element) =>
            Promise.all(
              element.getAnimations({ subtree: true }).map((a) => a.finished),
            )
          );
          await saveScreenshot(page, "en-check-in-badge", { fullPage: false });
          await publishScreenshot("en-check-in-badge");
        },
      );

      await t.step(
        "the English route page shows the five visits and the badge; its share card is saved",
        async () => {
          await page.goto(routeUrl);
          assert.match(
            await page.locator("html").getAttribute("lang") ?? "",
            /^en\b/,
          );
          const text = await page.locator("main").innerText();
          assert.match(text, /Explorer/);
          for (const attraction of FIVE) {
            assert.ok(text.includes(attraction.name), attraction.name);
          }
          await saveScreenshot(page, "en-route", { fullPage: false });
          await publishScreenshot("en-route");
          const card = await page.locator('meta[property="og:image"]')
            .getAttribute("content");
          const res = await fetch(new URL(card!, origin));
          assert.equal(res.status, 200);
          assert.equal(res.headers.get("content-type"), "image/png");
          await Deno.writeFile(
            new URL(
              "../../test-output/screenshots/en-share-card.png",
              import.meta.url,
            ),
            new Uint8Array(await res.arrayBuffer()),
          );
          await publishScreenshot("en-share-card");
        },
      );

      assert.deepEqual(watch.problems, []);
      assert.deepEqual(watch.dialogs, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});

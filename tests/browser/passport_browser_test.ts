/**
 * "Mi pasaporte" in headless Chromium: sign in at a real OpenID provider,
 * verify visits by typing guide codes, see the badge after the fifth, rate a
 * visit, create the share ticket, sign out. Skipped, with the reason
 * printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { getSession } from "@/lib/db/sessions.ts";
import { getShareCodeOfUser, getTicket } from "@/lib/db/tickets.ts";
import { getVisit } from "@/lib/db/visits.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  launchBrowser,
  saveScreenshot,
  watchPage,
} from "../browser.ts";
import { signInAtProvider, startAppWithProvider } from "../oidc_provider.ts";
import { SHIPPED } from "../test_utils.ts";

/** The shipped data set's first attractions, with their guide codes (read by the test only). */
const ATTRACTIONS = SHIPPED.attractions.slice(0, 5);

Deno.test({
  name:
    "GET /mi-pasaporte in Chromium: sign in, verify five visits, rate one, sign out",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using app = await startAppWithProvider();
    const { ctx, origin, provider } = app;
    const { clock } = ctx;
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ locale: "es-MX" });
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      // The wrong code's answer is a 404 that the browser logs.
      watch.allow(/404.*\/api\/turismo\/(verify-visit|check-in)/);

      await t.step("a signed-out visitor is invited to sign in", async () => {
        await page.goto(`${origin}/mi-pasaporte`);
        await signInAtProvider(page);
        await page.getByText("Hola, Turista maria").waitFor();
      });

      await t.step(
        "typing five guide codes verifies five visits and unlocks Explorador",
        async () => {
          const input = page.getByLabel("Código del atractivo");
          const button = page.getByRole("button", {
            name: "Registrar mi visita",
          });
          const status = page.locator(".verify-result");
          for (const [i, attraction] of ATTRACTIONS.entries()) {
            // Lower case on purpose: codes match case-insensitively.
            await input.fill(attraction.guideCode.toLowerCase());
            await button.click();
            await status.getByText(`¡Visita registrada: ${attraction.name}!`)
              .waitFor();
            const badge = status.getByText("Desbloqueaste la insignia");
            assert.equal(
              await badge.count(),
              i === 4 ? 1 : 0,
              `visit ${i + 1}`,
            );
          }
          assert.match(
            await status.innerText(),
            /Desbloqueaste la insignia Explorador/,
          );
          assert.match(
            await page.locator(".passport").innerText(),
            /Visitaste 5 de 17 atractivos \(29 %\)/,
          );
          await saveScreenshot(page, "passport-five-visits");
        },
      );

      await t.step(
        "an unknown code says so, and the count stays",
        async () => {
          await page.getByLabel("Código del atractivo").fill("NOEXISTE");
          await page.getByRole("button", { name: "Registrar mi visita" })
            .click();
          await page.getByText("Ese código no corresponde a ningún atractivo")
            .waitFor();
          assert.match(
            await page.locator(".passport").innerText(),
            /Visitaste 5 de 17 atractivos/,
          );
        },
      );

      await t.step("a visit is rated with four stars and notes", async () => {
        const first = page.locator(".visit-list > li").first();
        await first.getByRole("button", { name: /^Calificar/ }).click();
        await first.getByRole("radio", { name: "4 estrellas" }).check();
        await first.getByLabel("Notas (opcional)").fill("Muy bonita de noche");
        await first.getByRole("button", { name: "Guardar calificación" })
          .click();
        await first.getByText("Guardamos tu calificación.").waitFor();
        const cookies = await context.cookies(origin);
        const sessionId = cookies.find((c) => c.name === "session")!.value;
        const session = await getSession(
          ctx.deps.kv,
          sessionId,
          clock.now(),
        );
        const visit = await getVisit(
          ctx.deps.kv,
          session!.userId,
          ATTRACTIONS[0].slug,
        );
        assert.equal(visit?.rating, 4);
        assert.equal(visit?.notes, "Muy bonita de noche");
      });

      await t.step(
        "after a reload the server renders the same passport",
        async () => {
          await page.reload();
          const text = await page.locator(".passport").innerText();
          for (const attraction of ATTRACTIONS) {
            assert.ok(text.includes(attraction.name), attraction.name);
          }
          assert.match(text, /Explorador/);
          const first = page.locator(".visit-list > li").first();
          assert.match(await first.innerText(), /★★★★☆/);
          await first.getByRole("button", { name: /^Cambiar calificación/ })
            .click();
          assert.equal(
            await first.getByRole("radio", { name: "4 estrellas" }).isChecked(),
            true,
          );
        },
      );

      await t.step(
        "the share ticket is created from the passport and linked to the tourist",
        async () => {
          await page.getByLabel("Nombre completo").fill("María Pérez");
          await page.getByLabel("Correo electrónico").fill("maria@ejemplo.mx");
          await page.getByRole("button", { name: "Obtener mi boleto" }).click();
          // The one ticket form takes the tourist to their route page.
          await page.waitForURL(/\/ruta\/[a-z0-9]{12}$/);
          const shareCode = new URL(page.url()).pathname.split("/").pop()!;
          await page.goto(`${origin}/mi-pasaporte`);
          const sessionId = (await context.cookies(origin)).find((c) =>
            c.name === "session"
          )!.value;
          const session = await getSession(
            ctx.deps.kv,
            sessionId,
            clock.now(),
          );
          assert.equal(
            await getShareCodeOfUser(ctx.deps.kv, session!.userId),
            shareCode,
          );
          const ticket = await getTicket(ctx.deps.kv, shareCode);
          assert.equal(ticket?.userId, session!.userId);
          assert.equal(ticket?.email, "maria@ejemplo.mx");
          await page.reload();
          await page.getByRole("link", { name: "Ver mi boleto y mi ruta" })
            .waitFor();
        },
      );

      await t.step("signing out ends the session and goes home", async () => {
        const sessionId = (await context.cookies(origin)).find((c) =>
          c.name === "session"
        )!.value;
        await page.getByRole("button", { name: "Cerrar sesión" }).click();
        await page.waitForURL(`${origin}/`);
        assert.equal(
          (await context.cookies(origin)).some((c) => c.name === "session"),
          false,
        );
        assert.equal(
          await getSession(ctx.deps.kv, sessionId, clock.now()),
          null,
        );
      });

      // Not the portal's: the provider's own login page, on its origin, whose
      // dev layout (oidc-provider lib/views/layout.js) @imports Google's Roboto.
      const ours = watch.problems.filter((p) =>
        !p.includes(provider.issuer) &&
        !p.includes("https://fonts.googleapis.com/css?family=Roboto")
      );
      assert.deepEqual(
        ours,
        [],
        "no errors, CSP violations or outside requests",
      );
      assert.deepEqual(watch.dialogs, []);
    } finally {
      await browser.close();
    }
  },
});

/**
 * The pages and islands in headless Chromium, against the real app on a
 * loopback port and a stand-in model server: the ticket form, the route
 * page, the chat widget (streamed Markdown, hostile replies), the share
 * button, keyboard use, and no console error or outside request on any page.
 * Screenshots at phone and desktop width go to test-output/screenshots/.
 * Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext } from "playwright-core";
import { getSession } from "@/lib/db/sessions.ts";
import { getTicket, saveTicket } from "@/lib/db/tickets.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  launchBrowser,
  PHONE,
  saveScreenshot,
  watchPage,
} from "../browser.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  createTestContext,
  postAsUser,
  randomTicket,
  randomUserId,
  serveApp,
  SHIPPED,
  verifyVisits,
} from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 800 };

/** Guide codes as the operator prints them (the raw file; pages never show them). */
const ATTRACTIONS = SHIPPED.attractions;

const MARKDOWN_REPLY =
  "Te recomiendo empezar por la **Plaza Principal de Tequila** 🌵:\n\n" +
  "- Entrada **gratuita**, abierta las 24 horas.\n" +
  "- A 100 m está la **Parroquia de Santiago Apóstol**.\n\n" +
  "Más detalles en [Plaza Principal](/turismo/atractivos/plaza-principal) " +
  "o en el [mapa](https://www.google.com/maps/search/?api=1&query=20.88248,-103.83627).";

const HOSTILE_REPLY = "Hola <script>window.__pwned = 1; alert(1)</script> " +
  '<img src="x" onerror="alert(2)"> [uno](javascript:alert(3)) ' +
  "[dos](//evil.example/) [tres](data:text/html,hola) " +
  "![imagen](https://evil.example/pixel.png) [cuatro](JaVaScRiPt:alert(4))";

Deno.test({
  name:
    "pages in Chromium: ticket form, route page, chat widget, share, keyboard, no console errors",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    const started = performance.now();
    await ensureBuild();
    await using fake = startFakeOpenAI();
    await using ctx = await createTestContext({
      openai: fake.client({ maxRetries: 0, timeout: 10_000 }),
    });
    await using server = serveApp((req, info) => ctx.app.fetch(req, info));
    const { origin } = server;
    const browser = await launchBrowser();

    async function openPage(
      path: string,
      options: {
        viewport?: typeof PHONE;
        context?: BrowserContext;
        /** Console errors this page is expected to log. */
        allow?: RegExp;
      } = {},
    ) {
      const context = options.context ??
        await browser.newContext({
          viewport: options.viewport ?? PHONE,
          locale: "es-MX",
        });
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      if (options.allow) watch.allow(options.allow);
      const response = await page.goto(`${origin}${path}`);
      // Every page hydrates the chat widget: wait until the islands run.
      await page.locator(".chat:not([hidden])").waitFor();
      return { page, watch, response, context };
    }

    /** A route whose tourist verified `count` visits (rating the first two). */
    async function createRouteWithVisits(name: string, count: number) {
      const userId = randomUserId();
      const { shareCode } = await saveTicket(
        ctx.deps.kv,
        randomTicket({ name, userId }),
      );
      await verifyVisits(ctx, userId, count, 26 * 60 * 60 * 1000);
      for (
        const [i, notes] of ["¡El kiosco de noche es precioso!", null].entries()
      ) {
        const res = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
          userId,
          atractivoSlug: ATTRACTIONS[i].slug,
          rating: 5 - i,
          ...(notes ? { notes } : {}),
        });
        assert.equal(res.status, 200, await res.text());
      }
      return shareCode;
    }

    try {
      await t.step(
        "the ticket form creates a ticket and lands on its route page",
        async () => {
          const { page, watch, context } = await openPage("/mi-pasaporte");
          await page.locator(".ticket-form button[type=submit]:not([disabled])")
            .waitFor();
          await page.getByLabel("Nombre completo").fill("Ana Lucía Pérez");
          await page.getByLabel("Correo electrónico").fill("ana@ejemplo.mx");
          await page.getByLabel("Teléfono (opcional)").fill("+52 33 1234 5678");
          await page.getByRole("button", { name: "Obtener mi boleto" }).click();
          await page.waitForURL(/\/ruta\/[a-z0-9]{12}$/);
          const code = new URL(page.url()).pathname.split("/").pop()!;
          assert.equal(
            (await page.locator("h1").textContent())?.replace(/\s+/g, " "),
            "La ruta de Ana Lucía Pérez",
          );
          await page.getByText("Todavía no hay visitas verificadas.").waitFor();
          const ticket = await getTicket(ctx.deps.kv, code);
          assert.equal(ticket?.name, "Ana Lucía Pérez");
          assert.equal(ticket?.email, "ana@ejemplo.mx");
          assert.equal(ticket?.phone, "+52 33 1234 5678");
          const sessionId = (await context.cookies()).find((cookie) =>
            cookie.name === "session"
          )?.value;
          const guest = await getSession(
            ctx.deps.kv,
            sessionId!,
            ctx.clock.now(),
          );
          assert.equal(guest?.guest, true);
          assert.equal(ticket?.userId, guest.userId, "linked to the passport");
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "the ticket form shows the server's field error next to the field",
        async () => {
          const { page, watch, context } = await openPage("/mi-pasaporte");
          await page.locator(".ticket-form button[type=submit]:not([disabled])")
            .waitFor();
          await page.getByLabel("Nombre completo").fill("Luis");
          await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
          await page.getByRole("button", { name: "Obtener mi boleto" }).click();
          const error = page.locator("#boleto-email-error");
          await error.waitFor();
          assert.match((await error.textContent())!, /\S/);
          const email = page.getByLabel("Correo electrónico");
          assert.equal(await email.getAttribute("aria-invalid"), "true");
          assert.equal(
            await email.getAttribute("aria-describedby"),
            "boleto-email-error",
          );
          assert.equal(
            await page.evaluate(() => document.activeElement?.id),
            "boleto-email",
          );
          assert.equal(new URL(page.url()).pathname, "/mi-pasaporte");
          // The 400 itself is logged by Chromium as a failed resource.
          assert.deepEqual(
            watch.problems.filter((p) => !/status of 400/.test(p)),
            [],
          );
          await context.close();
        },
      );

      let routeCode = "";
      await t.step(
        "the route page shows the visits and badges verified through the API",
        async () => {
          routeCode = await createRouteWithVisits("María José Hernández", 6);
          const { page, watch, context } = await openPage(`/ruta/${routeCode}`);
          assert.equal(await page.locator(".visit").count(), 6);
          assert.equal(
            await page.locator(".visit__title").first().textContent(),
            ATTRACTIONS[0].name,
          );
          await page.getByText("¡El kiosco de noche es precioso!").waitFor();
          assert.match(
            (await page.locator(".badge--on").textContent())!,
            /Explorador/,
          );
          assert.equal(await page.locator(".badge--off").count(), 2);
          const progress = page.locator("progress#avance");
          assert.equal(await progress.getAttribute("value"), "6");
          assert.equal(await progress.getAttribute("max"), "17");
          await page.getByText("6 de 17 atractivos visitados").waitFor();
          assert.equal(
            await page.locator('meta[property="og:image"]').getAttribute(
              "content",
            ),
            `${origin}/api/turismo/og/${routeCode}?v=6-1`,
          );
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "a hostile name on the route page stays text and runs nothing",
        async () => {
          const name =
            `</script><script>alert("nombre")</script><img src=x onerror=alert(1)>`;
          const { shareCode } = await saveTicket(
            ctx.deps.kv,
            randomTicket({ name }),
          );
          const { page, watch, context } = await openPage(`/ruta/${shareCode}`);
          assert.equal(
            (await page.locator("h1").textContent())?.replace(/\s+/g, " "),
            `La ruta de ${name}`,
          );
          // No image but the map's tiles (Leaflet's, from MAP_TILE_URL).
          assert.equal(
            await page.locator("main img:not(.leaflet-tile)").count(),
            0,
          );
          assert.deepEqual(watch.dialogs, []);
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "the copy-link button puts the route's address on the clipboard",
        async () => {
          const context = await browser.newContext({
            viewport: DESKTOP,
            locale: "es-MX",
          });
          await context.grantPermissions(
            ["clipboard-read", "clipboard-write"],
            {
              origin,
            },
          );
          const { page, watch } = await openPage(`/ruta/${routeCode}`, {
            context,
          });
          await page.getByRole("button", { name: "Copiar enlace" }).click();
          await page.getByText("¡Enlace copiado!").waitFor();
          assert.equal(
            await page.evaluate(() => navigator.clipboard.readText()),
            `${origin}/ruta/${routeCode}`,
          );
          const whatsapp = page.getByRole("link", { name: /WhatsApp/ });
          assert.equal(
            await whatsapp.getAttribute("href"),
            `https://wa.me/?text=${
              encodeURIComponent(
                `La ruta de María José Hernández por Tequila: 6 de 17 atractivos visitados (35 %) y 1 insignia en Visita Tequila. ${origin}/ruta/${routeCode}`,
              )
            }`,
          );
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "the chat widget streams the reply and renders its Markdown safely",
        async () => {
          fake.respondWith({ type: "reply", content: MARKDOWN_REPLY });
          const { page, watch, context } = await openPage(
            "/turismo/atractivos/plaza-principal",
            { viewport: DESKTOP },
          );
          await context.grantPermissions(["geolocation"], { origin });
          await context.setGeolocation({
            latitude: 20.88263,
            longitude: -103.83658,
          });
          const sent: unknown[] = [];
          page.on("request", (request) => {
            if (request.url() === `${origin}/api/chat`) {
              sent.push({
                accept: request.headers()["accept"],
                body: request.postDataJSON(),
              });
            }
          });
          await page.getByRole("button", { name: "Asistente turístico" })
            .click();
          const input = page.getByLabel("Escribe tu pregunta");
          // Opening the panel moves focus to its text field.
          await page.waitForFunction(() =>
            document.activeElement?.id === "chat-input"
          );
          await page.getByRole("button", { name: "Usar mi ubicación" }).click();
          await page.getByText("Ubicación activada").waitFor();
          await input.fill("¿Qué visito cerca de la plaza?");
          await input.press("Enter");
          const reply = page.locator(".chat-msg--assistant .chat-msg__body")
            .first();
          await reply.locator("a", { hasText: "mapa" }).waitFor();
          assert.equal(
            await reply.locator("strong").first().textContent(),
            "Plaza Principal de Tequila",
          );
          assert.equal(await reply.locator("li").count(), 2);
          const internal = reply.locator("a", { hasText: "Plaza Principal" });
          assert.equal(
            await internal.getAttribute("href"),
            "/turismo/atractivos/plaza-principal",
          );
          assert.equal(await internal.getAttribute("target"), null);
          const external = reply.locator("a", { hasText: "mapa" });
          assert.equal(await external.getAttribute("target"), "_blank");
          assert.match((await external.getAttribute("rel"))!, /noopener/);
          assert.deepEqual(sent[0], {
            accept: "text/event-stream, application/json",
            body: {
              message: "¿Qué visito cerca de la plaza?",
              history: [],
              location: { lat: 20.8826, lng: -103.8366 },
            },
          });
          assert.equal(fake.lastRequest().body.stream, true);
          await saveScreenshot(page, "chat-desktop", { fullPage: false });

          // The second question carries the first exchange as history.
          fake.respondWith({ type: "reply", content: "¡Con gusto! 😊" });
          await input.fill("¡Gracias!");
          await page.getByRole("button", { name: "Enviar" }).click();
          await page.getByText("¡Con gusto!").waitFor();
          const second = sent[1] as { body: { history: unknown[] } };
          assert.deepEqual(second.body.history, [
            { role: "user", content: "¿Qué visito cerca de la plaza?" },
            { role: "assistant", content: MARKDOWN_REPLY },
          ]);

          // A link in the reply opens the attraction with the panel closed
          // (it would cover the page it asked for); the chat keeps its history.
          await internal.click();
          await page.waitForURL(`${origin}/turismo/atractivos/plaza-principal`);
          await page.locator(".chat:not([hidden])").waitFor();
          assert.equal(await page.locator(".chat__panel").isHidden(), true);
          await page.getByRole("button", { name: "Asistente turístico" })
            .click();
          await page.getByText("¡Con gusto!").waitFor();

          // A panel left open is open again after a reload, without
          // stealing focus from the page.
          await page.reload();
          await page.locator(".chat__panel:not([hidden])").waitFor();
          await page.getByText("¡Con gusto!").waitFor();
          assert.equal(
            await page.evaluate(() => document.activeElement?.tagName),
            "BODY",
          );
          // Escape closes the panel and gives focus back to the button.
          await input.focus();
          await page.keyboard.press("Escape");
          await page.locator(".chat__panel").waitFor({ state: "hidden" });
          await page.waitForFunction(() =>
            document.activeElement?.textContent === "Asistente turístico"
          );
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "a hostile reply runs no script and keeps no unsafe link",
        async () => {
          fake.respondWith({ type: "reply", content: HOSTILE_REPLY });
          const { page, watch, context } = await openPage("/");
          await page.getByRole("button", { name: "Asistente turístico" })
            .click();
          const input = page.getByLabel("Escribe tu pregunta");
          await input.fill("Hola");
          await input.press("Enter");
          const reply = page.locator(".chat-msg--assistant .chat-msg__body")
            .last();
          await reply.getByText(/cuatro/).waitFor();
          const report = await page.evaluate(() => {
            const log = document.querySelector(".chat__log")!;
            return {
              scripts: log.querySelectorAll("script").length,
              images: log.querySelectorAll("img").length,
              handlers: log.querySelectorAll("[onerror]").length,
              hrefs: Array.from(
                log.querySelectorAll("a"),
                (a) => a.getAttribute("href"),
              ),
              pwned: (window as unknown as { __pwned?: number }).__pwned,
              text: log.textContent,
            };
          });
          assert.equal(report.scripts, 0);
          assert.equal(report.images, 0);
          assert.equal(report.handlers, 0);
          // Only the http(s) link survives (as a link: no image is loaded).
          assert.deepEqual(report.hrefs, ["https://evil.example/pixel.png"]);
          assert.equal(report.pwned, undefined);
          assert.match(
            report.text!,
            /<script>window\.__pwned = 1; alert\(1\)<\/script>/,
          );
          assert.deepEqual(watch.dialogs, []);
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "the chat shows the server's Spanish message when the model fails",
        async () => {
          fake.respondWith({ type: "status", status: 500 });
          const { page, watch, context } = await openPage("/", {
            allow: /status of 502/,
          });
          await page.getByRole("button", { name: "Asistente turístico" })
            .click();
          const input = page.getByLabel("Escribe tu pregunta");
          await input.fill("¿Hay hoteles?");
          await input.press("Enter");
          const error = page.locator(".chat-msg--error");
          await error.waitFor();
          assert.match(
            (await error.textContent())!,
            /El asistente tiene problemas para responder/,
          );
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "the skip link is the first Tab stop and moves focus to the content",
        async () => {
          const { page, watch, context } = await openPage(
            "/turismo/atractivos",
          );
          await page.keyboard.press("Tab");
          assert.equal(
            await page.evaluate(() => document.activeElement?.textContent),
            "Saltar al contenido",
          );
          await page.keyboard.press("Enter");
          await page.keyboard.press("Tab");
          assert.equal(
            await page.evaluate(() =>
              document.activeElement?.closest("main")?.id
            ),
            "contenido",
          );
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );

      await t.step(
        "every page loads without console errors or outside requests, at phone and desktop width",
        async () => {
          fake.respondWith({ type: "reply", content: MARKDOWN_REPLY });
          const pages = [
            ["home", "/", 200],
            ["attractions", "/turismo/atractivos", 200],
            [
              "attraction",
              "/turismo/atractivos/museo-nacional-del-tequila",
              200,
            ],
            ["route", `/ruta/${routeCode}`, 200],
            ["privacy notice", "/aviso-de-privacidad", 200],
            ["not-found", "/turismo/atractivos/no-existe", 404],
          ] as const;
          for (const [name, path, status] of pages) {
            for (
              const [size, viewport] of [["phone", PHONE], [
                "desktop",
                DESKTOP,
              ]] as const
            ) {
              const { page, watch, response, context } = await openPage(path, {
                viewport,
                // The 404 page's own status, logged by Chromium.
                allow: status === 404 ? /status of 404/ : undefined,
              });
              assert.equal(response?.status(), status, `${path} status`);
              await page.evaluate(() => document.fonts.ready);
              await saveScreenshot(page, `${name}-${size}`);
              assert.deepEqual(watch.problems, [], `${path} at ${size}`);
              await context.close();
            }
          }
          // The chat open on a phone, for the README.
          const { page, context } = await openPage("/", { viewport: PHONE });
          await page.getByRole("button", { name: "Asistente turístico" })
            .click();
          const input = page.getByLabel("Escribe tu pregunta");
          await input.fill("¿Qué visito primero?");
          await input.press("Enter");
          await page.locator(".chat-msg--assistant a").first().waitFor();
          await saveScreenshot(page, "chat-phone", { fullPage: false });
          await context.close();
        },
      );
    } finally {
      await browser.close();
      console.info(
        `browser tests took ${
          ((performance.now() - started) / 1000).toFixed(1)
        } s`,
      );
    }
  },
});

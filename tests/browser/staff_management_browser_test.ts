/**
 * Staff managed on the console, in headless Chromium: the service runs as
 * its own process on a KV file with `STAFF` listing Ana (the bootstrap
 * admin; an identity provider is configured but never called). Ana invites
 * Luis as a viewer on `/panel/personal`; the link shown signs Luis in, in a
 * second browser; Ana makes him an admin, then removes him (a confirmation
 * first, which she cancels once): Luis's next click is the plain 404 and his session is gone. Ana cannot be removed.
 * The audit log tells it all in words, filters by person, action and date,
 * and exports the filtered rows as CSV with a byte-order mark. Both pages
 * pass axe-core. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  launchBrowser,
  runAxe,
  watchPage,
} from "../browser.ts";
import {
  createStaffLinkFor,
  startServiceOnKvFile,
} from "../service_process.ts";

const DESKTOP = { width: 1280, height: 800 };
const ANA = "ana@municipio.gob.mx";
const LUIS = "luis@municipio.gob.mx";

Deno.test({
  name:
    "/panel/personal and /panel/auditoria in Chromium: invite, promote and remove a member; the audit log in words, filtered and exported",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-personal-",
      env: {
        OIDC_ISSUER: "https://id.municipio.example",
        OIDC_CLIENT_ID: "portal",
        OIDC_CLIENT_SECRET: "secreto",
        OIDC_REDIRECT_URI: "http://127.0.0.1/auth/callback",
        STAFF: `admin:${ANA}`,
      },
    });
    const { env, service: { port, url: origin } } = running;
    const browser = await launchBrowser();
    try {
      const newPage = async () => {
        const context = await browser.newContext({
          locale: "es-MX",
          viewport: DESKTOP,
          bypassCSP: true,
          acceptDownloads: true,
        });
        return { context, page: await context.newPage() };
      };
      const ana = await newPage();
      await ana.page.goto(
        await createStaffLinkFor({ env, port, email: ANA, role: "admin" }),
      );
      await ana.page.getByRole("button", { name: "Entrar al panel" }).click();
      await ana.page.waitForURL(`${origin}/panel`);
      const watch = watchPage(ana.page, origin);
      const luis = await newPage();
      let link = "";

      await t.step(
        "Ana invites Luis as a viewer: a link to hand over, once",
        async () => {
          await ana.page.getByRole("navigation", { name: "Panel" })
            .getByRole("link", { name: "Personal", exact: true }).click();
          await ana.page.waitForURL(`${origin}/panel/personal`);
          assert.match(
            await ana.page.locator("main").innerText(),
            /no se pueden quitar ni cambiar de rol desde\s+aquí/,
          );
          assert.deepEqual(await runAxe(ana.page), []);
          await ana.page.getByLabel("Correo electrónico").fill(LUIS);
          await ana.page.getByLabel("Rol").selectOption("viewer");
          await ana.page.getByRole("button", { name: "Invitar" }).click();
          await ana.page.getByRole("heading", {
            name: `Enlace de acceso para ${LUIS}`,
          }).waitFor();
          link = await ana.page.locator("#enlace-acceso").innerText();
          assert.match(
            link,
            new RegExp(`^${origin}/auth/personal/[\\w-]{43}$`),
          );
          await ana.page.getByRole("button", { name: "Copiar enlace" })
            .waitFor();
          assert.deepEqual(await runAxe(ana.page), []);
        },
      );

      await t.step("the link signs Luis in as a viewer", async () => {
        await luis.page.goto(link);
        await luis.page.getByRole("button", { name: "Entrar al panel" })
          .click();
        await luis.page.waitForURL(`${origin}/panel`);
        assert.match(
          await luis.page.locator(".staff-account__who").innerText(),
          /luis@municipio\.gob\.mx · Consulta/,
        );
        const personal = await luis.page.goto(`${origin}/panel/personal`);
        assert.equal(personal?.status(), 403);
      });

      await t.step("Ana makes Luis an admin: at his next click", async () => {
        await ana.page.goto(`${origin}/panel/personal`);
        await ana.page.getByRole("button", {
          name: `Dar permisos de administración a ${LUIS}`,
        }).click();
        await ana.page.getByText("Listo: se cambió el rol.").waitFor();
        const personal = await luis.page.goto(`${origin}/panel/personal`);
        assert.equal(personal?.status(), 200);
      });

      await t.step("Ana, from STAFF, cannot be removed", async () => {
        const row = luis.page.locator(`tr[data-person="${ANA}"]`);
        assert.match(
          await row.innerText(),
          /Solo se cambia en la configuración del servidor/,
        );
        assert.equal(await row.getByRole("button").count(), 0);
      });

      await t.step(
        "removing asks first; cancelling keeps Luis",
        async () => {
          await ana.page.getByRole("button", {
            name: `Quitar del panel a ${LUIS}`,
          }).click();
          await ana.page.getByRole("heading", {
            name: `¿Quitar a ${LUIS} del panel?`,
          }).waitFor();
          assert.match(
            await ana.page.locator("main").innerText(),
            /Sus sesiones terminan en cuanto confirmes y sus enlaces dejan de funcionar\./,
          );
          assert.deepEqual(await runAxe(ana.page), []);
          await ana.page.getByRole("link", { name: "Cancelar" }).click();
          await ana.page.waitForURL(`${origin}/panel/personal`);
          assert.match(
            await ana.page.locator("table").innerText(),
            /luis@municipio/,
          );
          const res = await luis.page.goto(`${origin}/panel`);
          assert.equal(res?.status(), 200);
        },
      );

      await t.step(
        "Ana removes Luis: his next click is the plain 404, his session gone",
        async () => {
          await ana.page.getByRole("button", {
            name: `Quitar del panel a ${LUIS}`,
          }).click();
          await ana.page.getByRole("button", { name: "Sí, quitar del panel" })
            .click();
          await ana.page.getByText("Listo: la persona ya no tiene acceso")
            .waitFor();
          assert.doesNotMatch(
            await ana.page.locator("table").innerText(),
            /luis@municipio/,
          );
          const res = await luis.page.goto(`${origin}/panel`);
          assert.equal(res?.status(), 404);
          await luis.page.getByText("No encontramos esta página").waitFor();
          await ana.page.goto(`${origin}/panel/sesiones`);
          assert.doesNotMatch(
            await ana.page.locator("main").innerText(),
            /luis@municipio/,
          );
        },
      );

      await t.step("the audit log tells it in words", async () => {
        await ana.page.goto(`${origin}/panel/auditoria`);
        const table = await ana.page.locator("table").innerText();
        for (
          const line of [
            /ana@municipio\.gob\.mx\s+Administración\s+Invitó a una persona al panel\s+luis@municipio\.gob\.mx \(rol: Consulta\)/,
            /ana@municipio\.gob\.mx\s+Administración\s+Cambió el rol de una persona\s+luis@municipio\.gob\.mx \(rol: Administración\)/,
            /ana@municipio\.gob\.mx\s+Administración\s+Quitó a una persona del panel\s+luis@municipio\.gob\.mx/,
            /luis@municipio\.gob\.mx\s+(Consulta|Administración)\s+Perdió el acceso al panel/,
            /luis@municipio\.gob\.mx\s+Consulta\s+Entró al panel \(con un enlace de acceso\)/,
          ]
        ) {
          assert.match(table, line);
        }
        assert.deepEqual(await runAxe(ana.page), []);
      });

      await t.step(
        "the filter by person, action and date keeps only matching rows",
        async () => {
          const today = new Intl.DateTimeFormat("en-CA", {
            timeZone: "America/Mexico_City",
          }).format(new Date());
          await ana.page.getByLabel("Persona (correo)").fill(LUIS);
          await ana.page.getByLabel("Acción").selectOption({
            label: "Entró al panel",
          });
          await ana.page.getByLabel("Desde").fill(today);
          await ana.page.getByLabel("Hasta").fill(today);
          await ana.page.getByRole("button", { name: "Filtrar" }).click();
          await ana.page.waitForURL(/accion=signin/);
          const rows = await ana.page.locator("tbody tr").allInnerTexts();
          assert.equal(rows.length, 1, rows.join("\n"));
          assert.match(rows[0], /luis@municipio\.gob\.mx\s+Consulta\s+Entró/);
          assert.deepEqual(await runAxe(ana.page), []);

          const url = new URL(ana.page.url());
          url.searchParams.set("desde", "2020-01-01");
          url.searchParams.set("hasta", "2020-01-31");
          await ana.page.goto(url.href);
          await ana.page.getByText("Ninguna acción coincide con el filtro.")
            .waitFor();
          await ana.page.goBack();
        },
      );

      await t.step(
        "the export downloads the filtered rows as CSV with a BOM",
        async () => {
          const [download] = await Promise.all([
            ana.page.waitForEvent("download"),
            ana.page.getByRole("link", { name: "Descargar lo filtrado (CSV)" })
              .click(),
          ]);
          assert.equal(download.suggestedFilename(), "auditoria.csv");
          const bytes = await Deno.readFile(await download.path());
          assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
          const rows = parse(new TextDecoder().decode(bytes.slice(3)));
          assert.deepEqual(rows[0], [
            "fecha",
            "persona",
            "rol",
            "accion",
            "sobre",
          ]);
          assert.equal(rows.length, 2);
          assert.deepEqual(rows[1].slice(1), [
            LUIS,
            "Consulta",
            "Entró al panel (con un enlace de acceso)",
            "—",
          ]);
        },
      );

      assert.deepEqual(watch.problems, []);
    } finally {
      await browser.close();
    }
  },
});

/**
 * The privacy notice (`/aviso-de-privacidad`) and the short notices where
 * the portal collects personal data: the app in process, the page's HTML
 * as a visitor's browser receives it.
 */
import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import {
  getRecordText,
  PERSONAL_RECORDS,
  type Retention,
} from "@/lib/personal_data/retention.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import {
  createTestContext,
  getPage,
  mutateShipped,
  NAMED_HOSTS_ENV,
  SHIPPED,
} from "../test_utils.ts";

const NOTICE = "/aviso-de-privacidad";

/** The units as the notice writes them, plural first. */
const UNITS: Record<
  Extract<Retention, { kind: "period" }>["unit"],
  [string, string]
> = {
  seconds: ["segundos", "segundo"],
  minutes: ["minutos", "minuto"],
  hours: ["horas", "hora"],
  days: ["días", "día"],
  months: ["meses", "mes"],
};

/** The HTML a browser's text shows for `text` (what preact escapes). */
function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** The one element of `html` that opens with `start`, up to its `end` tag. */
function slice(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  assert.ok(from >= 0, `the page has ${start}`);
  const to = html.indexOf(end, from);
  assert.ok(to > from, `${start} ends with ${end}`);
  return html.slice(from, to + end.length);
}

/** The visible text of a piece of HTML: tags dropped, spaces collapsed. */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
}

Deno.test("GET /aviso-de-privacidad", async (t) => {
  await using ctx = await createTestContext();
  const { res, html } = await getPage(ctx, NOTICE);
  const text = textOf(html);
  const privacy = SHIPPED.privacy;

  await t.step(
    "answers 200 with the responsible office, its address and the transparency unit's contact from the data set",
    () => {
      assert.equal(res.status, 200);
      assert.match(html, /<h1>Aviso de privacidad<\/h1>/);
      assert.match(
        html,
        /<link rel="canonical" href="http:\/\/localhost\/aviso-de-privacidad"/,
      );
      const responsible = textOf(
        slice(html, '<section id="responsable"', "</section>"),
      );
      assert.ok(responsible.includes(privacy.office), responsible);
      assert.ok(responsible.includes(privacy.address));
      assert.ok(responsible.includes(privacy.transparencyUnit.name));
      assert.ok(responsible.includes(privacy.transparencyUnit.address));
      assert.ok(responsible.includes(privacy.transparencyUnit.phone));
      assert.ok(
        html.includes(
          `href="mailto:${privacy.transparencyUnit.email}"`,
        ),
      );
      assert.ok(html.includes('href="tel:+523740000100"'));
      assert.ok(
        text.includes("Última actualización: 25 de noviembre de 2026"),
        "the update date, as a visitor reads it",
      );
      for (const law of privacy.laws) assert.ok(text.includes(law), law);
    },
  );

  await t.step(
    "the shipped demo carries a visible «Datos de demostración» mark; a real data set does not",
    async () => {
      assert.equal(SHIPPED.meta.demo, true);
      const mark = textOf(slice(html, '<p class="demo-mark"', "</p>"));
      assert.match(mark, /^Datos de demostración\. El responsable/);
      await using real = await createTestContext({
        data: new DataStore(
          await parseTourismData(mutateShipped((d) => d.meta.demo = false)),
        ),
      });
      const { html: realHtml } = await getPage(real, NOTICE);
      assert.ok(!realHtml.includes("Datos de demostración"));
      assert.ok(realHtml.includes(privacy.office));
    },
  );

  await t.step(
    "every kind of record with personal data is in the retention table with its period",
    () => {
      const table = slice(html, '<table class="retention-table"', "</table>");
      assert.match(
        table,
        /<caption>Registros con datos personales y su plazo<\/caption>/,
      );
      assert.equal(
        table.match(/<tr id="registro-/g)?.length,
        PERSONAL_RECORDS.length,
      );
      for (const record of PERSONAL_RECORDS) {
        const row = textOf(
          slice(table, `<tr id="registro-${record.id}"`, "</tr>"),
        );
        assert.ok(
          row.includes(textOf(escapeHtml(getRecordText("es", record, "name")))),
          row,
        );
        for (const { retention } of record.retention) {
          if (retention.kind === "period") {
            const [many, one] = UNITS[retention.unit];
            const period = `${retention.amount.toLocaleString("es-MX")} ${
              retention.amount === 1 ? one : many
            }`;
            assert.ok(
              row.includes(period),
              `${record.id}: ${period} in ${row}`,
            );
          } else if (retention.kind === "until_erased") {
            assert.ok(row.includes("Hasta que lo borres"), row);
          } else if (retention.kind === "until_removed") {
            assert.ok(
              row.includes("Hasta que una persona administradora"),
              row,
            );
          } else {
            assert.ok(row.includes("El portal no lo guarda"), row);
          }
        }
      }
      // The figures the issue names, as the code keeps them by default.
      const passport = textOf(
        slice(table, '<tr id="registro-visits"', "</tr>"),
      );
      assert.match(passport, /Pasaporte de invitado: 24 meses sin usarse/);
      const audit = textOf(slice(table, '<tr id="registro-audit"', "</tr>"));
      assert.match(audit, /365 días desde que se crea/);
      const questions = textOf(
        slice(table, '<tr id="registro-unanswered_questions"', "</tr>"),
      );
      assert.match(questions, /90 días/);
    },
  );

  await t.step(
    "the guest passport's period follows GUEST_PASSPORT_RETENTION_MONTHS",
    async () => {
      await using six = await createTestContext({
        env: { GUEST_PASSPORT_RETENTION_MONTHS: "6" },
      });
      const { html: sixHtml } = await getPage(six, NOTICE);
      const row = textOf(
        slice(sixHtml, '<tr id="registro-passport"', "</tr>"),
      );
      assert.match(row, /Pasaporte de invitado: 6 meses sin usarse/);
      assert.ok(!row.includes("24 meses"));
    },
  );

  await t.step(
    "chat messages and the location leave the portal for the model provider, named generically without OPENAI_BASE_URL",
    () => {
      const where = textOf(slice(html, '<section id="destinos"', "</section>"));
      assert.match(
        where,
        /Al proveedor del modelo de lenguaje : tus mensajes al asistente y, solo si la compartes, tu ubicación salen del portal/,
      );
      assert.match(text, /no usa cookies de terceros/);
    },
  );

  await t.step(
    "the maps' tile host is named: it receives the visitor's IP address when a map is shown",
    async () => {
      await using osm = await createTestContext({
        env: { MAP_TILE_URL: "https://{s}.tile.example.org/{z}/{x}/{y}.png" },
      });
      const where = textOf(
        slice(
          (await getPage(osm, NOTICE)).html,
          '<section id="destinos"',
          "</section>",
        ),
      );
      assert.ok(
        where.includes(
          "Al servidor de mapas (tile.example.org): cuando ves un mapa, tu navegador le pide las imágenes de las calles, y ese servidor recibe tu dirección IP",
        ),
        where,
      );
    },
  );

  await t.step(
    "with OPENAI_BASE_URL and WordPress configured, the notice names their hosts",
    async () => {
      await using named = await createTestContext({ env: NAMED_HOSTS_ENV });
      const { html: namedHtml } = await getPage(named, NOTICE);
      const where = textOf(
        slice(namedHtml, '<section id="destinos"', "</section>"),
      );
      assert.ok(
        where.includes(
          "Al proveedor del modelo de lenguaje (modelos.ejemplo.mx)",
        ),
        where,
      );
      assert.ok(where.includes("(WordPress, en cms.tequila.ejemplo.mx)"));
      const chatRow = textOf(
        slice(namedHtml, '<tr id="registro-chat"', "</tr>"),
      );
      assert.ok(chatRow.includes("modelos.ejemplo.mx"), chatRow);
      // Without them, no host is named.
      assert.ok(!html.includes("modelos.ejemplo.mx"));
      assert.ok(!html.includes("WordPress, en"));
    },
  );

  await t.step(
    "each right says how to exercise it: access, portability, correction and erasure in /mi-pasaporte, objection with the transparency unit",
    () => {
      const rights = slice(html, '<dl class="privacy-rights"', "</dl>");
      const right = (id: string) => slice(rights, `<dt id="${id}"`, "</dd>");
      assert.match(textOf(right("acceso")), /Acceso y portabilidad/);
      assert.match(textOf(right("acceso")), /«Descargar mis datos»/);
      assert.match(textOf(right("rectificacion")), /cambiar el nombre/);
      assert.match(
        textOf(right("cancelacion")),
        /«Borrar mi pasaporte y mis datos»/,
      );
      for (const id of ["acceso", "rectificacion", "cancelacion"]) {
        assert.match(right(id), /<a href="\/mi-pasaporte(#[\w-]+)?">/, id);
      }
      assert.match(textOf(right("oposicion")), /Unidad de Transparencia/);
      const requests = textOf(
        slice(html, '<h3 id="solicitudes"', "</section>"),
      );
      assert.ok(requests.includes(privacy.transparencyUnit.email));
      assert.match(requests, /desde el panel del portal/);
    },
  );

  await t.step(
    "the sections the short notices link to exist, and every page's footer links here",
    async () => {
      for (const id of ["boleto", "pasaporte", "asistente", "personal"]) {
        assert.ok(html.includes(`id="${id}"`), id);
      }
      const { html: home } = await getPage(ctx, "/");
      const footer = slice(home, '<footer class="site-footer"', "</footer>");
      assert.ok(footer.includes(`<a href="${NOTICE}">Aviso de privacidad</a>`));
    },
  );
});

Deno.test("short privacy notices where data is collected", async (t) => {
  await using ctx = await createTestContext({
    env: { OPENAI_API_KEY: "sk-test" },
  });

  await t.step(
    "the ticket form on /mi-pasaporte says what the data is for and links to the notice",
    async () => {
      const { html } = await getPage(ctx, "/mi-pasaporte");
      const form = slice(html, '<form class="ticket-form"', "</form>");
      assert.ok(form.includes(`href="${NOTICE}#boleto"`));
      assert.match(textOf(form), /nombre, correo y teléfono solo para/);
      assert.ok(!html.includes("Usaremos tus datos solo para"));
    },
  );

  await t.step(
    "the check-in on an attraction page tells a visitor without a passport that the first code sets a cookie, before the code is sent",
    async () => {
      const slug = SHIPPED.attractions[0].slug;
      const { html } = await getPage(ctx, `/turismo/atractivos/${slug}`);
      // Under the code form and "Estoy aquí" alike, before the answer.
      const form = slice(html, '<div class="check-in"', '<div role="status"');
      assert.ok(form.includes('<form class="verify-form"'));
      assert.ok(form.includes(`href="${NOTICE}#pasaporte"`));
      assert.match(
        textOf(form),
        /Si aún no tienes pasaporte, tu primer código abre uno de invitado y guarda una cookie/,
      );
    },
  );

  await t.step(
    "the chat's empty conversation and its location opt-in say where messages and the location go",
    async () => {
      const { html } = await getPage(ctx, "/");
      const chat = slice(html, '<div class="chat"', "</section>");
      const before = slice(chat, '<p class="chat__privacy"', "</p>");
      assert.ok(before.includes(`href="${NOTICE}#asistente"`));
      assert.ok(
        chat.indexOf('class="chat__privacy"') <
          chat.indexOf('<form class="chat__form"'),
        "the notice is above the input",
      );
      const location = slice(chat, '<p class="chat__hint"', "</p>");
      assert.match(textOf(location), /tu ubicación se envía con cada pregunta/);
      assert.ok(location.includes(`href="${NOTICE}#asistente"`));
      assert.match(chat, /aria-describedby="chat-ubicacion-aviso"/);
    },
  );

  await t.step(
    "the staff sign-in page and a sign-in link's page carry the notice",
    async () => {
      const { html: signIn } = await getPage(ctx, "/auth/personal");
      assert.ok(signIn.includes(`href="${NOTICE}#personal"`));
      assert.match(textOf(signIn), /registra tu correo electrónico/);
      const { url } = await createStaffSignInLink(ctx.deps.kv, {
        email: "ana@municipio.gob.mx",
        role: "viewer",
        baseUrl: "http://localhost",
        now: ctx.clock.now(),
      });
      const { html: link } = await getPage(ctx, new URL(url).pathname);
      assert.ok(link.includes(`href="${NOTICE}#personal"`));
    },
  );
});

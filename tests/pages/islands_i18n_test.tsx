/**
 * The islands speak the page's language: each one rendered on the server
 * (as a page renders it) with its messages in Spanish and in English, the
 * props a page builds with `getIslandMessages`. Spanish keeps the texts the
 * browser tests read; English shows its own and none of the Spanish
 * messages' sentences. What happens after a click (errors, the badge
 * celebration) is read in Chromium by tests/browser/en_browser_test.ts.
 */
import assert from "node:assert/strict";
import { type FunctionComponent, h } from "preact";
import { renderToString } from "preact-render-to-string";
import { getNamespace } from "@/lib/i18n/catalogue.ts";
import { getIslandMessages } from "@/lib/i18n/island_messages.ts";
import CheckIn from "@/islands/CheckIn.tsx";
import Passport from "@/islands/Passport.tsx";
import TicketForm from "@/islands/TicketForm.tsx";
import ChatWidget from "@/islands/ChatWidget.tsx";
import NearMe from "@/islands/NearMe.tsx";
import ShareButtons from "@/islands/ShareButtons.tsx";

/** Every namespace the islands read, with the shared ones. */
const NAMESPACES = [
  "checkin",
  "passport",
  "ticket",
  "chat",
  "nearme",
  "share",
  "session",
  "rating",
  "badges",
  "location",
];

/** Each island as a page renders it, in `lang`. */
function renderIslands(lang: string): Record<string, string> {
  const html = <P extends object>(component: FunctionComponent<P>, props: P) =>
    renderToString(h(component, props));
  return {
    CheckIn: html(CheckIn, {
      ...getIslandMessages(lang, "checkin", {
        shared: ["session", "rating", "badges"],
      }),
      slug: "volcan-de-tequila",
      name: "Volcán de Tequila",
      method: "code" as const,
      attractions: {
        "volcan-de-tequila": {
          name: "Volcán de Tequila",
          href: "/turismo/atractivos/volcan-de-tequila",
        },
      },
    }),
    Passport: html(Passport, {
      ...getIslandMessages(lang, "passport", {
        shared: ["checkin", "session", "rating", "badges"],
      }),
      attractionNames: {},
      timeZone: "America/Mexico_City",
      visits: [{
        visitId: "v1",
        slug: "volcan-de-tequila",
        name: "Volcán de Tequila",
        visitedLabel: "22/11/2026",
        rating: 4,
        notes: null,
      }],
      badges: [{
        id: "explorador",
        name: "Explorador",
        icon: "🧭",
        unlockedLabel: "22/11/2026",
      }],
      totalAttractions: 17,
    }),
    TicketLink: html(TicketForm, {
      ...getIslandMessages(lang, "ticket", { shared: ["session"] }),
      shareCode: "abc234def567",
    }),
    TicketForm: html(
      TicketForm,
      getIslandMessages(lang, "ticket", { shared: ["session"] }),
    ),
    ChatWidget: html(ChatWidget, {
      ...getIslandMessages(lang, "chat", { shared: ["location"] }),
      brandName: "Visita Tequila",
    }),
    NearMe: html(NearMe, {
      ...getIslandMessages(lang, "nearme", { shared: ["location"] }),
      active: true,
    }),
    ShareButtons: html(ShareButtons, {
      ...getIslandMessages(lang, "share"),
      url: "https://tequila.example/ruta/abc234def567",
      text: "Route",
    }),
  };
}

/** The text of some HTML (inline elements run on), entities read back, spaces collapsed. */
function getText(html: string): string {
  return html.replace(/<\/?(a|strong|span)\b[^>]*>/g, "")
    .replace(/<[^>]*>/g, " ").replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/\s+/g, " ");
}

Deno.test("the islands in the page's language", async (t) => {
  const es = renderIslands("es");
  const en = renderIslands("en");

  await t.step("in Spanish they show the texts they always showed", () => {
    const text = (name: string) => getText(es[name]);
    assert.match(text("CheckIn"), /Código del atractivo/);
    assert.match(text("CheckIn"), /Registrar mi visita/);
    assert.match(
      text("CheckIn"),
      /Más detalles en el aviso de privacidad\./,
    );
    assert.match(es.CheckIn, /href="\/aviso-de-privacidad#pasaporte"/);
    assert.match(text("Passport"), /Visitaste 1 de 17 atractivos \(5 %\)\./);
    assert.match(text("Passport"), /Visitado el 22\/11\/2026/);
    assert.match(text("Passport"), /🧭 Explorador \(22\/11\/2026\)/);
    // The visit's stars, and the button that opens its rating form.
    assert.match(text("Passport"), /4 estrellas/);
    assert.match(text("Passport"), /Cambiar calificación/);
    assert.match(
      es.Passport,
      /href="\/turismo\/atractivos\/volcan-de-tequila"/,
    );
    assert.match(text("TicketLink"), /Ver mi boleto y mi ruta/);
    assert.match(es.TicketLink, /href="\/ruta\/abc234def567"/);
    assert.match(text("TicketForm"), /Teléfono \(opcional\)/);
    assert.match(text("TicketForm"), /Obtener mi boleto/);
    assert.match(text("ChatWidget"), /Asistente de Visita Tequila/);
    assert.match(text("ChatWidget"), /¿Cómo llego desde Guadalajara\?/);
    assert.match(text("NearMe"), /Actualizar mi ubicación/);
    assert.match(text("ShareButtons"), /Copiar enlace/);
  });

  await t.step(
    "in English they show English texts and links to English pages",
    () => {
      const text = (name: string) => getText(en[name]);
      assert.match(text("CheckIn"), /Attraction code/);
      assert.match(text("CheckIn"), /Check in/);
      assert.match(text("CheckIn"), /More in the privacy notice\./);
      assert.match(en.CheckIn, /href="\/en\/aviso-de-privacidad#pasaporte"/);
      assert.match(
        text("Passport"),
        /You've visited 1 of 17 attractions \(5%\)\./,
      );
      assert.match(text("Passport"), /🧭 Explorer \(22\/11\/2026\)/);
      assert.match(text("Passport"), /4 stars/);
      assert.match(text("Passport"), /Change rating/);
      assert.match(
        en.Passport,
        /href="\/en\/turismo\/atractivos\/volcan-de-tequila"/,
      );
      assert.match(en.TicketLink, /href="\/en\/ruta\/abc234def567"/);
      assert.match(text("TicketLink"), /See my ticket and my route/);
      assert.match(text("TicketForm"), /Phone \(optional\)/);
      assert.match(en.TicketForm, /href="\/en\/aviso-de-privacidad#boleto"/);
      assert.match(text("ChatWidget"), /Visita Tequila assistant/);
      assert.match(text("ChatWidget"), /What can I see in one day\?/);
      assert.match(en.ChatWidget, /href="\/en\/aviso-de-privacidad#asistente"/);
      assert.match(text("NearMe"), /Update my location/);
      assert.match(text("ShareButtons"), /Copy link/);
    },
  );

  await t.step(
    "no island shows a message key or a Spanish sentence of the catalogue in English",
    () => {
      const fragments = new Set<string>();
      for (const namespace of NAMESPACES) {
        const spanish = getNamespace("es", namespace);
        const english = getNamespace("en", namespace);
        for (const [key, message] of Object.entries(spanish)) {
          if (message === english[key]) continue;
          // The literal parts between arguments and tags, 12+ characters.
          for (
            const part of message.split(
              /\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|<\/?\w+>/,
            )
          ) {
            if (part.trim().length >= 12) fragments.add(part.trim());
          }
        }
      }
      assert.ok(fragments.size > 50, `${fragments.size} fragments`);
      for (const [name, html] of Object.entries(en)) {
        const text = getText(html);
        const found = [...fragments].filter((part) => text.includes(part));
        assert.deepEqual(found, [], name);
        const keys = text.match(/\b(session|rating|badges|location)\.\w+/g);
        assert.equal(keys, null, name);
      }
    },
  );
});

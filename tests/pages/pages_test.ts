/**
 * The HTML pages through the app in process: status, content type, security
 * headers, what a visitor reads, Open Graph tags, escaping of what visitors
 * typed, the friendly 404, static files, and that no guide code ever reaches
 * a page.
 */
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { DataStore } from "@/lib/data/data_store.ts";
import { getLocalTime } from "@/lib/calendar/mod.ts";
import { formatMonth } from "@/lib/format/format.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { getAssets } from "@/lib/pages/assets.ts";
import { CONTENT_SECURITY_POLICY } from "@/lib/http/security_headers.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  assertJson,
  copyShippedData,
  createTestContext,
  distanceKm,
  getPage,
  mutateShipped,
  postAsUser,
  randomTicket,
  randomUserId,
  SHIPPED,
  verifyVisits,
} from "../test_utils.ts";

const ATTRACTIONS = SHIPPED.attractions;
const HOSTILE =
  `</script><script>alert(1)</script><img src=x onerror=alert(2)>`;

await ensureBuild();

/** The `content` of a `<meta property|name="key">` tag (HTML-decoded). */
function meta(html: string, key: string): string | undefined {
  const match = new RegExp(
    `<meta (?:property|name)="${
      key.replace(/[.:]/g, "\\$&")
    }" content="([^"]*)"`,
  ).exec(html);
  return match?.[1].replaceAll("&amp;", "&").replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<").replaceAll("&gt;", ">");
}

/** Checks what the CSP relies on: no inline script, style or handler. */
function assertNoInlineCode(html: string, path: string) {
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    assert.match(
      tag,
      /\bsrc="\/static\/build\/[^"]+"|type="application\/(?:ld\+)?json"/,
      `${path}: inline script ${tag}`,
    );
  }
  assert.doesNotMatch(html, /<style\b/i, `${path}: <style> element`);
  assert.doesNotMatch(html, /\sstyle="/i, `${path}: style attribute`);
  assert.doesNotMatch(
    html,
    /\son[a-z]+="/i,
    `${path}: event handler attribute`,
  );
}

Deno.test("page security headers", async (t) => {
  await using ctx = await createTestContext();

  for (const path of ["/", "/turismo/atractivos", "/no-existe"]) {
    await t.step(
      `${path} carries the CSP, nosniff and referrer policy`,
      async () => {
        const res = await ctx.app.request(path);
        await res.body?.cancel();
        assert.equal(
          res.headers.get("content-security-policy"),
          CONTENT_SECURITY_POLICY,
        );
        assert.equal(res.headers.get("x-content-type-options"), "nosniff");
        assert.equal(
          res.headers.get("referrer-policy"),
          "strict-origin-when-cross-origin",
        );
        assert.equal(res.headers.get("x-frame-options"), "DENY");
      },
    );
  }

  await t.step("the CSP allows no inline script and no other origin", () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(/;\s*/).map((d) => {
        const [name, ...values] = d.split(" ");
        return [name, values.join(" ")];
      }),
    );
    assert.equal(directives.get("default-src"), "'self'");
    assert.equal(directives.get("script-src"), "'self'");
    assert.equal(directives.get("style-src"), "'self'");
    assert.equal(directives.get("img-src"), "'self' data:");
    assert.equal(directives.get("connect-src"), "'self'");
    assert.equal(directives.get("frame-ancestors"), "'none'");
    assert.equal(directives.get("base-uri"), "'none'");
    assert.equal(directives.get("form-action"), "'self'");
    assert.doesNotMatch(
      CONTENT_SECURITY_POLICY,
      /unsafe-inline|unsafe-eval|https?:/,
    );
  });

  await t.step("the JSON API keeps its own headers", async () => {
    const res = await ctx.app.request("/healthz");
    await res.body?.cancel();
    assert.equal(res.status, 200);
    const api = await ctx.app.request("/api/nada");
    await api.body?.cancel();
    assert.equal(api.headers.get("content-security-policy"), null);
  });
});

Deno.test("GET /", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "the portal shows the branding, the passport, every attraction and links to the rest",
    async () => {
      const { res, html } = await getPage(ctx, "/");
      assert.equal(res.headers.get("cache-control"), "no-cache");
      assert.match(
        html,
        /<title>Visita Tequila: Tierra de agave, volcán y tradición<\/title>/,
      );
      assert.match(
        html,
        /<h1 id="hero-title" class="hero__title">Visita Tequila<\/h1>/,
      );
      assert.match(
        html,
        /<img class="brand__logo" src="\/logo\.svg\?v=[0-9a-f]+"/,
      );
      // Every attraction, compactly; the routes and the one ticket form
      // are a link away (practical information, the passport page).
      assert.equal(
        html.match(/<li class="place-list__item">/g)?.length,
        ATTRACTIONS.length,
      );
      assert.match(html, /Tu pasaporte junta un sello por cada atractivo/);
      assert.ok(html.includes('href="/turismo/informacion-practica#rutas"'));
      assert.ok(html.includes('href="/mi-pasaporte#boleto"'));
      assert.doesNotMatch(html, /data-island="TicketForm"/);
    },
  );

  await t.step(
    "the passport page has the one ticket form: name, e-mail, optional phone",
    async () => {
      const { html } = await getPage(ctx, "/mi-pasaporte");
      assert.match(
        html,
        /<div class="island" data-island="TicketForm"><form class="ticket-form"/,
      );
      assert.match(
        html,
        /<label for="boleto-email">Correo electrónico<\/label>/,
      );
      assert.match(html, /<label for="boleto-phone">Teléfono \(opcional\)/);
      // The form needs JavaScript: disabled until hydrated, and says so without it.
      assert.match(
        html,
        /<button class="button button--accent" type="submit" disabled>/,
      );
      assert.match(
        html,
        /<noscript><p class="form-error">Para pedir tu boleto necesitas activar JavaScript/,
      );
    },
  );

  await t.step(
    "the page has landmarks, a skip link and the chat island when a model is configured",
    async () => {
      await using withModel = await createTestContext({
        env: { OPENAI_API_KEY: "sk-prueba" },
      });
      const { html } = await getPage(withModel, "/");
      assert.match(
        html,
        /<body><a class="skip-link" href="#contenido">Saltar al contenido<\/a>/,
      );
      // The demo notice inside the banner landmark, not outside any.
      assert.match(
        html,
        /<header class="site-header"><p class="demo-banner">/,
      );
      assert.match(html, /<nav class="site-nav" aria-label="Principal">/);
      assert.match(html, /<main id="contenido" tabindex="-1">/);
      assert.match(html, /<footer class="site-footer">/);
      assert.match(html, /<a href="\/" aria-current="page">Inicio<\/a>/);
      assert.match(
        html,
        /<div class="island" data-island="ChatWidget">.*<script type="application\/json" data-island-props>\{"brandName":"Visita Tequila","lang":"es","locale":"es-MX","messages":\{.*\}<\/script><\/div>/s,
      );
      // The chat's panel has no <header>: one banner landmark.
      assert.equal(html.match(/<header\b/g)?.length, 1);
    },
  );

  await t.step(
    "without a model there is no chat button: neither the island nor its script",
    async () => {
      const { html } = await getPage(ctx, "/");
      assert.ok(!html.includes('data-island="ChatWidget"'));
      assert.ok(!html.includes("chat__launcher"));
      assert.ok(!html.includes("ChatWidget-"), "no preload of its chunk");
    },
  );

  await t.step(
    "the page links the built bundle and stylesheet, and no other origin",
    async () => {
      const { html } = await getPage(ctx, "/");
      const assets = getAssets()!;
      assert.ok(
        html.includes(`<script type="module" src="${assets.client}"></script>`),
      );
      assert.ok(
        html.includes(`<link rel="stylesheet" href="${assets.styles}"/>`),
      );
      assert.match(
        html,
        /<link rel="stylesheet" href="\/theme\.css\?v=[0-9a-f]+"\/>/,
      );
      const sources = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) =>
        m[1]
      );
      const loaded = [
        ...html.matchAll(
          /<(?:script|link rel="(?:stylesheet|icon)"|img)\b[^>]*\s(?:src|href)="([^"]+)"/g,
        ),
      ]
        .map((m) => m[1]);
      assert.ok(sources.length > 20);
      for (const url of loaded) assert.match(url, /^\//, `loads ${url}`);
      assertNoInlineCode(html, "/");
    },
  );

  await t.step("an edited data set shows without a restart", async () => {
    await using copy = await copyShippedData();
    await using live = await createTestContext({
      data: await DataStore.open(copy.path),
    });
    assert.match((await getPage(live, "/")).html, /Visita Tequila/);
    await Deno.writeTextFile(
      copy.path,
      mutateShipped((edited) => {
        edited.branding.name = "Descubre Tequila";
        edited.branding.colors.primary = "#224466";
      }),
    );
    assert.equal(await live.deps.data.reload(), true);
    const { html } = await getPage(live, "/");
    assert.match(
      html,
      /<h1 id="hero-title" class="hero__title">Descubre Tequila<\/h1>/,
    );
    const version = live.deps.data.current().version;
    assert.ok(html.includes(`/theme.css?v=${version}`));
    const css = await (await live.app.request(`/theme.css?v=${version}`))
      .text();
    assert.match(css, /--color-primary: #224466;/);
  });
});

Deno.test("GET /turismo/atractivos", async (t) => {
  await using ctx = await createTestContext();

  await t.step("lists every attraction with a link to its page", async () => {
    const { html } = await getPage(ctx, "/turismo/atractivos");
    assert.match(html, /<h1>Atractivos turísticos de Tequila<\/h1>/);
    assert.equal(
      html.match(/<article class="card /g)?.length,
      ATTRACTIONS.length,
    );
    for (const a of ATTRACTIONS) {
      assert.ok(
        html.includes(`href="/turismo/atractivos/${a.slug}">${a.name}</a>`),
        a.slug,
      );
    }
    assert.match(
      html,
      /<a href="\/turismo\/atractivos" aria-current="page">Todos \(17\)<\/a>/,
    );
  });

  await t.step(
    "?categoria= filters by category and marks the filter",
    async () => {
      const { html } = await getPage(
        ctx,
        "/turismo/atractivos?categoria=museo",
      );
      const museums = ATTRACTIONS.filter((a) => a.category === "museo");
      assert.equal(
        html.match(/<article class="card /g)?.length,
        museums.length,
      );
      assert.match(html, /<h1>Museo: atractivos de Tequila<\/h1>/);
      assert.match(
        html,
        /href="\/turismo\/atractivos\?categoria=museo" aria-current="page"/,
      );
    },
  );

  await t.step("an unknown category shows them all", async () => {
    const { html } = await getPage(
      ctx,
      "/turismo/atractivos?categoria=%3Cscript%3E",
    );
    assert.equal(
      html.match(/<article class="card /g)?.length,
      ATTRACTIONS.length,
    );
    assert.doesNotMatch(html, /<script>/);
  });
});

Deno.test("GET /turismo/atractivos/:slug", async (t) => {
  await using ctx = await createTestContext();
  const plaza = ATTRACTIONS[0];

  await t.step(
    "shows description, cost, schedule, duration, accessibility, tips and map link",
    async () => {
      const { html } = await getPage(ctx, `/turismo/atractivos/${plaza.slug}`);
      assert.match(
        html,
        new RegExp(`<title>${plaza.name} · Visita Tequila</title>`),
      );
      assert.match(html, new RegExp(`<h1>${plaza.name}</h1>`));
      assert.ok(html.includes(plaza.description));
      // Open at all hours: said so, and as the days' table.
      assert.match(html, /<strong>Abierto las 24 horas<\/strong>/);
      assert.match(
        html,
        /<th scope="row">[^<]+ \(hoy\)<\/th><td>Abierto las 24 horas<\/td>/,
      );
      assert.ok(html.includes(plaza.accessibility!));
      for (const tip of plaza.tips!) assert.ok(html.includes(tip), tip);
      // Free for everyone: said once, without "Adultos:" or a note saying it again.
      assert.match(html, /<dd>Entrada libre<\/dd>/);
      assert.match(html, /<dd>45 min<\/dd>/);
      assert.ok(
        html.includes(
          `href="https://www.google.com/maps/search/?api=1&amp;query=${plaza.location.lat},${plaza.location.lng}" target="_blank" rel="noopener noreferrer"`,
        ),
      );
      assert.match(
        html,
        /Publicamos las calificaciones de cada mes cuando al menos 5 personas/,
      );
    },
  );

  await t.step("a paid attraction shows adult and child prices", async () => {
    const paid = ATTRACTIONS.find((a) => a.cost.child)!;
    const { html } = await getPage(ctx, `/turismo/atractivos/${paid.slug}`);
    assert.ok(
      html.includes(
        `Adultos: $${paid.cost.adult.amount.toLocaleString("es-MX")} MXN`,
      ),
    );
    assert.ok(html.includes(`Niños: `));
  });

  await t.step(
    "shows last month's average rating and visits, once 5 people are behind each",
    async () => {
      // Six visits an hour apart, all on one day in Tequila (UTC-6) whatever
      // the hour the test runs: from 8:00 tomorrow. Split over two days, the
      // count of one would be a blank that the total gives away (hidden).
      const start = ctx.clock.now();
      ctx.clock.advance(
        Date.UTC(
          start.getUTCFullYear(),
          start.getUTCMonth(),
          start.getUTCDate() + 1,
          14,
        ) - start.getTime(),
      );
      for (const rating of [5, 4, 4, 5, 4]) {
        const userId = randomUserId();
        await verifyVisits(ctx, userId, 1);
        const res = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
          userId,
          atractivoSlug: plaza.slug,
          rating,
        });
        assert.equal(res.status, 200);
      }
      await verifyVisits(ctx, randomUserId(), 1);
      const path = `/turismo/atractivos/${plaza.slug}`;
      assert.doesNotMatch((await getPage(ctx, path)).html, /calificaciones en/);
      // Noon on the 2nd of next month in Tequila (UTC-6): this month is over.
      const { month } = getLocalTime(ctx.clock.now(), "America/Mexico_City");
      const [year, m] = month.split("-").map(Number);
      ctx.clock.advance(
        Date.UTC(year, m, 2, 18) - ctx.clock.now().getTime(),
      );
      const { html } = await getPage(ctx, path);
      const name = formatMonth(month);
      assert.ok(
        html.includes(
          `<strong>4.4</strong> de 5 · 5 calificaciones en ${name}`,
        ),
      );
      assert.ok(html.includes(`6 visitas verificadas en ${name}`));
    },
  );

  await t.step(
    "lists the three nearest attractions by distance and the routes through it",
    async () => {
      const { html } = await getPage(ctx, `/turismo/atractivos/${plaza.slug}`);
      const nearest = ATTRACTIONS.filter((a) => a.slug !== plaza.slug)
        .map((a) => ({ a, d: distanceKm(plaza.location, a.location) }))
        .sort((x, y) => x.d - y.d).slice(0, 3);
      const section = html.slice(html.indexOf('id="cerca-title"'));
      const order = nearest.map(({ a }) =>
        section.indexOf(`/turismo/atractivos/${a.slug}"`)
      );
      assert.ok(order.every((i) => i > 0), "all three listed");
      assert.deepEqual(
        order,
        [...order].sort((x, y) => x - y),
        "nearest first",
      );
      assert.match(section, /A \d+ m en línea recta/);
      for (const route of SHIPPED.routes) {
        const listed = html.includes(`id="ruta-${route.slug}"`);
        assert.equal(
          listed,
          route.attractions.includes(plaza.slug),
          route.slug,
        );
      }
    },
  );

  await t.step("an unknown slug is the friendly 404 page", async () => {
    const { html } = await getPage(ctx, "/turismo/atractivos/no-existe", 404);
    assert.match(html, /<h1 id="error-title">No encontramos esta página<\/h1>/);
  });
});

Deno.test("GET /ruta/:code", async (t) => {
  await using ctx = await createTestContext({
    env: { BASE_URL: "https://turismo.example.mx" },
  });

  await t.step(
    "an unknown or malformed code is the friendly 404 page",
    async () => {
      for (
        const code of ["no-existe-123", "a", "x".repeat(65), "%3Cscript%3E"]
      ) {
        const { html } = await getPage(ctx, `/ruta/${code}`, 404);
        assert.match(html, /No encontramos esta página/);
      }
    },
  );

  await t.step(
    "a ticket without a user shows an empty route and its og tags",
    async () => {
      const ticket = randomTicket();
      await saveTicket(ctx.deps.kv, ticket);
      const { html } = await getPage(ctx, `/ruta/${ticket.shareCode}`);
      assert.match(
        html,
        /<span class="route-hero__pre">La ruta de<\/span> Ana Lucía Pérez<\/h1>/,
      );
      assert.match(html, /Todavía no hay visitas verificadas/);
      assert.match(
        html,
        /<progress id="avance" class="progress" max="17" value="0">/,
      );
      assert.match(html, /0 de 17 atractivos visitados/);
      assert.equal(
        meta(html, "og:title"),
        "La ruta de Ana Lucía Pérez por Tequila",
      );
      assert.equal(
        meta(html, "og:image"),
        `https://turismo.example.mx/api/turismo/og/${ticket.shareCode}?v=0-0`,
      );
      assert.equal(
        meta(html, "og:url"),
        `https://turismo.example.mx/ruta/${ticket.shareCode}`,
      );
      assert.equal(meta(html, "robots"), "noindex");
      assert.doesNotMatch(
        html,
        new RegExp(ticket.email.replace(/[.]/g, "\\.")),
      );
      assert.doesNotMatch(html, /1234 5678/);
    },
  );

  await t.step(
    "verified visits, ratings, notes and badges show with completion out of 17",
    async () => {
      const userId = randomUserId();
      const ticket = randomTicket({ userId, name: "María José" });
      await saveTicket(ctx.deps.kv, ticket);
      await verifyVisits(ctx, userId, 6);
      const rated = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
        userId,
        atractivoSlug: ATTRACTIONS[1].slug,
        rating: 4,
        notes: "Muy bonita <b>de noche</b>",
      });
      assert.equal(rated.status, 200);
      const { html } = await getPage(ctx, `/ruta/${ticket.shareCode}`);
      assert.equal(html.match(/<li class="visit"/g)?.length, 6);
      for (const a of ATTRACTIONS.slice(0, 6)) {
        assert.ok(
          html.includes(
            `<a href="/turismo/atractivos/${a.slug}">${a.name}</a>`,
          ),
        );
      }
      assert.match(
        html,
        /Visitado el <time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">\d{1,2} de [a-z]+ de \d{4}<\/time>/,
      );
      assert.match(html, /Calificación de María José: 4 de 5/);
      assert.match(
        html,
        /<blockquote class="visit__notes">Muy bonita &lt;b>de noche&lt;\/b><\/blockquote>/,
      );
      assert.match(
        html,
        /<li class="badge badge--on"><span class="badge__icon" aria-hidden="true">🧭<\/span><span><strong>Explorador<\/strong>/,
      );
      assert.match(html, /Se desbloquea con 10 visitas verificadas/);
      assert.match(html, /Se desbloquea con 17 visitas verificadas/);
      assert.match(
        html,
        /<progress id="avance" class="progress" max="17" value="6">35 %<\/progress>/,
      );
      assert.match(html, /6 de 17 atractivos visitados/);
      assert.match(html, /A María José le faltan 11 atractivos por descubrir/);
      assert.equal(
        meta(html, "og:description"),
        "6 de 17 atractivos visitados (35 %) y 1 insignia en Visita Tequila.",
      );
      assert.equal(
        meta(html, "og:image"),
        `https://turismo.example.mx/api/turismo/og/${ticket.shareCode}?v=6-1`,
      );
      assert.equal(meta(html, "og:image:width"), "1200");
      assert.equal(meta(html, "og:image:height"), "630");
      assert.equal(meta(html, "twitter:card"), "summary_large_image");
      assert.equal(meta(html, "twitter:image"), meta(html, "og:image"));
      assertNoInlineCode(html, "/ruta");
    },
  );

  await t.step(
    "a hostile name is escaped in the text, the tags and the island props",
    async () => {
      const ticket = randomTicket({ name: HOSTILE });
      await saveTicket(ctx.deps.kv, ticket);
      const { html } = await getPage(ctx, `/ruta/${ticket.shareCode}`);
      assert.ok(!html.includes("<script>alert(1)"), "no raw script");
      assert.ok(!html.includes("<img src=x"), "no raw img");
      assert.ok(
        html.includes(
          "&lt;/script>&lt;script>alert(1)&lt;/script>&lt;img src=x onerror=alert(2)>",
        ),
      );
      assert.equal(meta(html, "og:title"), `La ruta de ${HOSTILE} por Tequila`);
      // The share island's props: JSON in a <script>, with "<" written as \u003c.
      const props =
        /data-island="ShareButtons">.*?<script type="application\/json" data-island-props>(.*?)<\/script>/s
          .exec(html)![1];
      assert.ok(!props.includes("<"));
      assert.ok(
        props.includes("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"),
      );
      assert.match(
        JSON.parse(props).text,
        /^La ruta de <\/script><script>alert\(1\)/,
      );
      // The map island's props name the person too, escaped the same way.
      const mapProps =
        /data-island="PlacesMap">.*?<script type="application\/json" data-island-props>(.*?)<\/script>/s
          .exec(html)![1];
      assert.ok(!mapProps.includes("<"));
      assert.equal(JSON.parse(mapProps).visits.person, HOSTILE);
      // Exactly the page's own scripts: the bundle, the share island's and
      // the map island's props (no chat: no model is configured here).
      assert.equal(html.match(/<script/g)?.length, 3);
      assertNoInlineCode(html, "/ruta (hostile)");
    },
  );
});

Deno.test("no page shows a guide code", async (t) => {
  await using ctx = await createTestContext();
  const userId = randomUserId();
  const ticket = randomTicket({ userId });
  await saveTicket(ctx.deps.kv, ticket);
  await verifyVisits(ctx, userId, 3);
  const paths = [
    "/",
    "/turismo/atractivos",
    ...ATTRACTIONS.map((a) => `/turismo/atractivos/${a.slug}`),
    `/ruta/${ticket.shareCode}`,
    "/no-existe",
    "/theme.css",
    "/logo.svg",
  ];
  for (const path of paths) {
    await t.step(`${path} contains none of the 17 guide codes`, async () => {
      const res = await ctx.app.request(path);
      const body = (await res.text()).toUpperCase();
      for (const { guideCode } of ATTRACTIONS) {
        assert.ok(
          !body.includes(guideCode.toUpperCase()),
          `${guideCode} in ${path}`,
        );
      }
    });
  }
});

Deno.test("GET on an unknown path", async (t) => {
  await using ctx = await createTestContext();

  await t.step("a page path answers the friendly 404 page", async () => {
    const { res, html } = await getPage(ctx, "/turismo/no-hay-nada", 404);
    assert.equal(
      res.headers.get("content-security-policy"),
      CONTENT_SECURITY_POLICY,
    );
    assert.match(html, /<title>Página no encontrada · Visita Tequila<\/title>/);
    assert.match(html, /<a class="button" href="\/">Ir al inicio/);
    assertNoInlineCode(html, "404");
  });

  await t.step("an /api path still answers JSON", async () => {
    const res = await ctx.app.request("/api/turismo/no-hay-nada");
    assert.equal((await assertJson(res, 404)).error, "No encontrado");
  });

  await t.step(
    "a body sent to an /api path that does not exist is a 404, not judged",
    async () => {
      const res = await ctx.app.request("/api/turismo/no-hay-nada", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "hola",
      });
      assert.equal((await assertJson(res, 404)).error, "No encontrado");
    },
  );
});

Deno.test("GET /static/*", async (t) => {
  await using ctx = await createTestContext();
  const assets = getAssets()!;

  await t.step(
    "the hashed bundle is JavaScript cached for a year",
    async () => {
      const res = await ctx.app.request(assets.client);
      assert.equal(res.status, 200);
      assert.match(
        res.headers.get("content-type")!,
        /^(?:text|application)\/javascript/,
      );
      assert.equal(
        res.headers.get("cache-control"),
        "public, max-age=31536000, immutable",
      );
      assert.match(await res.text(), /import\(/);
    },
  );

  await t.step(
    "the stylesheet is CSS and its fonts are served by the app",
    async () => {
      const css = await ctx.app.request(assets.styles);
      assert.match(css.headers.get("content-type")!, /^text\/css/);
      const text = await css.text();
      const font =
        /url\(\.\/(fonts\/inter-latin-400-normal-[A-Z2-7]{8}\.woff2)\)/
          .exec(text)![1];
      assert.equal(`/static/build/${font}`, assets.font, "the preloaded font");
      const res = await ctx.app.request(`/static/build/${font}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "font/woff2");
      assert.equal(
        res.headers.get("cache-control"),
        "public, max-age=31536000, immutable",
      );
      assert.equal(res.headers.get("content-encoding"), null);
      assert.equal((await res.arrayBuffer()).byteLength > 10_000, true);
      assert.doesNotMatch(text, /https?:\/\//);
    },
  );

  await t.step(
    "a page preloads the main font and the chunks of the islands it shows, no others",
    async () => {
      const { html } = await getPage(
        ctx,
        `/turismo/atractivos/${SHIPPED.attractions[0].slug}`,
      );
      const preloads = [
        ...html.matchAll(/<link rel="(modulepreload|preload)" href="([^"]+)"/g),
      ].map((m) => m[2]);
      assert.ok(preloads.includes(assets.font), "the font");
      for (const chunk of assets.islands.CheckIn) {
        assert.ok(preloads.includes(chunk), chunk);
      }
      assert.ok(
        !preloads.includes(assets.islands.ChatWidget[0]),
        "no chat without a model",
      );
      for (const href of preloads) {
        const res = await ctx.app.request(href);
        assert.equal(res.status, 200, href);
        await res.body?.cancel();
      }
    },
  );

  await t.step(
    "text files come brotli- or gzip-compressed as the client accepts, minified",
    async () => {
      const plain = await ctx.app.request(assets.styles);
      const css = await plain.text();
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.equal(plain.headers.get("vary"), "Accept-Encoding");
      assert.doesNotMatch(css, /\n\s+/, "minified: no indented lines");
      for (
        const [accept, encoding, format] of [
          ["gzip, deflate, br", "br", "brotli"],
          ["gzip", "gzip", "gzip"],
        ] as const
      ) {
        const res = await ctx.app.request(assets.styles, {
          headers: { "accept-encoding": accept },
        });
        assert.equal(res.headers.get("content-encoding"), encoding);
        assert.equal(res.headers.get("vary"), "Accept-Encoding");
        assert.match(res.headers.get("content-type")!, /^text\/css/);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.ok(bytes.byteLength < css.length / 3, `${encoding} is smaller`);
        const decoded = format === "brotli"
          ? brotliDecompressSync(bytes)
          : gunzipSync(bytes);
        assert.equal(new TextDecoder().decode(decoded), css);
      }
    },
  );

  await t.step(
    "a missing file or a path out of static/ is the 404 page",
    async () => {
      for (
        const path of [
          "/static/build/nada.js",
          "/static/../deno.json",
          "/static/%2e%2e/deno.json",
        ]
      ) {
        const res = await ctx.app.request(path);
        assert.equal(res.status, 404, path);
        assert.match(res.headers.get("content-type")!, /^text\/html/);
        await res.body?.cancel();
      }
    },
  );
});

Deno.test("GET /theme.css and /logo.svg", async (t) => {
  await using ctx = await createTestContext();
  const { version, data } = ctx.deps.data.current();

  await t.step(
    "the theme is the data set's colours as CSS variables",
    async () => {
      const res = await ctx.app.request(`/theme.css?v=${version}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/css; charset=utf-8");
      assert.equal(
        res.headers.get("cache-control"),
        "public, max-age=31536000, immutable",
      );
      const css = await res.text();
      assert.ok(
        css.includes(`--color-primary: ${data.branding.colors.primary};`),
      );
      assert.ok(
        css.includes(`--color-accent: ${data.branding.colors.accent};`),
      );
      const stale = await ctx.app.request("/theme.css?v=old");
      await stale.body?.cancel();
      assert.equal(stale.headers.get("cache-control"), "public, max-age=60");
    },
  );

  await t.step(
    "the logo is the data set's SVG, with scripts forbidden",
    async () => {
      const res = await ctx.app.request("/logo.svg");
      assert.equal(
        res.headers.get("content-type"),
        "image/svg+xml; charset=utf-8",
      );
      assert.match(
        res.headers.get("content-security-policy")!,
        /^default-src 'none'/,
      );
      assert.equal(await res.text(), data.branding.logoSvg);
    },
  );
});

/**
 * Share previews of the public pages: the home page's and each attraction's
 * 1200x630 card (`/og/inicio.png`, `/og/atractivos/<slug>.png`) from the
 * same pipeline, pool and cache as a route's card; their caching and
 * versioning by the data set; and the Open Graph and Twitter tags of every
 * public page, absolute and pointing at images that answer.
 */
import { localizeData } from "@/lib/data/translations.ts";
import { getLangMeta } from "@/lib/i18n/catalogue.ts";
import { splitLangPath } from "@/lib/i18n/paths.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { DataStore } from "@/lib/data/data_store.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { getPageCardVersion } from "@/lib/og/card_url.ts";
import { getPageCard } from "@/lib/og/page_cards.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  launchBrowser,
  saveScreenshot,
} from "../browser.ts";
import {
  copyShippedData,
  createTestContext,
  loadShippedData,
  mutateShipped,
  postJson,
  randomTicket,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

const BASE_URL = "https://turismo.example.mx";
const ATTRACTIONS = SHIPPED.attractions;
const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=60";

await ensureBuild();

/** Width and height from a PNG's IHDR, after checking its signature. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  assert.deepEqual(
    [...bytes.slice(0, 8)],
    [137, 80, 78, 71, 13, 10, 26, 10],
    "PNG signature",
  );
  assert.equal(new TextDecoder().decode(bytes.slice(12, 16)), "IHDR");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function decode(value: string): string {
  return value.replaceAll("&quot;", '"').replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/** A page's head: every `<meta property|name>` (all values) and the canonical links. */
function parseHead(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  const tags = new Map<string, string[]>();
  for (
    const [, key, content] of head.matchAll(
      /<meta (?:property|name)="([^"]+)" content="([^"]*)"\/?>/g,
    )
  ) {
    tags.set(key, [...tags.get(key) ?? [], decode(content)]);
  }
  const canonical = [...head.matchAll(/<link rel="canonical" href="([^"]*)"/g)]
    .map((m) => decode(m[1]));
  return {
    canonical,
    /** The one value of `key` (asserts there is exactly one). */
    one(key: string): string {
      const values = tags.get(key) ?? [];
      assert.equal(values.length, 1, `one ${key}, got ${values.length}`);
      return values[0];
    },
    has: (key: string) => tags.has(key),
  };
}

/** GETs `path` (relative to the app) and returns its PNG, asserting type and size. */
async function getPng(ctx: TestContext, url: string, init?: RequestInit) {
  const res = await ctx.app.request(url, init);
  assert.equal(res.status, 200, url);
  assert.equal(res.headers.get("content-type"), "image/png", url);
  const png = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual(pngSize(png), { width: 1200, height: 630 }, url);
  return { res, png, etag: res.headers.get("etag")! };
}

/** The path and query of an absolute `og:image` of this site. */
function localPath(url: string, origin = BASE_URL): string {
  assert.ok(url.startsWith(`${origin}/`), `${url} is absolute on ${origin}`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function ogImageOf(ctx: TestContext, path: string): Promise<string> {
  const res = await ctx.app.request(path);
  assert.equal(res.status, 200, path);
  return localPath(parseHead(await res.text()).one("og:image"));
}

Deno.test("GET /og/inicio.png and /og/atractivos/<slug>.png", async (t) => {
  await using ctx = await createTestContext({ env: { BASE_URL } });
  const { renderPool, shareCards } = ctx.deps;
  const version = ctx.deps.data.current().version;
  let homeUrl: string;
  let home: Awaited<ReturnType<typeof getPng>>;

  await t.step(
    "the home page links its card, a 1200x630 PNG cached as immutable",
    async () => {
      homeUrl = await ogImageOf(ctx, "/");
      assert.equal(homeUrl, `/og/inicio.png?v=${getPageCardVersion(version)}`);
      home = await getPng(ctx, homeUrl);
      assert.equal(home.res.headers.get("cache-control"), IMMUTABLE);
      assert.match(home.etag, /^"[0-9a-f]{32}"$/);
    },
  );

  await t.step(
    "asked again, it comes from the cache: no render, same bytes",
    async () => {
      const rendered = renderPool.stats.rendered;
      const misses = shareCards.stats.misses;
      const again = await getPng(ctx, homeUrl);
      assert.equal(again.etag, home.etag);
      assert.deepEqual(again.png, home.png);
      assert.equal(renderPool.stats.rendered, rendered, "no new render");
      assert.equal(shareCards.stats.misses, misses, "no cache miss");
    },
  );

  await t.step(
    "If-None-Match with its ETag is a 304 with no body",
    async () => {
      const res = await ctx.app.request(homeUrl, {
        headers: { "if-none-match": home.etag },
      });
      assert.equal(res.status, 304);
      assert.equal(res.headers.get("etag"), home.etag);
      assert.equal(res.headers.get("cache-control"), IMMUTABLE);
      assert.equal(await res.text(), "");
    },
  );

  await t.step("HEAD answers the headers without the image", async () => {
    const res = await ctx.app.request(homeUrl, { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/png");
    assert.equal(res.headers.get("etag"), home.etag);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  await t.step(
    "without the current version it is the same card, cached briefly",
    async () => {
      for (const url of ["/og/inicio.png", "/og/inicio.png?v=0123456789ab-1"]) {
        const { res, etag } = await getPng(ctx, url);
        assert.equal(etag, home.etag, url);
        assert.equal(res.headers.get("cache-control"), SHORT, url);
      }
    },
  );

  const etags = new Map<string, string>();
  await t.step(
    "every attraction page links its own card: 17 different PNGs",
    async () => {
      const rendered = renderPool.stats.rendered;
      for (const { slug } of ATTRACTIONS) {
        const url = await ogImageOf(ctx, `/turismo/atractivos/${slug}`);
        assert.equal(
          url,
          `/og/atractivos/${slug}.png?v=${getPageCardVersion(version)}`,
        );
        const { res, png, etag } = await getPng(ctx, url);
        assert.equal(res.headers.get("cache-control"), IMMUTABLE);
        assert.notDeepEqual(png, home.png);
        etags.set(slug, etag);
      }
      assert.equal(new Set([...etags.values(), home.etag]).size, 18);
      // `deno task build` drew them: served from its files, never rendered.
      assert.equal(renderPool.stats.rendered, rendered, "no render");
    },
  );

  await t.step("an unknown or malformed slug is a 404", async () => {
    for (
      const path of [
        "/og/atractivos/no-existe.png",
        "/og/atractivos/plaza-principal",
        "/og/atractivos/PLAZA-PRINCIPAL.png",
        "/og/atractivos/plaza-principal.svg",
        "/og/atractivos/..%2Finicio.png",
        "/og/atractivos/plaza-principal.png/x",
      ]
    ) {
      const res = await ctx.app.request(path);
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(res.headers.get("content-type") ?? "", /image/);
      await res.body?.cancel();
    }
    const head = await ctx.app.request("/og/atractivos/no-existe.png", {
      method: "HEAD",
    });
    assert.equal(head.status, 404);
  });

  await t.step(
    "a share code named like a page card is still a route's card",
    async () => {
      const res = await postJson(ctx, "/api/turismo/ticket", {
        name: "Inés Inicio",
        email: "ines@ejemplo.mx",
        shareCode: "inicio",
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      const route = await getPng(ctx, "/api/turismo/og/inicio");
      assert.notEqual(route.etag, home.etag);
      assert.equal((await getPng(ctx, "/og/inicio.png")).etag, home.etag);
    },
  );

  await t.step("no card carries a guide code", async () => {
    const loaded = await loadShippedData();
    const cards = [
      getPageCard(loaded, { kind: "home" }),
      ...ATTRACTIONS.map(({ slug }) =>
        getPageCard(loaded, { kind: "attraction", slug })
      ),
    ];
    // What a card draws is exactly this object (text becomes paths in the PNG).
    const text = JSON.stringify(cards).toUpperCase();
    for (const { guideCode } of ATTRACTIONS) {
      assert.ok(!text.includes(guideCode.toUpperCase()), guideCode);
    }
  });
});

Deno.test("a new data set is a new card URL and a new card", async () => {
  await using file = await copyShippedData();
  const data = await DataStore.open(file.path);
  await using ctx = await createTestContext({
    env: { BASE_URL },
    data,
    cachePages: true,
  });
  const slug = ATTRACTIONS[3].slug;
  const oldHome = await ogImageOf(ctx, "/");
  const oldAttraction = await ogImageOf(ctx, `/turismo/atractivos/${slug}`);
  const before = {
    home: (await getPng(ctx, oldHome)).etag,
    attraction: (await getPng(ctx, oldAttraction)).etag,
  };

  await Deno.writeTextFile(
    file.path,
    mutateShipped((d) => {
      d.branding.tagline = "Agave azul, volcán y barranca";
      d.attractions[3].name = "Museo Nacional del Tequila (renovado)";
    }),
  );
  assert.ok(await data.reload());

  // The cached pages are keyed by the data version: they link the new cards.
  const newHome = await ogImageOf(ctx, "/");
  const newAttraction = await ogImageOf(ctx, `/turismo/atractivos/${slug}`);
  assert.notEqual(newHome, oldHome);
  assert.notEqual(newAttraction, oldAttraction);
  const after = {
    home: await getPng(ctx, newHome),
    attraction: await getPng(ctx, newAttraction),
  };
  assert.notEqual(after.home.etag, before.home);
  assert.notEqual(after.attraction.etag, before.attraction);
  assert.equal(after.home.res.headers.get("cache-control"), IMMUTABLE);
  // An old link answers what is current now, and only briefly.
  const old = await getPng(ctx, oldAttraction);
  assert.equal(old.etag, after.attraction.etag);
  assert.equal(old.res.headers.get("cache-control"), SHORT);
  // An unchanged attraction's card is unchanged, and not rendered again.
  const other = ATTRACTIONS[0].slug;
  const rendered = ctx.deps.renderPool.stats.rendered;
  const first = await getPng(
    ctx,
    await ogImageOf(ctx, `/turismo/atractivos/${other}`),
  );
  assert.equal(ctx.deps.renderPool.stats.rendered, rendered + 1);
  const again = await getPng(
    ctx,
    await ogImageOf(ctx, `/turismo/atractivos/${other}`),
  );
  assert.equal(again.etag, first.etag);
  assert.equal(ctx.deps.renderPool.stats.rendered, rendered + 1);
});

Deno.test("every public page's head has absolute share tags", async (t) => {
  await using ctx = await createTestContext({ env: { BASE_URL } });
  const ticket = randomTicket();
  await saveTicket(ctx.deps.kv, ticket);

  // Every public page: what the site links, two clicks from the home page
  // (sections other than these included), plus each attraction, a filtered
  // list and a visitor's route.
  const found = new Set(["/", "/turismo/atractivos"]);
  let frontier = [...found];
  for (let depth = 0; depth < 2; depth++) {
    const next: string[] = [];
    for (const path of frontier) {
      const html = await (await ctx.app.request(path)).text();
      for (const [, href] of html.matchAll(/<a [^>]*href="(\/[^"#?]*)/g)) {
        const link = decode(href);
        // Each language's pages (`/en/...`, linked by the switcher) too.
        const { path: page } = splitLangPath(link);
        if (
          found.has(link) || link.startsWith("/api/") ||
          link.startsWith("/auth/") || page.startsWith("/ruta/") ||
          page === "/mi-pasaporte" ||
          // Files (the open data's CSV and JSON), not pages.
          /\.[a-z]+$/.test(link)
        ) continue;
        found.add(link);
        next.push(link);
      }
    }
    frontier = next;
  }
  const paths = [
    ...new Set([
      ...found,
      ...ATTRACTIONS.map((a) => `/turismo/atractivos/${a.slug}`),
    ]),
    "/turismo/atractivos?categoria=museo",
    `/ruta/${ticket.shareCode}`,
  ];
  const images = new Set<string>();

  for (const path of paths) {
    await t.step(path, async () => {
      const res = await ctx.app.request(path);
      assert.equal(res.status, 200, path);
      const head = parseHead(await res.text());
      const canonical = `${BASE_URL}${path.split("?")[0]}`;
      assert.deepEqual(head.canonical, [canonical], "canonical");
      assert.equal(head.one("og:url"), canonical);
      for (const key of ["og:title", "og:description", "og:image:alt"]) {
        assert.ok(head.one(key).trim().length > 0, key);
      }
      assert.equal(head.one("og:type"), "website");
      assert.equal(
        head.one("og:locale"),
        getLangMeta(splitLangPath(path).lang).ogLocale,
      );
      assert.equal(
        head.one("og:site_name"),
        localizeData(SHIPPED, splitLangPath(path).lang).branding.name,
      );
      assert.equal(head.one("og:image:type"), "image/png");
      assert.equal(head.one("og:image:width"), "1200");
      assert.equal(head.one("og:image:height"), "630");
      assert.equal(head.one("twitter:card"), "summary_large_image");
      assert.equal(head.one("twitter:title"), head.one("og:title"));
      assert.equal(head.one("twitter:description"), head.one("og:description"));
      assert.equal(head.one("twitter:image"), head.one("og:image"));
      assert.equal(head.one("twitter:image:alt"), head.one("og:image:alt"));
      images.add(localPath(head.one("og:image")));
    });
  }

  await t.step("each image the tags name answers a 1200x630 PNG", async () => {
    for (const url of images) await getPng(ctx, url);
    // At least the home page's card, 17 attractions' and the route's.
    assert.ok(images.size >= 19, `${images.size} images`);
  });

  await t.step(
    "an attraction's tags name it; its image description is Spanish",
    async () => {
      const plaza = ATTRACTIONS[0];
      const head = parseHead(
        await (await ctx.app.request(`/turismo/atractivos/${plaza.slug}`))
          .text(),
      );
      assert.equal(head.one("og:title"), plaza.name);
      assert.equal(head.one("og:description"), plaza.summary);
      const alt = head.one("og:image:alt");
      assert.ok(
        alt.startsWith(`Tarjeta de ${SHIPPED.branding.name}: ${plaza.name}.`),
        alt,
      );
      assert.ok(alt.includes(plaza.summary), alt);
      assert.match(alt, /Entrada (libre|\$[\d,.]+ MXN) · Visita de \d/);
    },
  );

  await t.step(
    "the route page keeps noindex and adds the image type and alt",
    async () => {
      const head = parseHead(
        await (await ctx.app.request(`/ruta/${ticket.shareCode}`)).text(),
      );
      assert.equal(head.one("robots"), "noindex");
      assert.equal(
        head.one("og:image"),
        `${BASE_URL}/api/turismo/og/${ticket.shareCode}?v=0-0`,
      );
      assert.match(head.one("twitter:image:alt"), /^La ruta de /);
    },
  );

  await t.step(
    "the 404 page has no canonical; the passport is private",
    async () => {
      const missing = await ctx.app.request("/no-existe");
      assert.equal(missing.status, 404);
      const notFound = parseHead(await missing.text());
      assert.deepEqual(notFound.canonical, []);
      assert.ok(!notFound.has("og:url"));
      const passport = parseHead(
        await (await ctx.app.request("/mi-pasaporte")).text(),
      );
      assert.equal(passport.one("robots"), "noindex");
      assert.ok(!passport.has("og:image"));
      assert.ok(!passport.has("twitter:image"));
      assert.equal(passport.one("twitter:card"), "summary");
    },
  );
});

Deno.test("without BASE_URL the tags use the request's origin", async () => {
  await using ctx = await createTestContext();
  const slug = ATTRACTIONS[1].slug;
  const origin = "http://turismo.local:8000";
  const res = await ctx.app.request(`${origin}/turismo/atractivos/${slug}`);
  const head = parseHead(await res.text());
  assert.deepEqual(head.canonical, [`${origin}/turismo/atractivos/${slug}`]);
  const image = head.one("og:image");
  assert.match(
    image,
    new RegExp(`^${origin}/og/atractivos/${slug}\\.png\\?v=`),
  );
  await getPng(ctx, localPath(image, origin));
});

Deno.test({
  name: "a shared attraction link previews with its card (Chromium)",
  ignore: browserSkipReason !== undefined,
  async fn() {
    await using ctx = await createTestContext({ env: { BASE_URL } });
    const slug = "museo-nacional-del-tequila";
    const html = await (await ctx.app.request(`/turismo/atractivos/${slug}`))
      .text();
    const head = parseHead(html);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({
        viewport: { width: 400, height: 300 },
        deviceScaleFactor: 2,
      });
      // The portal's public address, answered by the app in process.
      await page.route(`${BASE_URL}/**`, async (route) => {
        const res = await ctx.app.request(localPath(route.request().url()));
        await route.fulfill({
          status: res.status,
          headers: Object.fromEntries(res.headers),
          body: Buffer.from(await res.arrayBuffer()),
        });
      });
      // A chat app's link preview, drawn from the page's tags only. Its
      // image is this context's first card, drawn by a cold worker at a low
      // priority: on a busy machine that may take longer than Playwright's
      // 30 s (the render pool waits up to 60 s).
      await page.setContent(
        previewMock({
          url: head.one("og:url"),
          title: head.one("og:title"),
          description: head.one("og:description"),
          image: head.one("og:image"),
          alt: head.one("og:image:alt"),
          site: head.one("og:site_name"),
        }),
        { timeout: 90_000 },
      );
      const size = await page.evaluate(async () => {
        const img = document.querySelector("img")!;
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      });
      assert.deepEqual(size, [1200, 630]);
      await saveScreenshot(page, "attraction-preview");
    } finally {
      await browser.close();
    }
  },
});

/** A phone chat's message with a link preview (WhatsApp-like), from og tags. */
function previewMock(og: Record<string, string>): string {
  const esc = (s: string) =>
    s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(
      '"',
      "&quot;",
    );
  const host = new URL(og.url).host;
  return `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><style>
body{margin:0;font:15px/1.35 system-ui,"Noto Sans",sans-serif;background:#e5ddd5;}
.chat{padding-bottom:22px}
.bar{background:#075e54;color:#fff;padding:14px 18px;font-weight:600;font-size:17px}
.bar small{display:block;font-weight:400;opacity:.8;font-size:13px}
.chat{padding:18px 14px}
.msg{margin-left:auto;max-width:340px;background:#dcf8c6;border-radius:10px;padding:4px;box-shadow:0 1px 1px rgba(0,0,0,.15)}
.card{background:#cfe9ba;border-radius:8px;overflow:hidden}
.card img{display:block;width:100%;height:auto}
.meta{padding:8px 10px}
.title{font-weight:700;color:#111}
.desc{color:#333;font-size:13.5px;margin-top:2px}
.host{color:#667;font-size:12.5px;margin-top:4px}
.text{padding:6px 8px 2px;color:#027eb5;word-break:break-all}
.time{text-align:right;color:#667;font-size:11.5px;padding:0 8px 4px}
</style></head><body>
<div class="bar">Familia<small>en línea</small></div>
<div class="chat"><div class="msg">
<div class="card"><img src="${esc(og.image)}" alt="${esc(og.alt)}">
<div class="meta"><div class="title">${esc(og.title)}</div>
<div class="desc">${esc(og.description)}</div>
<div class="host">${esc(host)}</div></div></div>
<div class="text">${esc(og.url)}</div>
<div class="time">12:04 ✓✓</div>
</div></div></body></html>`;
}

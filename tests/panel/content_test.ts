/**
 * `/panel/contenido`: the content published in KV, as the office meets it.
 * A start on a new KV publishes the data set file as the first version; an
 * admin downloads it (audited), publishes an edited file, reads what
 * changed, restores the earlier version; a broken file or a stale form
 * publishes nothing; guide codes never show in a diff; viewers only read.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/db/keys.ts";
import { listContentVersions } from "@/lib/db/content.ts";
import { DEFAULT_REPLY, startFakeOpenAI } from "../fake_openai.ts";
import {
  createTestContext,
  DATA_PATH,
  postJson,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const ORIGIN = { origin: "http://localhost" };

function fileForm(text: string, base: string): FormData {
  const body = new FormData();
  body.append(
    "archivo",
    new File([text], "turismo.json", { type: "application/json" }),
  );
  body.append("base", base);
  return body;
}

/** The `base` the overview's upload form carries now. */
async function readBase(ctx: TestContext, cookie: string): Promise<string> {
  const res = await ctx.app.request("/panel/contenido", {
    headers: { cookie },
  });
  const html = await res.text();
  assert.equal(res.status, 200, html);
  const match = /name="base" value="([^"]*)"/.exec(html);
  assert.ok(match, "the upload form carries the published version");
  return match[1];
}

async function publish(
  ctx: TestContext,
  cookie: string,
  text: string,
  base: string,
): Promise<Response> {
  return await ctx.app.request("/panel/contenido/publicar", {
    method: "POST",
    headers: { cookie, ...ORIGIN },
    body: fileForm(text, base),
  });
}

async function attractionPage(ctx: TestContext, slug: string) {
  const res = await ctx.app.request(`/turismo/atractivos/${slug}`);
  return { status: res.status, html: await res.text() };
}

async function contentActions(ctx: TestContext): Promise<string[]> {
  const entries = await Array.fromAsync(
    ctx.deps.kv.list<{ action: string }>({ prefix: keys.staffActions() }),
  );
  return entries.map((e) => e.value.action).filter((a) =>
    a.startsWith("content_") || a === "export_downloaded"
  );
}

Deno.test("/panel/contenido: publish, history, diff, restore, refusals", async (t) => {
  // No data given: the start seeds a new KV from the file, as a city's does.
  await using ctx = await createTestContext({ data: undefined });
  const fileText = await Deno.readTextFile(DATA_PATH);
  const admin = await signInStaff(ctx, { role: "admin" });
  const viewer = await signInStaff(ctx, {
    email: "vero@municipio.gob.mx",
    role: "viewer",
  });
  const shipped = JSON.parse(fileText);
  const plaza = shipped.attractions[0];
  const edited = structuredClone(shipped);
  edited.attractions[0].name = "Plaza de Armas de Tequila";
  edited.attractions[0].guideCode = "ZZ9ZZ9";
  const editedText = JSON.stringify(edited, null, 2) + "\n";

  await t.step(
    "the first version is the data set file, byte for byte",
    async () => {
      const versions = await listContentVersions(ctx.deps.kv);
      assert.equal(versions.length, 1);
      assert.equal(versions[0].source, "seed");
      const res = await ctx.app.request("/panel/contenido", {
        headers: { cookie: admin },
      });
      const html = await res.text();
      assert.match(html, /Versión publicada: [0-9a-f]{12}/);
      assert.match(html, /Primera versión, tomada del archivo de datos/);
      const download = await ctx.app.request("/panel/contenido/turismo.json", {
        headers: { cookie: admin },
      });
      assert.equal(download.status, 200);
      assert.match(
        download.headers.get("content-disposition") ?? "",
        /attachment; filename="turismo.json"/,
      );
      assert.equal(await download.text(), fileText);
      assert.deepEqual(await contentActions(ctx), ["export_downloaded"]);
    },
  );

  await t.step(
    "a viewer reads the history, downloads and publishes nothing",
    async () => {
      const page = await ctx.app.request("/panel/contenido", {
        headers: { cookie: viewer },
      });
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.doesNotMatch(html, /Revisar y publicar/);
      assert.doesNotMatch(html, /Descargar turismo\.json/);
      const download = await ctx.app.request("/panel/contenido/turismo.json", {
        headers: { cookie: viewer },
      });
      assert.equal(download.status, 403);
      await download.body?.cancel();
      const res = await publish(ctx, viewer, editedText, "");
      assert.equal(res.status, 403);
      await res.body?.cancel();
      assert.equal((await listContentVersions(ctx.deps.kv)).length, 1);
    },
  );

  await t.step(
    "a broken file: 422 with the bad path, nothing published",
    async () => {
      const broken = structuredClone(shipped);
      broken.attractions[2].location.lat = 200;
      const res = await publish(
        ctx,
        admin,
        JSON.stringify(broken),
        await readBase(ctx, admin),
      );
      const html = await res.text();
      assert.equal(res.status, 422);
      assert.match(html, /No se publicó nada/);
      assert.match(html, /attractions\[2\]\.location\.lat/);
      assert.equal((await listContentVersions(ctx.deps.kv)).length, 1);
      assert.equal((await attractionPage(ctx, plaza.slug)).status, 200);
    },
  );

  let staleBase = "";
  await t.step(
    "an edited file: published, shown at once, the change readable",
    async () => {
      staleBase = await readBase(ctx, admin);
      const res = await publish(ctx, admin, editedText, staleBase);
      assert.equal(res.status, 303, await res.text());
      const versionPage = await ctx.app.request(res.headers.get("location")!, {
        headers: { cookie: admin },
      });
      const html = await versionPage.text();
      assert.equal(versionPage.status, 200);
      assert.match(html, /attractions\[plaza-principal\]\.name/);
      assert.ok(html.includes(`<del>${plaza.name}</del>`), "the name before");
      assert.match(html, /<ins>Plaza de Armas de Tequila<\/ins>/);
      // The guide code's change is listed, never its value.
      assert.match(html, /attractions\[plaza-principal\]\.guideCode/);
      assert.ok(!html.includes("ZZ9ZZ9"), "the new code is not shown");
      assert.ok(!html.includes(plaza.guideCode), "the old code is not shown");
      assert.match(
        (await attractionPage(ctx, plaza.slug)).html,
        /Plaza de Armas de Tequila/,
      );
      assert.equal((await listContentVersions(ctx.deps.kv)).length, 2);
    },
  );

  await t.step(
    "a form from before that publish: 409, nothing lost",
    async () => {
      const other = structuredClone(shipped);
      other.attractions[0].name = "Otra plaza";
      const res = await publish(ctx, admin, JSON.stringify(other), staleBase);
      const html = await res.text();
      assert.equal(res.status, 409);
      assert.match(html, /Alguien publicó otra versión mientras tanto/);
      assert.equal((await listContentVersions(ctx.deps.kv)).length, 2);
      assert.match(
        (await attractionPage(ctx, plaza.slug)).html,
        /Plaza de Armas de Tequila/,
      );
    },
  );

  await t.step(
    "restore the first version: a new version, audited",
    async () => {
      const [, first] = await listContentVersions(ctx.deps.kv);
      const page = await ctx.app.request(
        `/panel/contenido/versiones/${encodeURIComponent(first.id)}`,
        { headers: { cookie: admin } },
      );
      const html = await page.text();
      const base = /name="base" value="([^"]*)"/.exec(html)?.[1];
      assert.ok(base, "the restore form");
      const res = await ctx.app.request(
        `/panel/contenido/versiones/${encodeURIComponent(first.id)}/restaurar`,
        {
          method: "POST",
          headers: {
            cookie: admin,
            ...ORIGIN,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ base }),
        },
      );
      assert.equal(res.status, 303, await res.text());
      const versions = await listContentVersions(ctx.deps.kv);
      assert.equal(versions.length, 3);
      assert.equal(versions[0].source, "revert");
      assert.equal(versions[0].revertOf, first.id);
      assert.equal(versions[0].digest, first.digest);
      const after = (await attractionPage(ctx, plaza.slug)).html;
      assert.ok(after.includes(plaza.name));
      assert.ok(!after.includes("Plaza de Armas de Tequila"));
      const download = await ctx.app.request("/panel/contenido/turismo.json", {
        headers: { cookie: admin },
      });
      assert.equal(await download.text(), fileText, "the file's bytes again");
      // (The test's clock stands still: the log's order within one instant is not kept.)
      assert.deepEqual((await contentActions(ctx)).sort(), [
        "content_published",
        "content_reverted",
        "export_downloaded",
        "export_downloaded",
      ]);
    },
  );
});

Deno.test("/panel/contenido with CONTENT_SOURCE=file: says so and publishes nothing", async () => {
  await using ctx = await createTestContext({
    data: undefined,
    env: { CONTENT_SOURCE: "file" },
  });
  const admin = await signInStaff(ctx, { role: "admin" });
  const res = await ctx.app.request("/panel/contenido", {
    headers: { cookie: admin },
  });
  const html = await res.text();
  assert.match(html, /CONTENT_SOURCE=file/);
  assert.doesNotMatch(html, /Revisar y publicar/);
  assert.equal((await listContentVersions(ctx.deps.kv)).length, 0);
});

Deno.test("a published edit reaches the assistant's prompt and the page's share card", async () => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    data: undefined,
    env: { TRUST_PROXY: "true" },
    openai: fake.client({ timeout: 10_000, maxRetries: 0 }),
  });
  const admin = await signInStaff(ctx, { role: "admin" });
  const shipped = JSON.parse(await Deno.readTextFile(DATA_PATH));
  const slug = shipped.attractions[0].slug;
  const cardOf = async () => {
    const html = await (await ctx.app.request(`/turismo/atractivos/${slug}`))
      .text();
    return /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  };
  const ask = async () => {
    fake.respondWith({ type: "reply", content: DEFAULT_REPLY });
    const res = await postJson(ctx, "/api/chat", { message: "¿Qué visito?" }, {
      "x-forwarded-for": `203.0.113.${Math.floor(Math.random() * 200) + 1}`,
    });
    assert.equal(res.status, 200, await res.text());
    return fake.lastRequest().body.messages[0].content as string;
  };
  const cardBefore = await cardOf();
  assert.ok(!(await ask()).includes("Plaza de Armas de Tequila"));
  const edited = structuredClone(shipped);
  edited.attractions[0].name = "Plaza de Armas de Tequila";
  const res = await publish(
    ctx,
    admin,
    JSON.stringify(edited),
    await readBase(ctx, admin),
  );
  assert.equal(res.status, 303, await res.text());
  assert.ok((await ask()).includes("**Plaza de Armas de Tequila**"));
  const cardAfter = await cardOf();
  assert.ok(cardBefore && cardAfter);
  assert.notEqual(
    cardAfter,
    cardBefore,
    "the card's address follows the version",
  );
});

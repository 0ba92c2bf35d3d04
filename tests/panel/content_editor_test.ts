/**
 * The content editor as two people at the office use it: one item's form
 * with Spanish and English side by side, errors beside the field in
 * Spanish, a draft that the portal does not show until it is published, a
 * preview in each language, two editors saving the same item (the second
 * refused, told what changed, nothing lost), publishing, and the guide
 * code nowhere in the form.
 */
import assert from "node:assert/strict";
import { listContentVersions } from "@/lib/db/content.ts";
import { keys } from "@/lib/db/keys.ts";
import { savePartner } from "@/lib/db/rewards.ts";
import { makeJpeg } from "../photo_fixtures.ts";
import { STAFF, storePartnerWithPrizes } from "../rewards_fixtures.ts";
import {
  createTestContext,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const MUSEUM = SHIPPED.attractions.find((a) =>
  a.category === "museo" || /museo/i.test(a.name)
)!;
const EDITOR_URL = `/panel/contenido/editar/attractions/${MUSEUM.slug}`;

/** The form's fields as the page has them: input name → value. */
function readFormFields(html: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (
    const match of html.matchAll(
      /<(input|textarea|select)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g,
    )
  ) {
    const [, tag, attrs, inner = ""] = match;
    const name = /\bname="([^"]+)"/.exec(attrs)?.[1];
    if (!name) continue;
    const type = /\btype="([^"]+)"/.exec(attrs)?.[1];
    if (tag === "input" && type === "checkbox") {
      if (/\bchecked\b/.test(attrs)) fields.set(name, "on");
      continue;
    }
    if (tag === "select") {
      const selected = /<option[^>]*value="([^"]*)"[^>]*selected/.exec(inner);
      fields.set(name, selected?.[1] ?? "");
      continue;
    }
    const value = tag === "textarea"
      ? inner
      : /\bvalue="([^"]*)"/.exec(attrs)?.[1] ?? "";
    fields.set(name, decode(value));
  }
  return fields;
}

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

async function openForm(ctx: TestContext, cookie: string) {
  const res = await ctx.app.request(EDITOR_URL, { headers: { cookie } });
  const html = await res.text();
  assert.equal(res.status, 200, html);
  return { html, fields: readFormFields(html) };
}

async function postForm(
  ctx: TestContext,
  cookie: string,
  fields: Map<string, string>,
  action: string,
): Promise<Response> {
  const body = new URLSearchParams([...fields, ["accion", action]]);
  return await ctx.app.request(EDITOR_URL, {
    method: "POST",
    headers: {
      cookie,
      origin: "http://localhost",
      "content-type": "application/x-www-form-urlencoded",
    },
    body,
  });
}

async function publicPage(ctx: TestContext, path: string): Promise<string> {
  return await (await ctx.app.request(path)).text();
}

Deno.test("the content editor: both languages, errors, drafts, preview, two editors, publish", async (t) => {
  await using ctx = await createTestContext({ data: undefined });
  const ana = await signInStaff(ctx, { role: "admin" });
  const beto = await signInStaff(ctx, {
    email: "beto@municipio.gob.mx",
    role: "admin",
  });
  const viewer = await signInStaff(ctx, {
    email: "vero@municipio.gob.mx",
    role: "viewer",
  });
  const newSchedule = "Martes a domingo de 10:00 a 18:00 h";
  const newScheduleEn = "Tuesday to Sunday, 10 a.m. to 6 p.m.";

  await t.step("the form: Spanish beside English, no guide code", async () => {
    const { html, fields } = await openForm(ctx, ana);
    assert.equal(fields.get("es:name"), MUSEUM.name);
    assert.equal(fields.get("es:openingHours"), MUSEUM.openingHours);
    assert.equal(fields.get("es:schedule"), MUSEUM.schedule ?? "");
    assert.equal(fields.get("en:summary"), MUSEUM.i18n?.en?.summary);
    assert.equal(fields.get("borrador"), "");
    assert.ok(![...fields.keys()].some((name) => /guideCode/.test(name)));
    assert.ok(!html.includes(MUSEUM.guideCode), "the code is not on the page");
    assert.match(html, /igual en todos los idiomas/);
  });

  await t.step("a viewer cannot open the editor", async () => {
    const res = await ctx.app.request(EDITOR_URL, {
      headers: { cookie: viewer },
    });
    assert.equal(res.status, 403);
    await res.body?.cancel();
  });

  await t.step(
    "a bad value: 422, the error beside the field in Spanish, nothing saved",
    async () => {
      const { fields } = await openForm(ctx, ana);
      fields.set("es:location.lat", "200");
      fields.set("es:name", "");
      const res = await postForm(ctx, ana, fields, "guardar");
      const html = await res.text();
      assert.equal(res.status, 422);
      assert.match(html, /Corrige los 2 campos marcados; no se guardó nada/);
      assert.match(
        html,
        /id="campo-location-lat-es"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="campo-location-lat-es"/,
      );
      assert.match(html, /id="campo-location-lat-es-error">[^<]*90/);
      assert.match(html, /id="campo-name-es-error">falta este dato/);
      // What the editor typed stays in the form.
      assert.equal(readFormFields(html).get("es:location.lat"), "200");
      const again = await openForm(ctx, ana);
      assert.match(again.html, /Sin borrador/);
    },
  );

  let anaForm = new Map<string, string>();
  let betoForm = new Map<string, string>();
  await t.step(
    "two editors open the same item; the first save wins",
    async () => {
      anaForm = (await openForm(ctx, ana)).fields;
      betoForm = (await openForm(ctx, beto)).fields;
      anaForm.set("es:schedule", newSchedule);
      anaForm.set("en:schedule", newScheduleEn);
      anaForm.set("en:summary", "");
      const saved = await postForm(ctx, ana, anaForm, "guardar");
      assert.equal(saved.status, 303, await saved.text());
      assert.match(saved.headers.get("location")!, /hecho=guardado/);
      betoForm.set("es:name", "Museo (nombre de Beto)");
      const refused = await postForm(ctx, beto, betoForm, "guardar");
      const html = await refused.text();
      assert.equal(refused.status, 409);
      assert.match(html, /ana@municipio\.gob\.mx guardó este elemento/);
      assert.ok(html.includes(newSchedule), "what Ana changed is shown");
      assert.equal(
        readFormFields(html).get("es:name"),
        "Museo (nombre de Beto)",
        "Beto's value is kept in the form",
      );
    },
  );

  await t.step(
    "a draft is not published; the preview shows it in each language",
    async () => {
      assert.ok(
        !(await publicPage(ctx, `/turismo/atractivos/${MUSEUM.slug}`))
          .includes(newSchedule),
      );
      const { html } = await openForm(ctx, ana);
      assert.match(html, /Hay un borrador guardado por ana@municipio\.gob\.mx/);
      assert.match(html, /falta la traducción/);
      const es = await ctx.app.request(`${EDITOR_URL}/vista-previa?lang=es`, {
        headers: { cookie: ana },
      });
      const esHtml = await es.text();
      assert.equal(es.status, 200);
      assert.equal(es.headers.get("cache-control"), "private, no-store");
      assert.match(es.headers.get("x-robots-tag") ?? "", /noindex/);
      assert.match(esHtml, /Vista previa del borrador/);
      assert.ok(esHtml.includes(newSchedule));
      const en = await ctx.app.request(`${EDITOR_URL}/vista-previa?lang=en`, {
        headers: { cookie: ana },
      });
      const enHtml = await en.text();
      assert.match(enHtml, /<html lang="en/);
      assert.ok(enHtml.includes(newScheduleEn));
      // The portal's own page is untouched by the preview.
      assert.ok(
        !(await publicPage(ctx, `/turismo/atractivos/${MUSEUM.slug}`))
          .includes(newSchedule),
      );
      const index = await ctx.app.request("/panel/contenido/editar", {
        headers: { cookie: ana },
      });
      const indexHtml = await index.text();
      assert.match(indexHtml, /Borradores sin publicar/);
      assert.match(
        indexHtml,
        new RegExp(`attractions\\[${MUSEUM.slug}\\]\\.summary`),
      );
    },
  );

  await t.step("publish: the portal shows it, the history has it", async () => {
    const { fields } = await openForm(ctx, ana);
    const res = await postForm(ctx, ana, fields, "publicar");
    assert.equal(res.status, 303, await res.text());
    assert.match(res.headers.get("location")!, /hecho=publicado/);
    assert.ok((await publicPage(ctx, `/turismo/atractivos/${MUSEUM.slug}`))
      .includes(newSchedule));
    assert.ok((await publicPage(ctx, `/en/turismo/atractivos/${MUSEUM.slug}`))
      .includes(newScheduleEn));
    const [latest] = await listContentVersions(ctx.deps.kv);
    assert.equal(latest.source, "console");
    assert.equal(latest.by, "ana@municipio.gob.mx");
    assert.ok(
      latest.changes.some((line) =>
        line.startsWith(`attractions[${MUSEUM.slug}]`) &&
        line.includes("schedule")
      ),
      latest.changes.join("; "),
    );
    assert.match((await openForm(ctx, ana)).html, /Sin borrador/);
  });
});

Deno.test("the editor role: content and photos, no codes, no staff; publishes when an admin allows it", async (t) => {
  await using ctx = await createTestContext({ data: undefined });
  const admin = await signInStaff(ctx, { role: "admin" });
  const editor = await signInStaff(ctx, {
    email: "edna@municipio.gob.mx",
    role: "editor",
  });
  const get = (path: string, cookie: string) =>
    ctx.app.request(path, { headers: { cookie } });

  await t.step(
    "no codes, no staff, no audit, no data set download",
    async () => {
      for (
        const path of [
          "/panel/codigos",
          "/panel/personal",
          "/panel/auditoria",
          "/panel/contenido/turismo.json",
        ]
      ) {
        const res = await get(path, editor);
        assert.equal(res.status, 403, path);
        await res.body?.cancel();
      }
      const panel = await (await get("/panel", editor)).text();
      assert.match(panel, /Edición/);
      assert.doesNotMatch(panel, /href="\/panel\/codigos"/);
      assert.match(panel, /href="\/panel\/contenido"/);
    },
  );

  await t.step(
    "saves a draft; publishing is refused until an admin allows it",
    async () => {
      const { fields, html } = await openForm(ctx, editor);
      assert.doesNotMatch(html, /Guardar y publicar/);
      assert.match(html, /pide a una persona administradora/);
      fields.set("es:schedule", "Todos los días de 9:00 a 17:00 h");
      const saved = await postForm(ctx, editor, fields, "guardar");
      assert.equal(saved.status, 303, await saved.text());
      const refused = await postForm(
        ctx,
        editor,
        (await openForm(ctx, editor)).fields,
        "publicar",
      );
      assert.equal(refused.status, 403);
      await refused.body?.cancel();
      assert.equal((await listContentVersions(ctx.deps.kv)).length, 1);
    },
  );

  await t.step(
    "an admin allows it (audited); the editor publishes",
    async () => {
      const res = await ctx.app.request("/panel/contenido/ajustes", {
        method: "POST",
        headers: {
          cookie: admin,
          origin: "http://localhost",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ editoresPublican: "on" }),
      });
      assert.equal(res.status, 303);
      const { fields, html } = await openForm(ctx, editor);
      assert.match(html, /Guardar y publicar/);
      const published = await postForm(ctx, editor, fields, "publicar");
      assert.equal(published.status, 303, await published.text());
      const [latest] = await listContentVersions(ctx.deps.kv);
      assert.equal(latest.by, "edna@municipio.gob.mx");
      assert.ok(
        (await publicPage(ctx, `/turismo/atractivos/${MUSEUM.slug}`)).includes(
          "Todos los días de 9:00 a 17:00 h",
        ),
      );
      const audit = await (await get("/panel/auditoria", admin)).text();
      assert.match(audit, /Cambió quién puede publicar el contenido/);
      assert.match(audit, /Publicó una versión del contenido/);
    },
  );
});

Deno.test("a new event from the editor: its slug, its form, a draft, published on the events page", async (t) => {
  await using ctx = await createTestContext({
    data: undefined,
    clockStart: new Date("2026-12-02T16:00:00Z"),
  });
  const admin = await signInStaff(ctx, { role: "admin" });
  const post = (path: string, body: Record<string, string>) =>
    ctx.app.request(path, {
      method: "POST",
      headers: {
        cookie: admin,
        origin: "http://localhost",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(body),
    });
  const slug = "posada-navidena-2026";

  await t.step(
    "a slug that is not one, or is taken: 422, said beside it",
    async () => {
      const bad = await post("/panel/contenido/editar/events", {
        slug: "Posada Navideña",
      });
      assert.equal(bad.status, 422);
      assert.match(await bad.text(), /Usa solo minúsculas, números y guiones/);
      const taken = await post("/panel/contenido/editar/events", {
        slug: SHIPPED.events[0].slug,
      });
      assert.equal(taken.status, 422);
      assert.match(await taken.text(), /Ya hay un elemento/);
    },
  );

  await t.step(
    "an empty form for the new slug; saving it empty names what is missing",
    async () => {
      const res = await post("/panel/contenido/editar/events", { slug });
      assert.equal(res.status, 303);
      const url = res.headers.get("location")!;
      assert.equal(url, `/panel/contenido/editar/events/${slug}?nuevo=1`);
      const form = await ctx.app.request(url, { headers: { cookie: admin } });
      const html = await form.text();
      assert.equal(form.status, 200, html);
      assert.match(html, /Nuevo: aún no está en el portal/);
      const fields = readFormFields(html);
      assert.equal(fields.get("es:name"), "");
      const empty = await ctx.app.request(url, {
        method: "POST",
        headers: {
          cookie: admin,
          origin: "http://localhost",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams([...fields, ["accion", "guardar"]]),
      });
      const refused = await empty.text();
      assert.equal(empty.status, 422);
      assert.match(refused, /id="campo-name-es-error">falta este dato/);
    },
  );

  await t.step(
    "filled in, saved, published: on the events page in both languages",
    async () => {
      const url = `/panel/contenido/editar/events/${slug}?nuevo=1`;
      const fields = readFormFields(
        await (await ctx.app.request(url, { headers: { cookie: admin } }))
          .text(),
      );
      fields.set("es:name", "Posada navideña en la plaza");
      fields.set("en:name", "Christmas posada on the square");
      fields.set(
        "es:description",
        "Piñatas, ponche y villancicos para toda la familia.",
      );
      fields.set(
        "en:description",
        "Piñatas, hot fruit punch and carols for the whole family.",
      );
      fields.set("es:startDate", "2026-12-20");
      fields.set("es:endDate", "2026-12-20");
      fields.set("es:place", "Plaza Principal");
      fields.set("en:place", "Main square");
      const saved = await ctx.app.request(url, {
        method: "POST",
        headers: {
          cookie: admin,
          origin: "http://localhost",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams([...fields, ["accion", "publicar"]]),
      });
      assert.equal(saved.status, 303, await saved.text());
      const es = await publicPage(ctx, "/turismo/informacion-practica");
      assert.match(es, /Posada navideña en la plaza/);
      const en = await publicPage(ctx, "/en/turismo/informacion-practica");
      assert.match(en, /Christmas posada on the square/);
      const [latest] = await listContentVersions(ctx.deps.kv);
      assert.deepEqual(latest.changes, [`events[${slug}]: added`]);
      // Now an ordinary item: its form opens without ?nuevo=1.
      const again = await ctx.app.request(
        `/panel/contenido/editar/events/${slug}`,
        { headers: { cookie: admin } },
      );
      assert.equal(again.status, 200);
      await again.body?.cancel();
    },
  );
});

Deno.test("the photo picker: the library's photos to tick, the main one first, none left when all are unticked", async (t) => {
  await using ctx = await createTestContext({ data: undefined });
  const admin = await signInStaff(ctx, { role: "admin" });
  const staff = {
    id: "ana@municipio.gob.mx",
    email: "ana@municipio.gob.mx",
    role: "admin",
  } as const;
  const upload = async (width: number, altEs: string, altEn: string) =>
    await ctx.deps.photos.upload({
      file: { bytes: await makeJpeg(width, 600), name: "a.jpg" },
      altEs,
      altEn,
      credit: "Oficina de Turismo",
      staff,
    });
  const facade = await upload(
    800,
    "La fachada del museo",
    "The museum's facade",
  );
  const hall = await upload(808, "La sala de las barricas", "The barrel hall");
  const pageUrl = `/turismo/atractivos/${MUSEUM.slug}`;
  const send = async (pairs: [string, string][]) =>
    await ctx.app.request(EDITOR_URL, {
      method: "POST",
      headers: {
        cookie: admin,
        origin: "http://localhost",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(pairs),
    });
  /** The form's fields but the picker's, as the browser sends them. */
  const otherFields = async () =>
    [...(await openForm(ctx, admin)).fields].filter(([name]) =>
      name !== "es:photos" && name !== "fotoPrincipal"
    );
  const photoOrder = (html: string) =>
    [...html.matchAll(/<img src="\/fotos\/([0-9a-f]{32})-\d+\.(?:webp|jpg)"/g)]
      .map((m) => m[1]);

  await t.step("every library photo offered, none ticked", async () => {
    const { html } = await openForm(ctx, admin);
    for (const photo of [facade, hall]) {
      assert.match(
        html,
        new RegExp(`type="checkbox" name="es:photos" value="${photo.id}"/>`),
      );
    }
    assert.match(html, /La fachada del museo/);
    assert.match(html, /Crédito: Oficina de Turismo/);
    assert.doesNotMatch(html, /name="es:photos"[^>]*checked/);
  });

  await t.step(
    "two ticked, the second marked main: published in that order",
    async () => {
      const res = await send([
        ...await otherFields(),
        ["es:photos", facade.id],
        ["es:photos", hall.id],
        ["fotoPrincipal", hall.id],
        ["accion", "publicar"],
      ]);
      assert.equal(res.status, 303, await res.text());
      const page = await publicPage(ctx, pageUrl);
      const shown = photoOrder(page);
      assert.deepEqual([...new Set(shown)], [hall.id, facade.id]);
      const { html } = await openForm(ctx, admin);
      assert.match(
        html,
        new RegExp(
          `value="${hall.id}" checked/>[\\s\\S]*value="${facade.id}" checked/>`,
        ),
      );
      assert.match(
        html,
        new RegExp(`name="fotoPrincipal" value="${hall.id}" checked/>`),
      );
    },
  );

  await t.step("a main photo left unticked is ticked with it", async () => {
    const res = await send([
      ...await otherFields(),
      ["es:photos", hall.id],
      ["fotoPrincipal", facade.id],
      ["accion", "publicar"],
    ]);
    assert.equal(res.status, 303);
    await res.body?.cancel();
    assert.deepEqual(
      [...new Set(photoOrder(await publicPage(ctx, pageUrl)))],
      [facade.id, hall.id],
    );
  });

  await t.step("all unticked: the page shows none", async () => {
    const res = await send([...await otherFields(), ["accion", "publicar"]]);
    assert.equal(res.status, 303);
    await res.body?.cancel();
    assert.deepEqual(photoOrder(await publicPage(ctx, pageUrl)), []);
  });
});

Deno.test("taking an item off the portal: asked first, published without it, refused when named elsewhere or stale, restored from the history", async (t) => {
  await using ctx = await createTestContext({
    data: undefined,
    // Before every shipped event but the past ones: all are in the feed.
    clockStart: new Date("2026-10-20T16:00:00Z"),
  });
  const admin = await signInStaff(ctx, { role: "admin" });
  const event = SHIPPED.events.find((e) =>
    e.slug === "mercado-de-productores"
  )!;
  const formUrl = `/panel/contenido/editar/events/${event.slug}`;
  const post = (path: string, body: Record<string, string>, cookie = admin) =>
    ctx.app.request(path, {
      method: "POST",
      headers: {
        cookie,
        origin: "http://localhost",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(body),
    });
  const baseOf = (html: string) =>
    /name="base" value="([^"]*)"/.exec(html)?.[1] ?? "";
  const shown = async () => ({
    es: (await publicPage(ctx, "/turismo/informacion-practica"))
      .includes(event.name),
    feed: (await publicPage(ctx, "/turismo/eventos.ics"))
      .includes(`${event.slug}`),
  });

  assert.deepEqual(await shown(), { es: true, feed: true });

  await t.step(
    "the question names it and what happens; a stale one is refused",
    async () => {
      const form = await (await ctx.app.request(formUrl, {
        headers: { cookie: admin },
      })).text();
      assert.match(
        form,
        new RegExp(`href="${formUrl}/quitar">Quitar del portal…`),
      );
      const res = await ctx.app.request(`${formUrl}/quitar`, {
        headers: { cookie: admin },
      });
      const html = await res.text();
      assert.equal(res.status, 200);
      assert.match(html, new RegExp(`¿Quitar «${event.name}» del portal\\?`));
      assert.match(html, /Restaurar esta versión/);
      // Someone publishes meanwhile (another item): this question is stale.
      const other = await post(
        `/panel/contenido/editar/events/${SHIPPED.events[0].slug}`,
        {
          ...Object.fromEntries(
            await openFormAt(
              ctx,
              admin,
              `/panel/contenido/editar/events/${SHIPPED.events[0].slug}`,
            ),
          ),
          "es:place": "Panteón municipal, entrada principal",
          accion: "publicar",
        },
      );
      assert.equal(other.status, 303);
      const stale = await post(`${formUrl}/quitar`, { base: baseOf(html) });
      assert.equal(stale.status, 409);
      assert.match(await stale.text(), /publicó/);
      assert.deepEqual(await shown(), { es: true, feed: true });
    },
  );

  await t.step(
    "confirmed: gone from the pages and the feed, one version saying so",
    async () => {
      const html = await (await ctx.app.request(`${formUrl}/quitar`, {
        headers: { cookie: admin },
      })).text();
      const res = await post(`${formUrl}/quitar`, { base: baseOf(html) });
      assert.equal(res.status, 303, await res.text());
      assert.match(
        res.headers.get("location")!,
        /^\/panel\/contenido\/versiones\//,
      );
      assert.deepEqual(await shown(), { es: false, feed: false });
      const [latest] = await listContentVersions(ctx.deps.kv);
      assert.deepEqual(latest.changes, [`events[${event.slug}]: removed`]);
      assert.equal(latest.by, "ana@municipio.gob.mx");
      const gone = await ctx.app.request(formUrl, {
        headers: { cookie: admin },
      });
      assert.equal(gone.status, 404);
      await gone.body?.cancel();
    },
  );

  await t.step("a provider a package names is kept, with why", async () => {
    const provider = SHIPPED.packages[0].provider;
    const url = `/panel/contenido/editar/providers/${provider}/quitar`;
    const html = await (await ctx.app.request(url, {
      headers: { cookie: admin },
    })).text();
    const res = await post(url, { base: baseOf(html) });
    const refused = await res.text();
    assert.equal(res.status, 409);
    assert.match(refused, /otra parte del contenido todavía lo menciona/);
    assert.match(
      refused,
      new RegExp(
        `Paquetes «${
          SHIPPED.packages[0].name
        }» \\(provider\\): no existe «${provider}»`,
      ),
    );
    const page = await ctx.app.request(`/turismo/servicios/${provider}`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
  });

  await t.step(
    "not for attractions, nor for whoever may not publish",
    async () => {
      const attraction = await ctx.app.request(
        `/panel/contenido/editar/attractions/${MUSEUM.slug}/quitar`,
        { headers: { cookie: admin } },
      );
      assert.equal(attraction.status, 404);
      await attraction.body?.cancel();
      const editor = await signInStaff(ctx, {
        role: "editor",
        email: "edicion@municipio.gob.mx",
      });
      const url = `/panel/contenido/editar/events/${SHIPPED.events[0].slug}`;
      const refused = await post(`${url}/quitar`, { base: "" }, editor);
      assert.equal(refused.status, 403);
      await refused.body?.cancel();
      const form = await (await ctx.app.request(url, {
        headers: { cookie: editor },
      })).text();
      assert.doesNotMatch(form, /Quitar del portal/);
    },
  );

  await t.step(
    "restored from the history: back on the page and in the feed",
    async () => {
      const versions = await listContentVersions(ctx.deps.kv);
      const before = versions[1];
      const page = await (await ctx.app.request(
        `/panel/contenido/versiones/${before.id}`,
        { headers: { cookie: admin } },
      )).text();
      const res = await post(
        `/panel/contenido/versiones/${before.id}/restaurar`,
        {
          base: baseOf(page),
        },
      );
      assert.equal(res.status, 303);
      assert.deepEqual(await shown(), { es: true, feed: true });
    },
  );

  await t.step(
    "a provider a prizes' partner is linked to is kept until it is unlinked",
    async () => {
      // A provider no package and no dish names: only the partner holds it.
      const named = new Set([
        ...SHIPPED.packages.map((p) => p.provider),
        ...SHIPPED.gastronomy.map((d) => d.whereToTry),
      ]);
      const provider = SHIPPED.providers.find((p) => !named.has(p.slug))!;
      const { partner } = await storePartnerWithPrizes(
        ctx.deps.kv,
        ctx.clock.now(),
        { partner: { name: "Café del Portal", providerSlug: provider.slug } },
      );
      const url = `/panel/contenido/editar/providers/${provider.slug}/quitar`;
      const ask = async () =>
        baseOf(
          await (await ctx.app.request(url, { headers: { cookie: admin } }))
            .text(),
        );
      const res = await post(url, { base: await ask() });
      const refused = await res.text();
      assert.equal(res.status, 409);
      assert.match(refused, /otra parte del contenido todavía lo menciona/);
      assert.match(
        refused,
        /Socio de premios «Café del Portal»: está vinculado a este proveedor/,
      );
      const page = await ctx.app.request(
        `/turismo/servicios/${provider.slug}`,
      );
      assert.equal(page.status, 200);
      await page.body?.cancel();

      // Unlinked as the partner's form does: "No: es un comercio nuevo".
      const stored = await ctx.deps.kv.get(keys.partner(partner.id));
      await savePartner(ctx.deps.kv, {
        partner: { ...partner, providerSlug: null },
        versionstamp: stored.versionstamp,
        staff: STAFF,
        now: ctx.clock.now(),
      });
      const removed = await post(url, { base: await ask() });
      assert.equal(removed.status, 303, await removed.text());
      const gone = await ctx.app.request(`/turismo/servicios/${provider.slug}`);
      assert.equal(gone.status, 404);
      await gone.body?.cancel();
    },
  );
});

async function openFormAt(ctx: TestContext, cookie: string, url: string) {
  const res = await ctx.app.request(url, { headers: { cookie } });
  return readFormFields(await res.text());
}

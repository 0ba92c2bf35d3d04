/**
 * The words a tourist reads, through the app in process: the route page a
 * friend opens speaks about the tourist (by name, in the third person), a
 * guest is never told their ticket is tied to an account, the passport says
 * once what the ticket and the passport are, and the Spanish catalogues and
 * the shipped data set address the reader as "tú" and call the sign at each
 * attraction "cartel".
 */
import assert from "node:assert/strict";
import { getCatalogues } from "@/lib/i18n/catalogue.ts";
import { ensureBuild } from "@/scripts/build.ts";
import { getReadableText } from "../i18n_text.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  postJson,
  type TestContext,
  ticketBody,
  verifyVisits,
} from "../test_utils.ts";
import { SHIPPED } from "../test_utils.ts";

await ensureBuild();

const ORIGIN = "http://localhost";

/** A guest passport as a browser opens it: its session cookie and user id. */
async function openGuest(ctx: TestContext) {
  const res = await postJson(ctx, "/api/session-token", { guest: true }, {
    origin: ORIGIN,
  });
  const { userId } = await assertJson(res, 200);
  const cookie = res.headers.getSetCookie()[0].split(";")[0];
  return { cookie, userId: userId as string };
}

/** What a reader of `path` reads, with `cookie` (or none). */
async function read(
  ctx: TestContext,
  path: string,
  cookie?: string,
): Promise<string> {
  const res = await ctx.app.request(path, {
    headers: cookie ? { cookie } : {},
  });
  assert.equal(res.status, 200, path);
  return getReadableText(await res.text());
}

/** Words that address the reader as the route's owner. */
const SECOND_PERSON =
  /\b(Tu calificación|Te faltan?|Comparte tu ruta|Enlace de tu ruta|tu visita|Your rating|Share your route|your visit)\b/i;

/**
 * What the route page says, without the demo notice in every page's footer:
 * that one speaks to whoever reads ("confirma siempre antes de tu visita").
 */
function withoutDemoNotice(text: string): string {
  const notices = [SHIPPED.meta.notice, SHIPPED.meta.i18n?.en?.notice];
  return notices.reduce(
    (rest: string, notice) => notice ? rest.replaceAll(notice, "") : rest,
    text,
  );
}

Deno.test("GET /ruta/<code>: the page a friend opens speaks about the tourist", async (t) => {
  await using ctx = await createTestContext();
  const owner = await openGuest(ctx);
  await verifyVisits(ctx, owner.userId, 2);
  const rated = await postAsUser(
    ctx,
    "/api/turismo/rate-visit",
    owner.userId,
    {
      userId: owner.userId,
      atractivoSlug: SHIPPED.attractions[0].slug,
      rating: 4,
      notes: "",
    },
  );
  assert.equal(rated.status, 200, await rated.text());
  const ticket = ticketBody({ name: "Ana" });
  const made = await postAsUser(
    ctx,
    "/api/turismo/ticket",
    owner.userId,
    ticket,
  );
  assert.equal(made.status, 200, await made.text());
  const path = `/ruta/${ticket.shareCode.toLowerCase()}`;
  const friend = await openGuest(ctx);

  for (
    const [who, cookie] of [["a friend", undefined], [
      "another tourist with a passport",
      friend.cookie,
    ]] as const
  ) {
    await t.step(
      `in Spanish, to ${who}: Ana's rating, what Ana has left`,
      async () => {
        const text = await read(ctx, path, cookie);
        assert.ok(text.includes("Calificación de Ana: 4 de 5"), text);
        assert.ok(text.includes("A Ana le faltan 15 atractivos por descubrir"));
        assert.doesNotMatch(withoutDemoNotice(text), SECOND_PERSON);
      },
    );
    await t.step(
      `in English, to ${who}: Ana's rating, what Ana has left`,
      async () => {
        const text = await read(ctx, `/en${path}`, cookie);
        assert.ok(text.includes("Ana's rating: 4 out of 5"), text);
        assert.ok(text.includes("Ana has 15 attractions left to discover"));
        assert.doesNotMatch(withoutDemoNotice(text), SECOND_PERSON);
      },
    );
  }

  await t.step("a route with no visits yet names the tourist too", async () => {
    const other = await openGuest(ctx);
    const empty = ticketBody({ name: "Beto" });
    const res = await postAsUser(ctx, "/api/turismo/ticket", other.userId, {
      ...empty,
    });
    assert.equal(res.status, 200, await res.text());
    const emptyPath = `/ruta/${empty.shareCode.toLowerCase()}`;
    const es = await read(ctx, emptyPath);
    assert.ok(es.includes("cuando Beto lo registre"), es);
    assert.doesNotMatch(withoutDemoNotice(es), SECOND_PERSON);
    assert.doesNotMatch(es, /\bmi primer atractivo\b/);
    const en = await read(ctx, `/en${emptyPath}`);
    assert.ok(en.includes("when Beto enters it"), en);
    assert.doesNotMatch(withoutDemoNotice(en), SECOND_PERSON);
  });
});

Deno.test("a guest passport: never 'tied to your account', and the ticket explained once", async (t) => {
  await using ctx = await createTestContext();
  const guest = await openGuest(ctx);
  await verifyVisits(ctx, guest.userId, 1);
  const ACCOUNT = /unid[oa] a tu cuenta|linked to your account/i;

  for (const path of ["/", "/mi-pasaporte", "/en/", "/en/mi-pasaporte"]) {
    await t.step(`${path} says nothing of an account to a guest`, async () => {
      assert.doesNotMatch(await read(ctx, path, guest.cookie), ACCOUNT);
      assert.doesNotMatch(await read(ctx, path), ACCOUNT);
    });
  }

  // One idea, in the same words on the home page and the passport page.
  const TICKET = {
    es: "Para guardarlo, pide tu boleto con tu nombre y tu correo",
    en: "To keep it, get your ticket with your name and e-mail",
  };
  const EXPLAINED = {
    "/mi-pasaporte": TICKET.es,
    "/en/mi-pasaporte": TICKET.en,
    "/": TICKET.es,
    "/en/": TICKET.en,
  };
  for (const [path, sentence] of Object.entries(EXPLAINED)) {
    await t.step(
      `${path} says once what the ticket and passport are`,
      async () => {
        const text = await read(ctx, path, guest.cookie);
        assert.equal(text.split(sentence).length - 1, 1, text);
      },
    );
  }

  await t.step(
    "the home page says what the passport is as the check-in does: no account, the sign's code",
    async () => {
      const es = await read(ctx, "/");
      assert.ok(es.includes("Tu pasaporte junta un sello"), es);
      assert.ok(es.includes("No necesitas cuenta"), es);
      assert.doesNotMatch(es, /Regístrate/);
      const en = await read(ctx, "/en/");
      assert.ok(en.includes("No account needed"), en);
      assert.doesNotMatch(en, /Sign up/);
    },
  );
});

/**
 * Forms of address in "usted": the pronoun, and imperatives in "usted" that
 * start a sentence (mid-sentence "escriba" is often a subjunctive: "quien lo
 * escriba").
 */
const USTED = new RegExp(
  String
    .raw`\b[Uu]sted(es)?\b|\b[Ii]nténtelo\b|(^|[.:;!?¿¡>«"(]\s*)(Ingrese|Introduzca|Escriba|Seleccione|Haga|Elija|Presione|Pulse|Verifique|Intente|Vuelva|Espere|Consulte|Descargue|Revise|Inicie|Utilice|Comuníquese|Llame|Registre|Acepte|Abra|Guarde|Active|Permita|Toque|Obtenga|Busque|Envíe|Recuerde|Confirme|Cambie|Borre|Comparta|Califique|Visite|Escanee)\b`,
  "u",
);
/** Other words for the sign at each attraction: it is a "cartel" ("sign"). */
const OTHER_SIGN_ES = /\b(letreros?|placas?)\b/iu;
const OTHER_SIGN_EN = /\b(plaques?|signboards?|placards?)\b/iu;

Deno.test("the Spanish catalogues say tú and cartel", async (t) => {
  const catalogues = getCatalogues();
  const es = [...catalogues.get("es")!.messages];
  const en = [...catalogues.get("en")!.messages];

  await t.step("no message addresses the reader as usted", () => {
    const found = es.filter(([, message]) => USTED.test(message));
    assert.deepEqual(found, []);
  });

  await t.step(
    "the sign at an attraction is a cartel, in English a sign",
    () => {
      assert.deepEqual(es.filter(([, m]) => OTHER_SIGN_ES.test(m)), []);
      assert.deepEqual(en.filter(([, m]) => OTHER_SIGN_EN.test(m)), []);
    },
  );

  await t.step("no Spanish text in the pages' code says usted", async () => {
    const found: string[] = [];
    for (const dir of ["routes", "components", "islands"]) {
      for await (
        const file of walk(new URL(`../../${dir}/`, import.meta.url))
      ) {
        const text = await Deno.readTextFile(file);
        for (const line of text.split("\n")) {
          if (USTED.test(line) || OTHER_SIGN_ES.test(line)) {
            found.push(`${file.pathname}: ${line.trim()}`);
          }
        }
      }
    }
    assert.deepEqual(found, []);
  });
});

/**
 * The data set's tips, directions and etiquette in "usted": its imperatives
 * (anywhere in a sentence: "Si va a catar, no maneje"), and "su" or "sus"
 * where it means the reader's ("antes de su visita", "a su hotel").
 * "Entre" alone is the preposition too ("entre semana"): only "no entre".
 */
const USTED_IN_DATA =
  /\b(Pruebe|Visite|Visítel[oa]s?|Lleve|Suba|Reserve|Use|No entre|Evite|Avise|Tome|Siga|Continúe|Rodee|Salga|Pida|Deje|Maneje|Recorra|Guarde|Confirme|Consuma|Vaya|Si va a|puede buscar su|visitará)\b|\b(su|sus) (visita|hotel|ruta)\b/iu;

/** The Spanish strings of a data set, by where they sit (no `i18n` overlay). */
function spanishStrings(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => spanishStrings(item, `${path}[${i}]`));
  }
  if (value && typeof value === "object") {
    return Object.entries(value).filter(([key]) => key !== "i18n")
      .flatMap(([key, item]) => spanishStrings(item, `${path}.${key}`));
  }
  return [];
}

Deno.test("the shipped data set's Spanish says tú and cartel", async (t) => {
  const data = JSON.parse(
    await Deno.readTextFile(
      new URL("../../data/turismo.json", import.meta.url),
    ),
  );
  const strings = spanishStrings(data);
  assert.ok(strings.length > 300, `${strings.length} strings`);

  await t.step(
    "no tip, direction or notice addresses the reader as usted",
    () => {
      const found = strings.filter(([, text]) =>
        USTED.test(text) || USTED_IN_DATA.test(text)
      );
      assert.deepEqual(found, []);
    },
  );

  await t.step("the sign at an attraction is a cartel", () => {
    assert.deepEqual(
      strings.filter(([, text]) => OTHER_SIGN_ES.test(text)),
      [],
    );
  });
});

/** The .ts and .tsx files under `dir`, tests aside. */
async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* walk(url);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) {
      yield url;
    }
  }
}

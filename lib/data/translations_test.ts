import assert from "node:assert/strict";
import {
  DATA_PATH,
  loadShippedData,
  mutateShipped,
} from "@/tests/test_utils.ts";
import { DataStore } from "./data_store.ts";
import { DataError, parseTourismData } from "./tourism_data.ts";
import {
  BASE_LANG,
  getFallbackLang,
  listDataLanguages,
  listMissingTranslations,
  localizeData,
  TRANSLATABLE,
} from "./translations.ts";

// deno-lint-ignore no-explicit-any -- tests reach into arbitrary parts
type Any = any;

async function parse(change: (data: Any) => void) {
  return (await parseTourismData(mutateShipped(change), "copy.json")).data;
}

function byKey<T>(list: T[], key: string, value: unknown): T {
  const found = list.find((item) =>
    (item as Record<string, unknown>)[key] === value
  );
  assert.ok(found, `no element with ${key} ${value}`);
  return found;
}

/** `byKey` over the raw JSON a test mutates. */
function rawByKey(list: Any[], key: string, value: unknown): Any {
  return byKey(list, key, value);
}

async function assertInvalid(change: (data: Any) => void, message: RegExp) {
  await assert.rejects(
    parseTourismData(mutateShipped(change), "copy.json"),
    (error: Error) => {
      assert.ok(error instanceof DataError, error.name);
      assert.match(error.message, message);
      return true;
    },
  );
}

Deno.test("translations", async (t) => {
  const shipped = (await loadShippedData()).data;

  await t.step(
    "the shipped data set has no missing English text and covers es and en",
    () => {
      assert.deepEqual(listDataLanguages(shipped), ["es", "en"]);
      assert.deepEqual(listMissingTranslations(shipped, ["es", "en"]), []);
    },
  );

  await t.step(
    "the shipped English is written, not copied: no prose field equals its Spanish",
    () => {
      const en = localizeData(shipped, "en") as Any;
      const es = shipped as Any;
      const same: string[] = [];
      const compare = (a: Any, b: Any, fields: Any, path: string) => {
        for (const [field, kind] of Object.entries(fields)) {
          if (a?.[field] === undefined || kind === "name") continue;
          if (Array.isArray(kind)) {
            a[field].forEach((x: Any, i: number) =>
              compare(x, b[field][i], kind[0], `${path}.${field}[${i}]`)
            );
          } else if (typeof kind === "object") {
            compare(a[field], b[field], kind, `${path}.${field}`);
          } else if (JSON.stringify(a[field]) === JSON.stringify(b[field])) {
            same.push(`${path}.${field}`);
          }
        }
      };
      for (const [part, { fields }] of Object.entries(TRANSLATABLE)) {
        if (Array.isArray(es[part])) {
          es[part].forEach((x: Any, i: number) =>
            compare(x, en[part][i], fields, `${part}[${i}]`)
          );
        } else compare(es[part], en[part], fields, part);
      }
      assert.deepEqual(same, []);
    },
  );

  await t.step(
    "Spanish is the data itself: localizeData(es) returns the raw texts",
    () => {
      assert.equal(localizeData(shipped, BASE_LANG), shipped);
      const volcano = byKey(shipped.attractions, "slug", "volcan-de-tequila");
      assert.equal(volcano.name, "Volcán de Tequila");
      assert.equal(getFallbackLang(volcano, "tips"), undefined);
    },
  );

  await t.step(
    "English overlays apply: texts translated, everything else untouched, no i18n left",
    () => {
      const en = localizeData(shipped, "en");
      assert.notEqual(en, shipped);
      assert.equal(localizeData(shipped, "en"), en, "cached per version");
      assert.throws(() => localizeData(shipped, "en-US"), RangeError);
      const volcano = byKey(en.attractions, "slug", "volcan-de-tequila");
      assert.equal(volcano.name, "Tequila Volcano");
      assert.equal(volcano.category, "aventura");
      assert.equal(volcano.durationMinutes, 540);
      assert.deepEqual(
        volcano.location,
        byKey(shipped.attractions, "slug", "volcan-de-tequila").location,
      );
      assert.equal(volcano.cost.adult.currency, "MXN");
      assert.equal(en.directions[1].fromCity, "Mexico City");
      assert.equal(en.packages[0].per, "persona", "enums stay codes");
      assert.ok(!JSON.stringify(en).includes('"i18n"'));
      assert.ok(JSON.stringify(shipped).includes('"i18n"'));
      assert.equal(
        shipped.attractions.map((a) => a.slug).join(),
        en.attractions.map((a) => a.slug).join(),
      );
    },
  );

  await t.step(
    "overlays merge deeply, by index in arrays of objects, and replace string arrays whole",
    async () => {
      const data = await parse((d) => {
        const volcano = rawByKey(d.attractions, "slug", "volcan-de-tequila");
        volcano.i18n.en = {
          cost: { notes: "Free." },
          tips: ["Only one tip."],
        };
        d.weather.i18n.en = {
          climate: "Mild.",
          seasons: [{ months: "Winter" }, { description: "Hot and dry." }],
        };
      });
      const en = localizeData(data, "en");
      const volcano = byKey(en.attractions, "slug", "volcan-de-tequila");
      assert.equal(volcano.cost.notes, "Free.");
      assert.equal(volcano.cost.adult.amount, 0, "siblings kept");
      assert.deepEqual(volcano.tips, ["Only one tip."], "replaced whole");
      assert.equal(volcano.name, "Volcán de Tequila", "a name stays as is");
      assert.equal(volcano.summary, data.attractions.at(-1)!.summary);

      const [winter, spring, summer] = en.weather.seasons;
      const spanish = data.weather.seasons;
      assert.equal(winter.months, "Winter");
      assert.equal(winter.description, spanish[0].description);
      assert.deepEqual(winter.avgTempC, spanish[0].avgTempC);
      assert.equal(spring.months, spanish[1].months);
      assert.equal(spring.description, "Hot and dry.");
      assert.equal(summer.months, spanish[2].months);
      assert.deepEqual(en.weather.packing, data.weather.packing);
    },
  );

  await t.step(
    "a field without translation keeps its Spanish and getFallbackLang says es",
    async () => {
      const data = await parse((d) => {
        const volcano = rawByKey(d.attractions, "slug", "volcan-de-tequila");
        delete volcano.i18n.en.tips;
        delete volcano.i18n.en.cost;
        delete volcano.i18n.en.name;
        delete d.weather.i18n.en.seasons[2].description;
      });
      const en = localizeData(data, "en");
      const volcano = byKey(en.attractions, "slug", "volcan-de-tequila");
      const spanish = byKey(data.attractions, "slug", "volcan-de-tequila");
      assert.deepEqual(volcano.tips, spanish.tips);
      assert.equal(getFallbackLang(volcano, "tips"), "es");
      assert.equal(getFallbackLang(volcano.cost, "notes"), "es");
      assert.equal(getFallbackLang(volcano, "summary"), undefined);
      assert.equal(volcano.name, "Volcán de Tequila");
      assert.equal(getFallbackLang(volcano, "name"), undefined, "a name");
      const rainy = en.weather.seasons[2];
      assert.equal(rainy.description, data.weather.seasons[2].description);
      assert.equal(getFallbackLang(rainy, "description"), "es");
      assert.equal(getFallbackLang(rainy, "months"), undefined);
      assert.equal(getFallbackLang(spanish, "tips"), undefined, "raw data");
    },
  );

  await t.step(
    "listMissingTranslations finds removed English fields by readable paths",
    async () => {
      const data = await parse((d) => {
        delete rawByKey(d.attractions, "slug", "volcan-de-tequila").i18n.en
          .tips;
        delete rawByKey(d.attractions, "slug", "plaza-principal").i18n.en.cost;
        delete d.weather.i18n.en.seasons[2].description;
        delete rawByKey(d.gastronomy, "dish", "Tejuino").i18n;
        delete rawByKey(d.emergency, "phone", "911").i18n.en.notes;
        delete d.meta.i18n;
      });
      assert.deepEqual(
        listMissingTranslations(data, ["es", "en"]).map((m) =>
          `${m.lang} ${m.path}`
        ).sort(),
        [
          "en attractions[plaza-principal].cost.notes",
          "en attractions[volcan-de-tequila].tips",
          "en emergency[911].notes",
          "en gastronomy[Tejuino].description",
          "en meta.notice",
          "en weather.seasons[2].description",
        ],
      );
    },
  );

  await t.step(
    "a third language is one more key: fr with one field works and lists the rest as missing",
    async () => {
      const data = await parse((d) => {
        rawByKey(d.attractions, "slug", "plaza-principal").i18n.fr = {
          summary: "Le cœur du village.",
        };
      });
      assert.deepEqual(listDataLanguages(data), ["es", "en", "fr"]);
      const fr = localizeData(data, "fr");
      const plaza = byKey(fr.attractions, "slug", "plaza-principal");
      assert.equal(plaza.summary, "Le cœur du village.");
      assert.equal(getFallbackLang(plaza, "summary"), undefined);
      assert.equal(getFallbackLang(plaza, "description"), "es");
      assert.equal(plaza.description, data.attractions[0].description);

      const missing = listMissingTranslations(data, listDataLanguages(data));
      assert.ok(missing.every((m) => m.lang === "fr"), "English complete");
      const paths = missing.map((m) => m.path);
      assert.ok(!paths.includes("attractions[plaza-principal].summary"));
      assert.ok(paths.includes("attractions[plaza-principal].description"));
      assert.ok(paths.includes("meta.notice"));
      assert.ok(paths.includes("providers[rutas-del-agave].languages"));
      assert.ok(!paths.some((p) => p.endsWith(".name") && p.startsWith("att")));
      assert.equal(
        missing.length,
        listMissingTranslations(shipped, ["fr"]).length - 1,
        "everything else",
      );
    },
  );

  await t.step(
    "an overlay with an unknown or non-text field is refused with its path",
    async () => {
      await assertInvalid(
        (d) => d.attractions[0].i18n.en.descripton = "Typo",
        /attractions\[0\]\.i18n\.en\.descripton: not a translatable field/,
      );
      await assertInvalid(
        (d) => d.attractions[2].i18n.en.guideCode = "LEAK1",
        /attractions\[2\]\.i18n\.en\.guideCode: not a translatable field/,
      );
      await assertInvalid(
        (d) => d.attractions[0].i18n.en.cost.adult = { amount: 1 },
        /attractions\[0\]\.i18n\.en\.cost\.adult: not a translatable field/,
      );
      await assertInvalid(
        (d) => d.weather.i18n.en.seasons[1].avgTempC = { min: 1, max: 2 },
        /weather\.i18n\.en\.seasons\[1\]\.avgTempC: not a translatable field/,
      );
      await assertInvalid(
        (d) => d.providers[0].i18n.en.contact = { phone: "1" },
        /providers\[0\]\.i18n\.en\.contact/,
      );
    },
  );

  await t.step(
    "an overlay with the wrong shape, language or base is refused with its path",
    async () => {
      await assertInvalid(
        (d) => d.attractions[0].i18n.en.tips = "One tip",
        /attractions\[0\]\.i18n\.en\.tips/,
      );
      await assertInvalid(
        (d) => d.attractions[0].i18n.en.summary = "x".repeat(161),
        /attractions\[0\]\.i18n\.en\.summary/,
      );
      await assertInvalid(
        (d) => d.routes[0].i18n.EN = { name: "Walk" },
        /routes\[0\]\.i18n\.EN: invalid key: must be a BCP 47 primary language tag/,
      );
      await assertInvalid(
        (d) => d.routes[0].i18n.es = { name: "Paseo" },
        /routes\[0\]\.i18n\.es: invalid key: Spanish is the data set's own text/,
      );
      await assertInvalid(
        (d) => {
          const hacienda = rawByKey(
            d.attractions,
            "slug",
            "hacienda-san-jose-del-refugio",
          );
          delete hacienda.tips;
          hacienda.i18n.en.tips = ["Orphan tip"];
        },
        /attractions\[\d+\]\.i18n\.en\.tips: translates a field that has no Spanish text/,
      );
      await assertInvalid(
        (d) => d.weather.i18n.en.seasons.push({ months: "Extra" }),
        /weather\.i18n\.en\.seasons\[4\]: has no Spanish element/,
      );
    },
  );

  await t.step(
    "the data store logs one line per language with missing texts",
    async () => {
      const json = mutateShipped((d) => {
        delete rawByKey(d.attractions, "slug", "volcan-de-tequila").i18n.en
          .tips;
        delete d.meta.i18n;
        delete d.culture.i18n.en.etiquette;
        delete d.municipality.i18n.en.description;
        d.routes[0].i18n.fr = { name: "Le centre à pied" };
      });
      const warnings: string[] = [];
      new DataStore(await parseTourismData(json, DATA_PATH), {
        onWarning: (line) => warnings.push(line),
      });
      assert.equal(warnings.length, 2);
      assert.equal(
        warnings[0],
        "Data set: 4 texts have no English translation (meta.notice, municipality.description, attractions[volcan-de-tequila].tips, …); they show in Spanish.",
      );
      assert.match(
        warnings[1],
        /^Data set: \d+ texts have no French translation \(meta\.notice, .*, …\); they show in Spanish\.$/,
      );

      const quiet: string[] = [];
      new DataStore(await loadShippedData(), {
        onWarning: (line) => quiet.push(line),
      });
      assert.deepEqual(quiet, []);
    },
  );
});

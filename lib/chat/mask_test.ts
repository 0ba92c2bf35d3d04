import assert from "node:assert/strict";
import { maskPersonalData, MASKS } from "./mask.ts";
import corpus from "./mask_corpus.json" with { type: "json" };
import { SHIPPED } from "@/tests/test_utils.ts";

/**
 * One entry of the corpus: a visitor's question; with personal data, the
 * placeholders it must get (`masks`), the pieces that must be gone
 * (`gone`) and the words that must survive (`keep`); without, nothing.
 */
interface Entry {
  q: string;
  masks?: string[];
  gone?: string[];
  keep?: string[];
}

const ENTRIES: Entry[] = corpus;
const PLACEHOLDERS = Object.values(MASKS) as string[];

Deno.test("maskPersonalData: the corpus", async (t) => {
  const withData = ENTRIES.filter((e) => e.masks);
  const without = ENTRIES.filter((e) => !e.masks);
  assert.ok(ENTRIES.length >= 100, `${ENTRIES.length} questions`);
  assert.ok(withData.length >= 50 && without.length >= 50);
  for (const mask of PLACEHOLDERS) {
    assert.ok(
      withData.filter((e) => e.masks!.includes(mask)).length >= 4,
      `several questions with ${mask}`,
    );
  }

  await t.step("every piece of personal data is masked, with its kind", () => {
    const failures = withData.flatMap((entry) => {
      const out = maskPersonalData(entry.q);
      const wrong = [
        ...entry.masks!.filter((m) => !out.includes(m)).map((m) => `no ${m}`),
        ...entry.gone!.filter((g) => out.includes(g.normalize("NFKC")))
          .map((g) => `kept "${g}"`),
        ...entry.keep!.filter((k) => !out.includes(k)).map((k) =>
          `lost "${k}"`
        ),
      ];
      return wrong.length ? [`${entry.q}\n  -> ${out}\n  ${wrong}`] : [];
    });
    assert.deepEqual(failures, []);
  });

  await t.step("questions without personal data come back unchanged", () => {
    const changed = without.flatMap((entry) => {
      const out = maskPersonalData(entry.q);
      return out === entry.q ? [] : [`${entry.q}\n  -> ${out}`];
    });
    assert.deepEqual(changed, []);
  });
});

Deno.test("maskPersonalData: full-width characters are read as plain ones", () => {
  assert.equal(
    maskPersonalData("ｍｉ ｃｏｒｒｅｏ： ａｎａ＠ｅｊｅｍｐｌｏ．ｃｏｍ"),
    "mi correo: [correo]",
  );
  assert.equal(
    maskPersonalData("tel ３３ １２３４ ５６７８"),
    "tel [teléfono]",
  );
});

Deno.test("maskPersonalData: the data set's places, events and dishes survive in questions", () => {
  const names = [
    ...SHIPPED.attractions.map((a) => a.name),
    ...SHIPPED.events.map((e) => e.name),
    ...SHIPPED.providers.map((p) => p.name),
    ...SHIPPED.routes.map((r) => r.name),
    ...SHIPPED.packages.map((p) => p.name),
    ...SHIPPED.gastronomy.map((g) => g.dish),
  ];
  assert.ok(names.length > 40);
  const changed = names.flatMap((name) =>
    [
      `¿Qué horario tiene ${name}?`,
      `How do I get to ${name}?`,
      `Soy fan de ${name}, ¿cuánto cuesta?`,
      `I'm going to ${name} at 10, is it open?`,
    ].filter((question) => maskPersonalData(question) !== question)
  );
  assert.deepEqual(changed, []);
});

Deno.test("maskPersonalData: a run of 13 to 19 digits is a card, whatever separators it is typed with", () => {
  const separators = [" ", "-", ".", "/", " / ", " - ", ". "];
  const failures: string[] = [];
  for (let length = 13; length <= 19; length++) {
    const digits = "4935754433510504999".slice(0, length);
    const groups = digits.match(/.{1,4}/g)!;
    for (const [i, separator] of separators.entries()) {
      // One separator throughout, then each mixed with the next.
      const mixed = separators[(i + 1) % separators.length];
      for (
        const typed of [
          groups.join(separator),
          groups.map((g, j) => (j ? (j % 2 ? separator : mixed) : "") + g)
            .join(""),
        ]
      ) {
        const out = maskPersonalData(`pagué con ${typed} en el museo`);
        if (!/^pagué con \[(?:tarjeta|INE)\] en el museo$/.test(out)) {
          failures.push(`${typed} -> ${out}`);
        }
      }
    }
  }
  assert.deepEqual(failures, []);
  // Dates typed with slashes stay, one or several.
  for (
    const question of [
      "¿Hay tour el 12/10/2026?",
      "del 12/10/2026-15/10/2026, ¿hay lugar?",
      "from 2026/10/12 2026/10/15",
    ]
  ) {
    assert.equal(maskPersonalData(question), question);
  }
});

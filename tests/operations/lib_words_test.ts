/**
 * `lib/` returns facts, never Spanish: the words a person reads live in the
 * catalogues (`locales/<lang>/*.json`), so a second language is a new
 * folder, never a hunt through the code. This test reads every source file
 * under `lib/` with Deno's own parser (the lint plugin API: string
 * literals, template parts and JSX text, never comments or regular
 * expressions) and fails on a literal with Spanish words in it, naming the
 * file and the text. Tests and their data are left out (`*_test.ts`,
 * `testdata/`), as is generated code (`_generated/`).
 *
 * The allow-list names the files that may hold such literals, each with
 * why. An entry whose file no longer has any fails too, so the list only
 * shrinks: remove the entry when its words move out.
 */
import assert from "node:assert/strict";
import { relative } from "node:path";
import { findSpanishLiterals, isSpanishText } from "../spanish_literals.ts";

const LIB = new URL("../../lib/", import.meta.url);

/** Files that may hold Spanish literals, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  // What detects Spanish must spell it.
  "chat/mask.ts":
    "regular expressions (as strings) that find Mexican IDs, e-mails and phone numbers written in Spanish",
  "chat/question_lang.ts":
    "the list of Spanish words that tells a Spanish question from an English one",
  "chat/unanswered.ts":
    "the Spanish stop words an unanswered question is grouped by",
  "chat/no_data_marker.ts":
    "the marker the model is told to start a reply without the data with: a token, not a sentence",
  "og/text.ts": "a set of narrow glyphs (í, ì, ï, î) for text measurement",
  "open_data/open_data.ts":
    "the published data package's Spanish schema descriptions: a contract of the open data files",
  "config/licenses.ts":
    "the licences' official Spanish titles, published as such in the open data's metadata",
};

async function listSources(dir: URL): Promise<URL[]> {
  const files: URL[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) {
      if (entry.name === "testdata" || entry.name === "_generated") continue;
      files.push(...await listSources(url));
    } else if (
      /\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)
    ) {
      files.push(url);
    }
  }
  return files;
}

Deno.test("lib/ holds no Spanish sentence: the words are the catalogues'", async (t) => {
  const byFile = new Map<string, string[]>();
  for (const url of await listSources(LIB)) {
    const path = relative(LIB.pathname, url.pathname);
    const found = findSpanishLiterals(
      url.pathname,
      await Deno.readTextFile(url),
    );
    if (found.length > 0) byFile.set(path, found);
  }

  await t.step("the detector tells Spanish from English and from codes", () => {
    assert.ok(isSpanishText("Esa nota ya no existe."));
    assert.ok(isSpanishText("7 días"));
    assert.ok(isSpanishText("Invitación de "));
    assert.ok(!isSpanishText("no such file"));
    assert.ok(!isSpanishText("private, no-store"));
    assert.ok(!isSpanishText("es-MX"));
    assert.ok(!isSpanishText("filtrado"));
  });

  await t.step("no file outside the allow-list has a Spanish literal", () => {
    const offending = [...byFile].filter(([path]) => !(path in ALLOWED))
      .map(([path, texts]) =>
        `lib/${path}: ${texts.map((text) => JSON.stringify(text)).join(", ")}`
      );
    assert.deepEqual(
      offending,
      [],
      "move these words to locales/<lang>/*.json and say them with t()",
    );
  });

  await t.step("every allow-listed file still needs its entry", () => {
    const stale = Object.keys(ALLOWED).filter((path) => !byFile.has(path));
    assert.deepEqual(
      stale,
      [],
      "these files have no Spanish literal any more: remove their entries",
    );
  });
});

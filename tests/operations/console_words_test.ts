/**
 * The staff console says every sentence from the catalogues
 * (`locales/<lang>/panel*.json`), never from its markup: this test starts
 * from the console's routes (`routes/panel/`, `routes/_shared/`,
 * `routes/staff_auth/`), follows their imports into `components/`,
 * `islands/` and `routes/`, and fails on a string literal, template part
 * or JSX text reading as Spanish, naming the file and the text. `lib/` is
 * `lib_words_test.ts`'s; the tourist frame (`routes/_app.tsx`) is the
 * pages'. Addresses and file names (`/aviso-de-privacidad`) are not
 * sentences. No allow-list: a console file has no reason to spell Spanish.
 */
import assert from "node:assert/strict";
import { dirname, relative, resolve } from "node:path";
import { findSpanishLiterals } from "../spanish_literals.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The console's own folders: every file in them is read. */
const CONSOLE_DIRS = ["routes/panel", "routes/_shared", "routes/staff_auth"];
/** Where an import leads to a file this test reads too. */
const FOLLOWED = /^(?:components|islands|routes)\//;
/**
 * A path, URL or file name (`/aviso-de-privacidad#personal`,
 * `calificaciones-con-notas.csv`): one token with no space, an address
 * rather than a sentence.
 */
const ADDRESS = /^[\p{L}\d_]*[/.#-][\p{L}\d_/.#?=&-]*$/u;
/** Files reached by import that belong to the tourist pages, not the console. */
const NOT_CONSOLE = new Set(["routes/_app.tsx"]);

async function listSources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(resolve(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await listSources(path));
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files;
}

/** The project files one source imports (`@/…` and relative specifiers). */
function getImports(path: string, source: string): string[] {
  const found: string[] = [];
  for (const [, specifier] of source.matchAll(/\bfrom\s+"([^"]+)"/g)) {
    let target: string;
    if (specifier.startsWith("@/")) target = specifier.slice(2);
    else if (specifier.startsWith(".")) {
      target = relative(ROOT, resolve(ROOT, dirname(path), specifier));
    } else continue;
    found.push(target);
  }
  return found;
}

/** The console's files: its folders, and what they import from components/, islands/, routes/. */
async function listConsoleFiles(): Promise<string[]> {
  const queue: string[] = [];
  for (const dir of CONSOLE_DIRS) queue.push(...await listSources(dir));
  const seen = new Set<string>(queue);
  for (let i = 0; i < queue.length; i++) {
    const source = await Deno.readTextFile(resolve(ROOT, queue[i]));
    for (const target of getImports(queue[i], source)) {
      if (
        FOLLOWED.test(target) && /\.tsx?$/.test(target) &&
        !NOT_CONSOLE.has(target) && !seen.has(target)
      ) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return queue.sort();
}

Deno.test("the staff console's markup holds no Spanish: the words are the catalogues'", async (t) => {
  const files = await listConsoleFiles();

  await t.step(
    "the list follows the imports into the console's components",
    () => {
      for (
        const path of [
          "routes/panel/index.tsx",
          "routes/_shared/staff_sign_in.tsx",
          "routes/staff_auth/index.tsx",
          "components/StaffLayout.tsx",
          "components/Dashboard.tsx",
          "components/AttractionReport.tsx",
          "components/CheckInRule.tsx",
        ]
      ) assert.ok(files.includes(path), `${path} is read`);
      assert.ok(!files.some((path) => path.startsWith("lib/")));
    },
  );

  await t.step("no console file has a Spanish literal", async () => {
    const offending: string[] = [];
    for (const path of files) {
      const found = findSpanishLiterals(
        resolve(ROOT, path),
        await Deno.readTextFile(resolve(ROOT, path)),
      ).filter((text) => !ADDRESS.test(text));
      if (found.length > 0) {
        offending.push(
          `${path}: ${found.map((text) => JSON.stringify(text)).join(", ")}`,
        );
      }
    }
    assert.deepEqual(
      offending,
      [],
      "move these words to locales/<lang>/panel*.json and say them with t()",
    );
  });
});

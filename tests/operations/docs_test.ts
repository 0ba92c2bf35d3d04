/**
 * The README is a door, not the house: short, with a true layout table, and
 * every relative link of the README and docs/ leading somewhere. Markdown is
 * read with markdown-it, so code blocks are never mistaken for links, and
 * anchors are made the way GitHub makes them (github-slugger).
 */
import assert from "node:assert/strict";
import GithubSlugger from "github-slugger";
import MarkdownIt from "markdown-it";

const ROOT = new URL("../../", import.meta.url);
const README_MAX_LINES = 200;
const markdown = new MarkdownIt();
type Token = ReturnType<typeof markdown.parse>[number];

/** A path of the repository's code the docs may name (`lib/db/keys.ts`). */
const SOURCE_PATH =
  /(?<![\w/.@-])(?:lib|routes|tests|scripts|bench|components|islands|client|locales|wordpress|data)\/[\w./[\]-]+\.(?:tsx|ts|json|php|sh|lua)(?![\w])/g;

/** Paths the docs give as examples to create, not as files that exist. */
const EXAMPLE_PATHS = ["locales/fr/meta.json"];

function readDoc(path: string): Promise<string> {
  return Deno.readTextFile(new URL(path, ROOT));
}

async function listMarkdownDocs(): Promise<string[]> {
  const docs = ["README.md"];
  for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      docs.push(`docs/${entry.name}`);
    }
  }
  return docs.sort();
}

async function listFolders(path: string): Promise<string[]> {
  const folders = [];
  for await (const entry of Deno.readDir(new URL(path, ROOT))) {
    if (entry.isDirectory && entry.name !== ".git") {
      folders.push(`${path}${entry.name}/`);
    }
  }
  return folders.sort();
}

/** Every token of a document, inline children included, in order. */
function flattenTokens(text: string): Token[] {
  return markdown.parse(text, {}).flatMap((token) => [
    token,
    ...(token.children ?? []),
  ]);
}

/** The anchors GitHub gives a document's headings. */
function getAnchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const tokens = markdown.parse(text, {});
  tokens.forEach((token, i) => {
    if (token.type !== "heading_open") return;
    const inline = tokens[i + 1].children ?? [];
    const title = inline.map((child) => child.content).join("");
    anchors.add(slugger.slug(title));
  });
  return anchors;
}

/** The link targets of a document: hrefs and image sources. */
function getLinkTargets(text: string): string[] {
  return flattenTokens(text).flatMap((token) => {
    if (token.type === "link_open") {
      return [String(token.attrGet("href") ?? "")];
    }
    if (token.type === "image") return [String(token.attrGet("src") ?? "")];
    return [];
  });
}

/**
 * The folder entries of `.gitignore` (`/build/`): folders a task or a test
 * writes, which a fresh clone does not have. The file only ever lists
 * root-anchored paths, so no glob matching is needed here.
 */
async function getIgnoredFolders(): Promise<Set<string>> {
  const text = await readDoc(".gitignore");
  return new Set(
    text.split("\n")
      .map((line) => line.trim())
      .filter((line) => /^\/[^*]+\/$/.test(line))
      .map((line) => line.slice(1)),
  );
}

/** The paths in the first column of the README's "Layout" table. */
function getLayoutPaths(readme: string): string[] {
  const section = readme.split(/^## /m)
    .find((part) => part.startsWith("Layout\n"));
  assert.ok(section, 'the README has a "Layout" section');
  return [...section.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map((m) => m[1]);
}

Deno.test("docs: the README is a page with a true map", async (t) => {
  const readme = await readDoc("README.md");

  await t.step("the README has at most 200 lines", () => {
    const lines = readme.trimEnd().split("\n").length;
    assert.ok(
      lines <= README_MAX_LINES,
      `README.md has ${lines} lines; move depth to docs/`,
    );
  });

  await t.step(
    "the layout table names every top-level and lib/ folder, and none that is not there",
    async () => {
      const named = getLayoutPaths(readme)
        .filter((path) => /^(lib\/)?[^/]+\/$/.test(path));
      const existing = [
        ...await listFolders(""),
        ...await listFolders("lib/"),
      ];
      const ignored = await getIgnoredFolders();
      const missing = existing.filter((path) => !named.includes(path));
      assert.deepEqual(missing, [], "folders the layout table does not name");
      const gone = named.filter((path) =>
        !existing.includes(path) && !ignored.has(path)
      );
      assert.deepEqual(
        gone,
        [],
        "folders the layout table names that are not there",
      );
    },
  );

  await t.step(
    "every relative link of the README and docs/ leads to a file, and to its heading",
    async () => {
      const broken: string[] = [];
      for (const doc of await listMarkdownDocs()) {
        const base = new URL(doc, ROOT);
        for (const target of getLinkTargets(await readDoc(doc))) {
          if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
          const [path, anchor] = target.split("#", 2);
          const url = path ? new URL(path, base) : base;
          let text: string;
          try {
            const info = await Deno.stat(url);
            if (!info.isFile || !url.pathname.endsWith(".md")) {
              if (anchor) {
                broken.push(
                  `${doc}: ${target} (an anchor in a non-Markdown file)`,
                );
              }
              continue;
            }
            text = await Deno.readTextFile(url);
          } catch {
            broken.push(`${doc}: ${target} (no such file)`);
            continue;
          }
          if (anchor && !getAnchors(text).has(decodeURIComponent(anchor))) {
            broken.push(`${doc}: ${target} (no such heading)`);
          }
        }
      }
      assert.deepEqual(broken, []);
    },
  );

  await t.step(
    "every source file the README and docs/ name is there",
    async () => {
      const missing: string[] = [];
      for (const doc of await listMarkdownDocs()) {
        const text = await readDoc(doc);
        for (const [path] of text.matchAll(SOURCE_PATH)) {
          if (EXAMPLE_PATHS.includes(path)) continue;
          try {
            await Deno.stat(new URL(path, ROOT));
          } catch {
            missing.push(`${doc}: ${path}`);
          }
        }
      }
      assert.deepEqual(missing, [], "a moved file: say where it went");
    },
  );

  await t.step(
    "a performance figure the README quotes is the one docs/PERFORMANCE.md holds",
    async () => {
      const performance = await readDoc("docs/PERFORMANCE.md");
      const figures = readme.match(
        /\d[\d,.]*\s?(?:ms|µs|s|req\/s|MiB|MB|KB|×)(?![\w/])/g,
      ) ?? [];
      const unknown = figures.filter((figure) => !performance.includes(figure));
      assert.deepEqual(
        unknown,
        [],
        "figures live in docs/PERFORMANCE.md: link there instead",
      );
    },
  );
});

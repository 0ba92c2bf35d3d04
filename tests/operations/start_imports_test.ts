/**
 * What loads before a fresh instance's first answer (scale to zero: every
 * module main.ts imports statically is paid by the first visitor after a
 * quiet spell, docs/PERFORMANCE.md "Cold start"): none of the heavy
 * packages that only some routes need. They load with `import()` when a
 * route, the chat or a card first needs them.
 */
import assert from "node:assert/strict";
import { ROOT } from "../service_process.ts";

interface GraphModule {
  specifier: string;
  dependencies?: {
    isDynamic?: boolean;
    code?: { specifier: string };
  }[];
}

/** Packages a first `/healthz` or page never needs (and what needs them). */
const DEFERRED = [
  "satori", // share cards (render worker)
  "@resvg/resvg-wasm", // share cards
  "@observablehq/plot", // staff dashboard charts
  "linkedom", // staff dashboard charts
  "pdfkit", // posters, PDFs
  "svg-to-pdfkit",
  "unpdf",
  "exceljs", // staff exports
  "openai", // the chat
  "libphonenumber-js", // the chat's masking of unanswered questions
  "@hono/zod-openapi", // the API's contract
  "zod", // the API's and the data set's schemas (the environment has its own readers)
  "opening_hours", // opening hours: attraction pages, the chat, the schema
  "markdown-it",
  "qrcode",
  "oidc-provider",
];

/** npm packages (and package subpaths, `hono/deno`) reachable from `entry` by static imports alone. */
async function staticPackages(entry: string): Promise<Set<string>> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stderr: "inherit",
  }).output();
  assert.ok(success, `deno info ${entry}`);
  const { roots, modules } = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: GraphModule[];
  };
  const bySpecifier = new Map(modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const packages = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    const npm = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)(?:@[^/]*)?(\/.*)?$/.exec(
      specifier,
    );
    if (npm) packages.add(npm[1]);
    if (npm?.[2]) packages.add(`${npm[1]}${npm[2]}`);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code?.specifier) stack.push(dep.code.specifier);
    }
  }
  return packages;
}

Deno.test("start-up imports", async (t) => {
  const packages = await staticPackages("main.ts");

  await t.step(
    "main.ts loads none of the heavy packages before the first answer",
    () => {
      assert.deepEqual(DEFERRED.filter((name) => packages.has(name)), []);
    },
  );

  await t.step("the walk sees main.ts's own packages (hono)", () => {
    assert.ok(packages.has("hono"), [...packages].join(", "));
    assert.ok(packages.has("intl-messageformat"), [...packages].join(", "));
  });

  await t.step(
    "the public pages a first visitor opens load no zod either, nor hono/deno",
    async () => {
      for (
        const page of [
          "routes/index.tsx",
          "routes/ruta/[code].tsx",
          "routes/turismo/atractivos/index.tsx",
          "routes/turismo/atractivos/[slug].tsx",
        ]
      ) {
        const loaded = await staticPackages(page);
        assert.ok(loaded.has("preact"), page);
        assert.equal(loaded.has("zod"), false, `${page} loads zod`);
        // Its static files, SSG and WebSocket helpers: 11 ms on a first page.
        assert.equal(loaded.has("hono/deno"), false, `${page} loads hono/deno`);
      }
    },
  );
});

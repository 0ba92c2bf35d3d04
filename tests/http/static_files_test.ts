/**
 * `/static/*` answers a path out of `static/`, however it is spelled
 * (encoded slashes and dots, backslashes, NUL, broken escapes), with the
 * 404 page, and never opens a file outside `static/` to find out: every
 * file the service opens while answering them is watched.
 */
import assert from "node:assert/strict";
import { STATIC_DIR } from "@/lib/pages/assets.ts";
import { createTestContext } from "../test_utils.ts";

const ROOT = STATIC_DIR.slice(0, -"/static".length);

/** Paths that lead out of static/ if decoded naively. */
const ESCAPES = [
  "/static/../deno.json",
  "/static/..%2f..%2fdeno.json",
  "/static/..%2Fdeno.json",
  "/static/%2e%2e%2fdeno.json",
  "/static/%2e%2e/deno.json",
  "/static/.%2e/deno.json",
  "/static/build/..%2f..%2fdeno.json",
  "/static/build/%2e%2e/%2e%2e/deno.json",
  "/static/..%5cdeno.json",
  "/static/..\\deno.json",
  "/static/%252e%252e/deno.json",
  "/static/%c0%ae%c0%ae/deno.json",
  "/static/..%00/deno.json",
  "/static/a%00b",
  "/static/%00",
  "/static/%zz",
  "/static/%",
  "/static//deno.json",
  `/static/${encodeURIComponent(`${ROOT}/deno.json`)}`,
  "/static/%2fetc%2fpasswd",
  `/static/${"9".repeat(300)}`,
];

/**
 * Records every path the service opens or stats (Deno.open and
 * Deno.lstatSync, which hono's static files read), until disposed. Set
 * before the first `/static` request: hono's Deno adapter takes them when
 * it is imported.
 */
function watchFiles(): { paths: string[] } & Disposable {
  const { open, lstatSync } = Deno;
  const paths: string[] = [];
  Deno.open = (path, options) => {
    paths.push(String(path));
    return open(path, options);
  };
  Deno.lstatSync = (path) => {
    paths.push(String(path));
    return lstatSync(path);
  };
  return {
    paths,
    [Symbol.dispose]() {
      Deno.open = open;
      Deno.lstatSync = lstatSync;
    },
  };
}

Deno.test("GET /static/* out of static/", async (t) => {
  using files = watchFiles();
  await using ctx = await createTestContext();
  const deno = await Deno.readTextFile(`${ROOT}/deno.json`);

  await t.step("a file in static/ is served (and seen opened)", async () => {
    const res = await ctx.app.request("/static/styles.css");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/css/);
    await res.body?.cancel();
    assert.ok(files.paths.includes(`${STATIC_DIR}/styles.css`));
  });

  for (const path of ESCAPES) {
    await t.step(
      `${path} is the 404 page, read from static/ at most`,
      async () => {
        files.paths.length = 0;
        const res = await ctx.app.request(path);
        assert.equal(res.status, 404);
        assert.match(res.headers.get("content-type")!, /^text\/html/);
        const body = await res.text();
        assert.ok(!body.includes('"imports"'), "no deno.json");
        assert.ok(!body.includes(deno.slice(0, 40)), "no deno.json");
        for (const opened of files.paths) {
          assert.ok(
            opened.startsWith(`${STATIC_DIR}/`) && !opened.includes(".."),
            `opened ${JSON.stringify(opened)}`,
          );
        }
      },
    );
  }
});

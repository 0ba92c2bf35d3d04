import assert from "node:assert/strict";
import { Resvg } from "@resvg/resvg-wasm";
import jsQRModule from "jsqr";
import { initResvg } from "@/lib/og/resvg.ts";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { openKv } from "@/lib/db/kv.ts";
import { replaceGuideCode } from "@/lib/passport/guide_codes.ts";
import { createWorkdir } from "@/tests/service_process.ts";
import { createTestContext } from "@/tests/test_utils.ts";

// jsqr is CommonJS: its module.exports is the function its types call `default`.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;
const ROOT = new URL("../", import.meta.url);
const SCRIPT = new URL("scripts/posters.ts", ROOT).pathname;
const BASE = "https://turismo.ejemplo.gob.mx";

interface RawAttraction {
  slug: string;
  name: string;
  guideCode: string;
}
const { attractions } = JSON.parse(
  await Deno.readTextFile(new URL("data/turismo.json", ROOT)),
) as { attractions: RawAttraction[] };

/**
 * Runs the task as `deno task posters` would, without the developer's env,
 * in `cwd`: a fresh checkout's layout (`createWorkdir`), never this working
 * copy, whose `./state/turismo.kv` may hold codes replaced in the console.
 */
async function runPosters(
  args: string[],
  { cwd, env: extraEnv = {} }: { cwd: string; env?: Record<string, string> },
) {
  const env: Record<string, string> = { DENO_NO_UPDATE_CHECK: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-A", SCRIPT, ...args],
    cwd,
    clearEnv: true,
    env: { ...env, ...extraEnv },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

const xml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&apos;");

/** Rasterises a poster (no fonts: only shapes) and reads its QR back. */
function readQr(svg: string): string | undefined {
  const resvg = new Resvg(svg, { fitTo: { mode: "width", value: 1000 } });
  const image = resvg.render();
  const pixels = new Uint8ClampedArray(image.pixels);
  const found = jsQR(pixels, image.width, image.height, {
    inversionAttempts: "dontInvert",
  });
  image.free();
  resvg.free();
  return found?.data;
}

Deno.test("posters: one per attraction, each QR holds its link and code", async () => {
  await initResvg();
  const dir = await createWorkdir("posters_test_");
  const out = `${dir}/posters`;
  try {
    const run = await runPosters(["--base-url", BASE, "--out", out], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(
        `^Wrote ${attractions.length} posters .*the data set's codes \\(no KV file\\)`,
      ),
    );

    assert.equal(attractions.length, 17);
    for (const { slug, name, guideCode } of attractions) {
      const svg = await Deno.readTextFile(`${out}/${slug}.svg`);
      const code = guideCode.toUpperCase();
      assert.equal(
        readQr(svg),
        `${BASE}/turismo/atractivos/${slug}?codigo=${code}`,
        `QR of ${slug}`,
      );
      // A long name is wrapped onto consecutive <text> lines.
      const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
        .map((m) => m[1]).join(" ");
      assert.ok(texts.includes(xml(name)), `name of ${slug}`);
      assert.ok(svg.includes(`>${code}</text>`), `code of ${slug}`);
    }

    const html = await Deno.readTextFile(`${out}/index.html`);
    assert.equal(html.match(/<img /g)?.length, attractions.length);
    for (const { slug } of attractions) {
      assert.ok(html.includes(`src="${slug}.svg"`), `index links ${slug}`);
    }
    assert.match(html, /break-after: page/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("posters: without KV_PATH, a code replaced in the console (./state/turismo.kv) wins", async () => {
  await initResvg();
  const dir = await createWorkdir("posters_test_");
  const out = `${dir}/posters`;
  try {
    const loaded = await loadTourismData(`${dir}/data/turismo.json`);
    const [plaza, second] = attractions;
    let code: string;
    {
      await using kv = await openKv(`${dir}/state/turismo.kv`);
      ({ code } = await replaceGuideCode({
        kv,
        data: { current: () => loaded },
        now: () => new Date(),
      }, {
        slug: plaza.slug,
        graceDays: 0,
        staff: { id: "ana@ejemplo.mx", email: "ana@ejemplo.mx", role: "admin" },
      }));
    }
    const run = await runPosters(["--base-url", BASE, "--out", out], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /with codes from KV \.\/state\/turismo\.kv;/);
    const svg = await Deno.readTextFile(`${out}/${plaza.slug}.svg`);
    assert.equal(
      readQr(svg),
      `${BASE}/turismo/atractivos/${plaza.slug}?codigo=${code}`,
    );
    const other = await Deno.readTextFile(`${out}/${second.slug}.svg`);
    assert.ok(other.includes(`>${second.guideCode.toUpperCase()}</text>`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("posters: refuses to guess the base URL, in one line", async () => {
  const dir = await createWorkdir("posters_test_");
  const out = `${dir}/posters`;
  await Deno.mkdir(out);
  try {
    const envs: Record<string, string>[] = [
      {},
      { BASE_URL: "http://localhost:8000" },
    ];
    for (const env of envs) {
      const run = await runPosters(["--out", out], { cwd: dir, env });
      assert.equal(run.code, 2, JSON.stringify(env));
      assert.equal(run.stdout, "");
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      assert.match(run.stderr, /https/);
    }
    assert.deepEqual(await Array.fromAsync(Deno.readDir(out)), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("posters: no route serves them", async () => {
  await using ctx = await createTestContext();
  for (
    const path of [
      "/posters/plaza-principal.svg",
      "/posters/index.html",
      "/posters/",
    ]
  ) {
    const res = await ctx.app.request(path);
    assert.equal(res.status, 404, path);
    await res.body?.cancel();
  }
});

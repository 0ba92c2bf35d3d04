/**
 * Builds the browser side of the pages into `static/build/` (git-ignored):
 *
 * - the islands: a generated entry that hydrates every `islands/*.tsx`,
 *   bundled by `deno bundle --platform browser --minify --code-splitting`, so
 *   each island (and markdown-it, loaded when the chat opens) is its own
 *   chunk and a page downloads only what it shows;
 * - the Inter font files from `@fontsource/inter` (served by us: no font
 *   CDN), under content-hashed names;
 * - `static/styles.css`, pointed at those names, minified by `deno bundle`
 *   (esbuild) and written under a content-hashed name; Leaflet's stylesheet
 *   beside it (`leaflet-<hash>.css`, served by us: no map CDN), which the
 *   map island links when it draws a map;
 * - the app icons, drawn from the data set's logo (`icons/`), and the
 *   service worker (client/service_worker.ts) with its precache list of the
 *   files above, served at `/sw.js` (docs/OFFLINE.md);
 * - beside every text file of 1 KB or more, its gzip (`.gz`) and brotli
 *   (`.br`) forms, which the static route serves to clients that accept them;
 * - `manifest.json`: the hashed names the pages link to, each island's chunks
 *   (for `modulepreload`) and the font to `preload`.
 *
 * `deno task build` builds; `--if-stale` builds only when a source is newer
 * than the last build (what `deno task start` runs); `--watch` rebuilds on
 * change (what `deno task dev` runs beside the server).
 */
import {
  type AssetManifest,
  BUILD_DIR,
  MANIFEST_PATH,
  STATIC_DIR,
} from "@/lib/pages/mod.ts";

import {
  DataError,
  DEFAULT_DATA_PATH,
  ensureCheckedData,
  type LoadedData,
  loadTourismData,
} from "@/lib/data/mod.ts";
import { drawPageCards } from "@/lib/og/mod.ts";
import { APP_ICONS, drawAppIcon } from "@/lib/icons/mod.ts";

/** The repository (this file is scripts/build.ts). */
const ROOT = import.meta.dirname!.slice(0, -"/scripts".length);
const ISLANDS_DIR = `${ROOT}/islands`;

/**
 * The Inter files the site serves, and their licence, imported when a
 * build runs: `deno task start` runs `--if-stale` before every start, and
 * a fresh build's check should cost no more than the look at the sources.
 */
async function loadFonts(): Promise<
  { fonts: Record<string, Uint8Array>; license: string }
> {
  const bytes = { with: { type: "bytes" } } as const;
  const files = await Promise.all([
    import("@fontsource/inter/files/inter-latin-400-normal.woff2", bytes),
    import("@fontsource/inter/files/inter-latin-600-normal.woff2", bytes),
    import("@fontsource/inter/files/inter-latin-700-normal.woff2", bytes),
    import("@fontsource/inter/files/inter-latin-ext-400-normal.woff2", bytes),
    import("@fontsource/inter/files/inter-latin-ext-600-normal.woff2", bytes),
    import("@fontsource/inter/files/inter-latin-ext-700-normal.woff2", bytes),
  ]);
  const { default: license } = await import("@fontsource/inter/LICENSE", {
    with: { type: "text" },
  });
  const names = [
    "inter-latin-400-normal.woff2",
    "inter-latin-600-normal.woff2",
    "inter-latin-700-normal.woff2",
    "inter-latin-ext-400-normal.woff2",
    "inter-latin-ext-600-normal.woff2",
    "inter-latin-ext-700-normal.woff2",
  ];
  return {
    fonts: Object.fromEntries(names.map((name, i) => [name, files[i].default])),
    license,
  };
}
/**
 * Leaflet's stylesheet, minified, for the map island. Its images (the
 * default marker, the layers control) are not used, the maps draw their own
 * markers, so their `url()`s are dropped rather than served.
 */
async function loadMapStyles(): Promise<string> {
  const { default: css } = await import("leaflet/dist/leaflet.css", {
    with: { type: "text" },
  });
  return await minifyCss(
    css.replace(/url\(images\/[^)]+\)/g, "none")
      .replace(/behavior:\s*url\(#default#VML\);?/g, ""),
  );
}

/** The face most text is set in: preloaded, so it is not discovered late. */
const BODY_FONT = "inter-latin-400-normal.woff2";
/** Smaller text files gain nothing from compression. */
const COMPRESS_MIN_BYTES = 1024;

/** Sources whose change calls for a new build. */
const SOURCES = [
  "islands",
  "client",
  "components",
  "lib",
  "static/styles.css",
  "scripts/build.ts",
  // The page cards show the data set and the cards' words.
  "data",
  "locales",
  "deno.json",
  "deno.lock",
];

/** One file the build wrote, with its sizes. */
export interface BuiltFile {
  path: string;
  bytes: number;
  /** Size of its `.gz` form; `null` when none was written. */
  gzipBytes: number | null;
  brotliBytes: number | null;
}

/** Builds everything; returns the files written and the manifest. */
export async function build(): Promise<
  { files: BuiltFile[]; manifest: AssetManifest; ms: number }
> {
  const started = performance.now();
  const startedAt = Date.now();
  await Deno.mkdir(`${BUILD_DIR}/fonts`, { recursive: true });
  await Deno.mkdir(`${BUILD_DIR}/og`, { recursive: true });
  const written = new Set<string>();
  const write = async (name: string, content: Uint8Array | string) => {
    await writeAtomically(`${BUILD_DIR}/${name}`, content);
    written.add(name);
  };

  const islands = await bundleIslands(write);

  const { fonts, license } = await loadFonts();
  const fontNames = new Map<string, string>();
  for (const [name, bytes] of Object.entries(fonts)) {
    const hashed = name.replace(/\.woff2$/, `-${await hash(bytes)}.woff2`);
    await write(`fonts/${hashed}`, bytes);
    fontNames.set(name, hashed);
  }
  await write("fonts/LICENSE.txt", license);

  const css = await minifyCss(
    (await Deno.readTextFile(`${STATIC_DIR}/styles.css`)).replace(
      /\.\/fonts\/([\w-]+\.woff2)/g,
      (_path, name: string) => {
        const hashed = fontNames.get(name);
        if (!hashed) {
          throw new Error(`styles.css names an unknown font ${name}`);
        }
        return `./fonts/${hashed}`;
      },
    ),
  );
  const stylesName = `styles-${await hash(css)}.css`;
  await write(stylesName, css);
  const mapCss = await loadMapStyles();
  const mapStylesName = `leaflet-${await hash(mapCss)}.css`;
  await write(mapStylesName, mapCss);

  const loaded = await loadDataSet();
  if (loaded) await drawDataSetCards(loaded, write);
  const icons = loaded ? await drawIcons(loaded, write) : [];
  const precache = await listPrecache(written);
  const serviceWorker = await bundleServiceWorker(precache.entries, write);

  const manifest: AssetManifest = {
    client: `/static/build/${islands.client}`,
    clientImports: islands.clientImports.map((name) => `/static/build/${name}`),
    islands: Object.fromEntries(
      Object.entries(islands.chunks).map((
        [island, names],
      ) => [island, names.map((name) => `/static/build/${name}`)]),
    ),
    styles: `/static/build/${stylesName}`,
    mapStyles: `/static/build/${mapStylesName}`,
    font: `/static/build/fonts/${fontNames.get(BODY_FONT)}`,
    serviceWorker: `/static/build/${serviceWorker}`,
    icons: icons.map(({ name, size, purpose }) => ({
      src: `/static/build/${name}`,
      size,
      purpose,
    })),
    ...(loaded && {
      iconsFrom: {
        logoSvg: loaded.data.branding.logoSvg,
        background: loaded.data.branding.colors.background,
      },
    }),
    precacheBytes: precache.bytes,
  };

  const files: BuiltFile[] = [];
  for (const name of [...written].sort()) {
    const bytes = await Deno.readFile(`${BUILD_DIR}/${name}`);
    const compressed = await writeCompressed(name, bytes, write);
    files.push({
      path: `static/build/${name}`,
      bytes: bytes.byteLength,
      ...compressed,
    });
  }
  await writeAtomically(MANIFEST_PATH, JSON.stringify(manifest, null, 2));
  await removeStaleFiles(written, startedAt);
  return { files, manifest, ms: performance.now() - started };
}

/**
 * The data set the service will load (`TOURISM_DATA`); null when it is
 * invalid (the check after the build says why; the service would not start
 * on it), and then no page card or icon is drawn.
 */
async function loadDataSet(): Promise<LoadedData | null> {
  const path = Deno.env.get("TOURISM_DATA") || DEFAULT_DATA_PATH;
  try {
    return await loadTourismData(path);
  } catch (error) {
    if (error instanceof DataError) return null;
    throw error;
  }
}

/**
 * Draws the public pages' share cards of the data set, every language, into
 * `og/`: the service serves them without loading the renderer.
 */
async function drawDataSetCards(
  loaded: LoadedData,
  write: (name: string, content: Uint8Array) => Promise<void>,
): Promise<void> {
  for (const { name, png } of await drawPageCards(loaded)) {
    await write(name, png);
  }
}

/** The app icons the web app manifests name, drawn from the data set's logo. */
/** Draws the app icons into `icons/` from the data set's logo (lib/icons/). */
async function drawIcons(
  loaded: LoadedData,
  write: (name: string, content: Uint8Array) => Promise<void>,
): Promise<{ name: string; size: number; purpose: string }[]> {
  await Deno.mkdir(`${BUILD_DIR}/icons`, { recursive: true });
  const out = [];
  for (const { size, purpose } of APP_ICONS) {
    const png = await drawAppIcon(loaded.data.branding, size, purpose);
    const name = `icons/${purpose}-${size}-${await hash(png)}.png`;
    await write(name, png);
    out.push({ name, size, purpose });
  }
  return out;
}

/**
 * The service worker's precache: every file a page may need offline, by its
 * hashed name (so no revision): the islands' chunks, the stylesheet, the
 * fonts and the icons, Leaflet's chunk and stylesheet among them (with no
 * signal a kept page's map still draws its markers, and says it needs a
 * connection for the streets, rather than failing to load). Not the chat's
 * Markdown chunk (the chat needs the network anyway) nor the share cards
 * (for link previews, not pages).
 * Over {@linkcode PRECACHE_LIMIT_BYTES} fails the build.
 */
async function listPrecache(
  written: Set<string>,
): Promise<{ entries: { url: string; revision: null }[]; bytes: number }> {
  const names = [...written].filter((name) =>
    /\.(?:js|css|woff2|png)$/.test(name) && !name.startsWith("og/") &&
    !/^(?:markdown|sw)-/.test(name)
  ).sort();
  let bytes = 0;
  for (const name of names) {
    bytes += (await Deno.stat(`${BUILD_DIR}/${name}`)).size;
  }
  if (bytes > PRECACHE_LIMIT_BYTES) {
    throw new Error(
      `the service worker's precache is ${formatKb(bytes)}, over its ${
        formatKb(PRECACHE_LIMIT_BYTES)
      } budget: ${names.join(", ")}`,
    );
  }
  return {
    entries: names.map((name) => ({
      url: `/static/build/${name}`,
      revision: null,
    })),
    bytes,
  };
}

/** The precache's budget (issue 32): what a first visit makes a phone keep. */
export const PRECACHE_LIMIT_BYTES = 1_000_000;

/**
 * Bundles client/service_worker.ts (Workbox and the check-in queue in one
 * classic script) with the precache list in place of `self.__WB_MANIFEST`,
 * as Workbox's injectManifest does; returns its hashed name. `/sw.js`
 * serves it after the data set's part (routes/sw.js.ts).
 */
async function bundleServiceWorker(
  precache: { url: string; revision: null }[],
  write: (name: string, content: Uint8Array) => Promise<void>,
): Promise<string> {
  const temp = await Deno.makeTempDir({ prefix: "turismo-sw-" });
  try {
    await runDenoBundle("service worker", [
      "--config",
      `${ROOT}/deno.json`,
      "--platform",
      "browser",
      "--format",
      "iife",
      "--minify",
      "--output",
      `${temp}/sw.js`,
      `${ROOT}/client/service_worker.ts`,
    ]);
    const source = await Deno.readTextFile(`${temp}/sw.js`);
    const parts = source.split("self.__WB_MANIFEST");
    if (parts.length !== 2) {
      throw new Error("the service worker names self.__WB_MANIFEST once");
    }
    const bytes = new TextEncoder().encode(
      parts.join(JSON.stringify(precache)),
    );
    const name = `sw-${await hash(bytes)}.js`;
    await write(name, bytes);
    return name;
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}

/**
 * Writes `name.gz` and `name.br` beside a text file of at least
 * {@linkcode COMPRESS_MIN_BYTES} (fonts and images are compressed already),
 * at the slowest, smallest settings: it happens once per build.
 */
async function writeCompressed(
  name: string,
  bytes: Uint8Array,
  write: (name: string, content: Uint8Array) => Promise<void>,
): Promise<{ gzipBytes: number | null; brotliBytes: number | null }> {
  if (!/\.(?:js|css|svg|json|txt)$/.test(name)) {
    return { gzipBytes: null, brotliBytes: null };
  }
  if (bytes.byteLength < COMPRESS_MIN_BYTES) {
    return { gzipBytes: null, brotliBytes: null };
  }
  const { brotliCompressSync, constants, gzipSync } = await import("node:zlib");
  const gzip = gzipSync(bytes, { level: 9 });
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  });
  await write(`${name}.gz`, gzip);
  await write(`${name}.br`, brotli);
  return { gzipBytes: gzip.byteLength, brotliBytes: brotli.byteLength };
}

/** Runs `deno bundle --quiet <args>` in `cwd`; a failure throws with its output, naming `what`. */
async function runDenoBundle(
  what: string,
  args: string[],
  cwd: string = ROOT,
): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (code !== 0) {
    throw new Error(
      `deno bundle (${what}) failed:\n${new TextDecoder().decode(stderr)}`,
    );
  }
}

/**
 * Minifies the stylesheet with `deno bundle` (esbuild's CSS minifier); the
 * font URLs stay as written.
 */
async function minifyCss(css: string): Promise<string> {
  const temp = await Deno.makeTempDir({ prefix: "turismo-css-" });
  try {
    await Deno.writeTextFile(`${temp}/styles.css`, css);
    await runDenoBundle("CSS", [
      "--minify",
      "--external",
      "./fonts/*",
      "--outdir",
      `${temp}/out`,
      `${temp}/styles.css`,
    ], temp);
    return await Deno.readTextFile(`${temp}/out/styles.css`);
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}

/** The islands bundle: file names under `static/build/`. */
interface IslandsBundle {
  /** The entry (hydrates the islands on the page). */
  client: string;
  /** What the entry imports statically, transitively. */
  clientImports: string[];
  /** Each island's chunk and what it imports statically, transitively. */
  chunks: Record<string, string[]>;
}

/**
 * Bundles the generated islands entry; writes its chunks and returns their
 * names and import graph.
 */
async function bundleIslands(
  write: (name: string, content: Uint8Array) => Promise<void>,
): Promise<IslandsBundle> {
  const islands: string[] = [];
  for await (const entry of Deno.readDir(ISLANDS_DIR)) {
    const match = /^([A-Z][A-Za-z0-9]*)\.tsx$/.exec(entry.name);
    if (entry.isFile && match) islands.push(match[1]);
  }
  islands.sort();
  const temp = await Deno.makeTempDir({ prefix: "turismo-build-" });
  try {
    const entry = `${temp}/client.ts`;
    const url = (path: string) => new URL(path, `file://${ROOT}/`).href;
    await Deno.writeTextFile(
      entry,
      `// Generated by scripts/build.ts: one lazy chunk per island.
import { hydrateIslands } from ${JSON.stringify(url("client/hydrate.ts"))};
import { startOffline } from ${JSON.stringify(url("client/offline.ts"))};
import { hideStaleHours } from ${JSON.stringify(url("client/stale_hours.ts"))};
startOffline();
hideStaleHours();
hydrateIslands({
${
        islands.map((name) =>
          `  ${JSON.stringify(name)}: () => import(${
            JSON.stringify(url(`islands/${name}.tsx`))
          }),`
        ).join("\n")
      }
});
`,
    );
    const out = `${temp}/out`;
    await runDenoBundle("islands", [
      "--config",
      `${ROOT}/deno.json`,
      "--platform",
      "browser",
      "--format",
      "esm",
      "--minify",
      "--code-splitting",
      "--outdir",
      out,
      entry,
    ]);
    let clientName = "";
    const sources = new Map<string, string>();
    for await (const file of Deno.readDir(out)) {
      const bytes = await Deno.readFile(`${out}/${file.name}`);
      sources.set(file.name, new TextDecoder().decode(bytes));
      if (file.name === "client.js") {
        // The entry is the only unhashed output; chunks are named by content.
        clientName = `client-${await hash(bytes)}.js`;
        await write(clientName, bytes);
      } else {
        await write(file.name, bytes);
      }
    }
    if (!clientName) throw new Error("deno bundle wrote no client.js");
    return readImportGraph(sources, islands, clientName);
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}

/**
 * Reads esbuild's minified output for what to preload: the entry's static
 * imports (`import"./chunk-X.js"`, `from"./chunk-X.js"`), and for each
 * island the chunk its `Name:()=>import("./Name-X.js")` loads, with that
 * chunk's static imports. An island missing from the entry fails the build
 * rather than leaving a page without its preload.
 */
function readImportGraph(
  sources: Map<string, string>,
  islands: string[],
  clientName: string,
): IslandsBundle {
  const staticImports = (file: string): string[] =>
    [...(sources.get(file) ?? "").matchAll(/(?:import|from)"\.\/([^"]+\.js)"/g)]
      .map((m) => m[1]);
  const closure = (file: string): string[] => {
    const seen = new Set<string>();
    const visit = (name: string) => {
      for (const next of staticImports(name)) {
        if (!seen.has(next)) {
          seen.add(next);
          visit(next);
        }
      }
    };
    visit(file);
    return [...seen].sort();
  };
  const entry = sources.get("client.js") ?? "";
  const chunks: Record<string, string[]> = {};
  for (const island of islands) {
    const chunk = new RegExp(
      `\\b${island}:\\(\\)=>import\\("\\./([^"]+\\.js)"\\)`,
    ).exec(entry)?.[1];
    if (!chunk || !sources.has(chunk)) {
      throw new Error(`the islands entry does not load ${island} as expected`);
    }
    chunks[island] = [chunk, ...closure(chunk)];
  }
  return { client: clientName, clientImports: closure("client.js"), chunks };
}

/** Whether a source is newer than the last build (or there is none). */
export async function isBuildStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(MANIFEST_PATH)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  for (const source of SOURCES) {
    if (await newestMtime(`${ROOT}/${source}`) > built) return true;
  }
  return false;
}

/**
 * Builds when stale; `deno task start`, `deno task test` (once, before the
 * tests) and the browser tests call this. Several processes may ask at
 * once (a service starting beside a test run, a test file run on its
 * own): they take turns on a lock file, and the later ones find the build
 * fresh and leave it alone, so a page never names a chunk that another
 * build is rewriting.
 */
export async function ensureBuild(): Promise<boolean> {
  return await withBuildLock(async () => {
    if (!(await isBuildStale())) return false;
    await build();
    return true;
  });
}

/** Beside `static/build/`, not in it: the build clears that folder. */
const LOCK_PATH = `${BUILD_DIR}.lock`;

/** Runs `fn` while holding the build's exclusive lock (an advisory file lock, released if the process dies). */
async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  using lock = await Deno.open(LOCK_PATH, { create: true, write: true });
  await lock.lock(true);
  return await fn();
}

async function newestMtime(path: string): Promise<number> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory) return info.mtime?.getTime() ?? 0;
  let newest = info.mtime?.getTime() ?? 0;
  for await (const entry of Deno.readDir(path)) {
    newest = Math.max(newest, await newestMtime(`${path}/${entry.name}`));
  }
  return newest;
}

/** Writes beside the target, then renames: a reader never sees half a file. */
async function writeAtomically(path: string, content: Uint8Array | string) {
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  if (typeof content === "string") await Deno.writeTextFile(temp, content);
  else await Deno.writeFile(temp, content);
  await Deno.rename(temp, path);
}

/**
 * Removes earlier builds' files. Files written since this build began are
 * kept, so a concurrent build (parallel tests) never loses its own files.
 */
async function removeStaleFiles(keep: Set<string>, startedAt: number) {
  for (const dir of ["", "fonts/", "og/", "icons/"]) {
    for await (const entry of Deno.readDir(`${BUILD_DIR}/${dir}`)) {
      const name = `${dir}${entry.name}`;
      if (!entry.isFile || keep.has(name) || name === "manifest.json") continue;
      const path = `${BUILD_DIR}/${name}`;
      const mtime = (await Deno.stat(path)).mtime?.getTime() ?? 0;
      if (mtime < startedAt) await Deno.remove(path).catch(() => {});
    }
  }
}

/** 8 characters of the content's SHA-256, for cache-busting file names. */
async function hash(content: Uint8Array | string): Promise<string> {
  const bytes = typeof content === "string"
    ? new TextEncoder().encode(content)
    : content;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  return Array.from(digest.slice(0, 8), (b) => alphabet[b % 32]).join("");
}

function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function buildAndReport(): Promise<void> {
  const { files, ms } = await build();
  const cards = files.filter((f) => f.path.includes("/og/"));
  for (
    const file of files.filter((f) =>
      !f.path.includes("/fonts/") && !f.path.includes("/og/")
    )
  ) {
    const compressed = file.gzipBytes === null
      ? ""
      : ` (${formatKb(file.gzipBytes)} gzip, ${
        formatKb(file.brotliBytes!)
      } brotli)`;
    console.info(
      `  ${file.path.padEnd(44)} ${
        formatKb(file.bytes).padStart(9)
      }${compressed}`,
    );
  }
  console.info(
    `  static/build/og/: ${cards.length} page cards, ${
      formatKb(cards.reduce((sum, f) => sum + f.bytes, 0))
    }`,
  );
  console.info(`Built static/build/ in ${Math.round(ms)} ms`);
}

async function watch(): Promise<never> {
  const watcher = Deno.watchFs(
    ["islands", "components", "client", "lib", "static/styles.css"].map((p) =>
      `${ROOT}/${p}`
    ),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  console.info(
    "Watching islands/, components/, client/, lib/ and static/styles.css",
  );
  for await (const _event of watcher) {
    clearTimeout(timer);
    timer = setTimeout(() => {
      withBuildLock(buildAndReport).catch((error) =>
        console.error(error.message)
      );
    }, 150);
  }
  throw new Error("watcher closed");
}

/**
 * Validates the data set the service will load (`TOURISM_DATA`) and keeps
 * the result in build/checked-data/, so a start need not validate the same
 * bytes again (lib/data/tourism_data.ts). `strict`: an invalid data set
 * fails the build (a deployment would not start); otherwise it is left to
 * the service, which refuses to start on it in one line of its own.
 */
async function checkDataSet({ strict }: { strict: boolean }): Promise<void> {
  const path = Deno.env.get("TOURISM_DATA") || DEFAULT_DATA_PATH;
  try {
    const started = performance.now();
    if (await withBuildLock(() => ensureCheckedData(path))) {
      console.info(
        `Checked ${path} in ${Math.round(performance.now() - started)} ms`,
      );
    }
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    if (strict) {
      console.error(error.message);
      Deno.exit(1);
    }
  }
}

if (import.meta.main) {
  const args = new Set(Deno.args);
  if (args.has("--if-stale")) {
    const started = performance.now();
    const built = await ensureBuild();
    console.info(
      built
        ? `Built static/build/ in ${Math.round(performance.now() - started)} ms`
        : "static/build/ is up to date",
    );
    await checkDataSet({ strict: false });
  } else {
    await withBuildLock(buildAndReport);
    await checkDataSet({ strict: true });
  }
  if (args.has("--watch")) await watch();
}

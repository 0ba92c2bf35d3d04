/**
 * Printable QR posters for operators: `deno task posters [--base-url URL]
 * [--out DIR]` writes one A4 SVG per attraction (`<slug>.svg`) and an
 * `index.html` that prints them one per page (A4 or Letter). Each QR holds
 * `<BASE_URL>/turismo/atractivos/<slug>?codigo=<guide code>`, with the
 * attraction's current code: one an admin replaced in the staff console
 * (read from the service's KV: `KV_PATH`, or the default KV file when it
 * exists) wins over the data set's. Offline only: nothing here is served
 * over HTTP.
 */
import { parseArgs } from "node:util";
import {
  applyEnvFile,
  ConfigError,
  DEFAULT_KV_PATH,
} from "@/lib/config/mod.ts";
import { DataError, loadTourismData, localizeData } from "@/lib/data/mod.ts";
import { describeKvPath } from "@/lib/db/mod.ts";
import { listCurrentGuideCodes } from "@/lib/passport/mod.ts";
import {
  getPosterSecondLang,
  indexHtml,
  posterSvg,
  posterUrl,
} from "@/lib/posters/mod.ts";

export {
  escapeXml,
  indexHtml,
  type PosterInput,
  posterSvg,
  posterUrl,
} from "@/lib/posters/mod.ts";

/** The origin posters link to, or an error line to print. */
function resolveBaseUrl(
  flag: string | undefined,
  env: string | undefined,
): { url: string } | { error: string } {
  const value = flag ?? env;
  if (!value) {
    return {
      error:
        "posters: no base URL. Pass the portal's public https origin, e.g. `deno task posters --base-url https://turismo.example.gob.mx` (or set BASE_URL): a poster with a localhost link is useless.",
    };
  }
  const source = flag ? "--base-url" : "BASE_URL";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `posters: ${source} is not a URL: ${value}` };
  }
  const isOrigin = /^https?:\/\/[^/?#]+\/?$/.test(value);
  if (!isOrigin || !/^https?:$/.test(url.protocol)) {
    return {
      error:
        `posters: ${source} must be an origin like https://turismo.example.gob.mx, without a path: ${value}`,
    };
  }
  // http is only for trying it out, and only when asked for on the command line.
  if (url.protocol === "http:" && !flag) {
    return {
      error:
        `posters: BASE_URL is ${value}, not https; pass the portal's public https origin with --base-url (an http:// one there is accepted, for trying it out).`,
    };
  }
  return { url: url.origin };
}

/**
 * The KV the service writes replaced codes to: `KV_PATH` (a file or a KV
 * Connect URL; not `:memory:`), else the default file when it exists
 * (never created here).
 */
async function findKvPath(
  configured: string | undefined,
): Promise<string | undefined> {
  if (configured) return configured === ":memory:" ? undefined : configured;
  return await Deno.stat(DEFAULT_KV_PATH).then(
    () => DEFAULT_KV_PATH,
    () => undefined,
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "base-url": { type: "string" },
      out: { type: "string", default: "./posters/" },
      "env-file": { type: "string" },
    },
  });
  try {
    if (values["env-file"]) await applyEnvFile(values["env-file"]);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 2;
  }
  const base = resolveBaseUrl(values["base-url"], Deno.env.get("BASE_URL"));
  if ("error" in base) {
    console.error(base.error);
    return 2;
  }
  const dataPath = Deno.env.get("TOURISM_DATA") || "./data/turismo.json";
  let loaded;
  try {
    loaded = await loadTourismData(dataPath);
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    console.error(error.message);
    return 1;
  }
  const kvPath = await findKvPath(Deno.env.get("KV_PATH"));
  const kv = kvPath ? await Deno.openKv(kvPath) : undefined;
  let current;
  try {
    current = kv
      ? await listCurrentGuideCodes(kv, loaded, new Date())
      : undefined;
  } finally {
    kv?.close();
  }
  const codes = new Map(
    current?.map((a) => [a.slug, a.code]) ??
      [...loaded.slugByGuideCode].map(([code, slug]) => [slug, code]),
  );
  const { branding, municipality, attractions } = loaded.data;
  const place =
    `${municipality.name}, ${municipality.state}, ${municipality.country}`;

  const second = getPosterSecondLang();
  const secondNames = new Map(
    second
      ? localizeData(loaded.data, second).attractions.map((a) => [
        a.slug,
        a.name,
      ])
      : [],
  );
  const outDir = values.out.replace(/\/+$/, "") || ".";
  await Deno.mkdir(outDir, { recursive: true });
  for (const attraction of attractions) {
    const code = codes.get(attraction.slug)!;
    const svg = posterSvg({
      branding,
      place,
      name: attraction.name,
      code,
      url: posterUrl(base.url, attraction.slug, code),
      // Bilingual: the name under the Spanish one in the second language.
      second: second === undefined ? undefined : {
        lang: second,
        name: secondNames.get(attraction.slug) ?? attraction.name,
      },
    });
    await Deno.writeTextFile(`${outDir}/${attraction.slug}.svg`, svg);
  }
  await Deno.writeTextFile(
    `${outDir}/index.html`,
    indexHtml(branding.name, attractions),
  );
  const note = base.url.startsWith("http:")
    ? " (http: for trying out only)"
    : "";
  const source = kvPath
    ? `codes from ${describeKvPath(kvPath)}`
    : "the data set's codes (no KV file)";
  console.log(
    `Wrote ${attractions.length} posters to ${outDir}/ linking to ${base.url}${note}, with ${source}; print ${outDir}/index.html (A4 or Letter, one poster per page).`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main());

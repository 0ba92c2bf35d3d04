/**
 * The tourism data set: its types, and loading it. A file is validated by
 * its zod schema (tourism_data_schema.ts, imported only then) unless
 * `deno task build` already validated the very same bytes: the build
 * writes what validation returned to {@linkcode CHECKED_DATA_DIR}, named
 * by the file's SHA-256, and a start that finds it there skips building
 * the schemas and parsing (about 15 ms of every cold start). Any other
 * content, a data set edited since the build or one a test writes, is
 * validated in full, so what a request sees never depends on the build.
 */
import { sha256Hex } from "@/lib/crypto/sha256.ts";
import { normalizeGuideCode } from "./guide_code.ts";
import type { LatLng, RawTourismData } from "./tourism_data_schema.ts";

export type { LatLng, RawTourismData };

type RawAttraction = RawTourismData["attractions"][number];

/** An attraction as the public may see it: everything but its guide code. */
export type Attraction = Omit<RawAttraction, "guideCode">;
export type Provider = RawTourismData["providers"][number];
export type Branding = RawTourismData["branding"];
/** The privacy notice's responsible office and contact (`privacy`). */
export type PrivacyContact = RawTourismData["privacy"];

/** The data set without secrets: safe for pages, the chat prompt and responses. */
export type TourismData = Omit<RawTourismData, "attractions"> & {
  attractions: Attraction[];
};

/** A loaded data set: the public view, the secret guide codes, and a version. */
export interface LoadedData {
  data: TourismData;
  /** Attractions by slug. */
  attractionsBySlug: ReadonlyMap<string, Attraction>;
  /** Attraction slug by normalised guide code (see {@linkcode normalizeGuideCode}). */
  slugByGuideCode: ReadonlyMap<string, string>;
  /** The number of attractions: the denominator of completion and the top badge. */
  totalAttractions: number;
  /** A short content hash: changes whenever the file's content changes. */
  version: string;
}

/** A data set file that does not parse or validate; the message names the bad paths. */
export class DataError extends Error {
  override name = "DataError";
}

export { normalizeGuideCode };

/**
 * Where `deno task build` keeps the data sets it validated, by content
 * digest. Private (guide codes): not under `static/`.
 */
export const CHECKED_DATA_DIR = `${
  import.meta.dirname!.slice(0, -"/lib/data".length)
}/build/checked-data`;

/** Where checked data sets are looked for (tests bring a folder of their own). */
export interface CheckedDataOptions {
  checkedDir?: string;
}

/** The shape of a checked data set file; another format is ignored. */
const CHECKED_FORMAT = 1;

interface CheckedData {
  format: typeof CHECKED_FORMAT;
  /** The SHA-256 (hex) of the data set file's bytes. */
  digest: string;
  /** What validation returned for them. */
  data: RawTourismData;
}

/**
 * Validates a data set's JSON text (in full: see the module's comment) and
 * splits off the guide codes.
 */
export async function parseTourismData(
  json: string,
  source = "data set",
  { checkedDir = CHECKED_DATA_DIR }: CheckedDataOptions = {},
): Promise<LoadedData> {
  const digest = await sha256Hex(json);
  const checked = await readCheckedData(checkedDir, digest);
  return toLoadedData(checked ?? await validateJson(json, source), digest);
}

/** Reads and validates the data set file at `path`. */
export async function loadTourismData(
  path: string,
  options: CheckedDataOptions = {},
): Promise<LoadedData> {
  let json: string;
  try {
    json = await Deno.readTextFile(path);
  } catch (error) {
    throw new DataError(`${path}: cannot be read: ${(error as Error).message}`);
  }
  return await parseTourismData(json, path, options);
}

/** The data set the service loads when `TOURISM_DATA` is not set. */
export const DEFAULT_DATA_PATH = "./data/turismo.json";

/**
 * Makes sure {@linkcode CHECKED_DATA_DIR} holds the record of the data set
 * file at `path` as it is now: validates it and writes the record when
 * there is none (the build calls this), dropping the records of other
 * contents. Returns whether it wrote one. An invalid file is a
 * {@linkcode DataError}, and nothing is written.
 */
export async function ensureCheckedData(
  path: string,
  { checkedDir = CHECKED_DATA_DIR }: CheckedDataOptions = {},
): Promise<boolean> {
  let json: string;
  try {
    json = await Deno.readTextFile(path);
  } catch (error) {
    throw new DataError(`${path}: cannot be read: ${(error as Error).message}`);
  }
  const digest = await sha256Hex(json);
  if (await readCheckedData(checkedDir, digest)) return false;
  const data = await validateJson(json, path);
  await Deno.mkdir(checkedDir, { recursive: true });
  const name = `${digest}.json`;
  const temp = `${checkedDir}/${name}.${crypto.randomUUID()}.tmp`;
  const record: CheckedData = { format: CHECKED_FORMAT, digest, data };
  await Deno.writeTextFile(temp, JSON.stringify(record));
  await Deno.rename(temp, `${checkedDir}/${name}`);
  for await (const entry of Deno.readDir(checkedDir)) {
    if (entry.isFile && entry.name !== name) {
      await Deno.remove(`${checkedDir}/${entry.name}`).catch(() => {});
    }
  }
  return true;
}

/**
 * Validates a data set's JSON text (or finds the build's record of it):
 * what validation returned and the text's digest. An invalid one is a
 * {@linkcode DataError} naming the bad paths.
 */
export async function checkTourismDataText(
  json: string,
  source = "data set",
  { checkedDir = CHECKED_DATA_DIR }: CheckedDataOptions = {},
): Promise<{ data: RawTourismData; digest: string }> {
  const digest = await sha256Hex(json);
  const data = await readCheckedData(checkedDir, digest) ??
    await validateJson(json, source);
  return { data, digest };
}

async function validateJson(
  json: string,
  source: string,
): Promise<RawTourismData> {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new DataError(
      `${source}: not valid JSON: ${(error as Error).message}`,
    );
  }
  const { validateTourismData } = await import("./tourism_data_schema.ts");
  const result = validateTourismData(raw);
  if ("problems" in result) {
    throw new DataError(`${source} is invalid: ${result.problems.join("; ")}`);
  }
  return result.data;
}

/** The checked record of content `digest`, if the build left one. */
async function readCheckedData(
  dir: string,
  digest: string,
): Promise<RawTourismData | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/${digest}.json`);
  } catch {
    return undefined;
  }
  try {
    const record = JSON.parse(text) as Partial<CheckedData>;
    return record.format === CHECKED_FORMAT && record.digest === digest &&
        record.data
      ? record.data
      : undefined;
  } catch {
    return undefined; // cut short or garbled: validate instead
  }
}

/**
 * The loaded form of a validated data set (`raw`, as validation returned
 * it) whose text has SHA-256 `digest`: the guide codes split off.
 */
export function toLoadedData(
  raw: RawTourismData,
  digest: string,
): LoadedData {
  const slugByGuideCode = new Map<string, string>();
  const attractions = raw.attractions.map(({ guideCode, ...attraction }) => {
    slugByGuideCode.set(normalizeGuideCode(guideCode), attraction.slug);
    return attraction;
  });
  const data: TourismData = { ...raw, attractions };
  return {
    data,
    attractionsBySlug: new Map(attractions.map((a) => [a.slug, a])),
    slugByGuideCode,
    totalAttractions: attractions.length,
    version: digest.slice(0, 12),
  };
}

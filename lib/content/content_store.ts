/**
 * Where the portal's content comes from, chosen explicitly by
 * `CONTENT_SOURCE` (docs/OPERATIONS.md):
 *
 * - `kv` (the default): the content is published in KV from the console
 *   or `deno task content:import`, and every instance follows the
 *   published version (lib/db/content.ts): `kv.watch` on its pointer, and
 *   one read of it every {@linkcode CONTENT_POLL_MS} as the fallback for
 *   several processes on one KV file. A KV with no content yet is seeded
 *   from the data set file; after that the file is not read, and a start
 *   says so when it differs from what is published.
 * - `file`: the data set file is the content, re-read when it changes (an
 *   operator who keeps the content in git); the console shows it and
 *   edits nothing.
 */
import {
  checkTourismDataText,
  DataError,
  type LoadedData,
  type RawTourismData,
  toLoadedData,
} from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import {
  ContentConflictError,
  type ContentVersion,
  getPublishedContent,
  publishContent,
  type PublishedContent,
  readContentBody,
} from "@/lib/db/content.ts";
import { keys } from "@/lib/db/keys.ts";
import { type KeyWatcher, watchKey } from "@/lib/db/key_watch.ts";

/** Where the content lives: `CONTENT_SOURCE`. */
export type ContentSource = "kv" | "file";

/** How often an instance reads the published pointer itself (the fallback to `kv.watch`). */
export const CONTENT_POLL_MS = 500;

/** The content in force and what keeps it current. */
export interface OpenedContent {
  data: DataStore;
  source: ContentSource;
  /** Stops following the published version (or the file). */
  close(): Promise<void>;
}

/** What {@linkcode openContent} needs. */
export interface OpenContentOptions {
  source: ContentSource;
  /** The data set file: the content (`file`) or the seed of a new KV (`kv`). */
  path: string;
  /** No file watching on Deno Deploy (its files change only with a deployment). */
  onDeploy: boolean;
  /** Refuses a version that cannot be taken (a guide code another attraction holds). */
  check: (next: LoadedData) => Promise<void> | void;
  now: () => Date;
  pollMs?: number;
  log?: (line: string) => void;
}

/**
 * Loads the content in force and starts following it. With `kv`, a KV
 * that holds no content yet is seeded from the file in one atomic (of two
 * instances starting at once, one seeds and the other takes its version).
 * A data set that cannot be taken stops the start ({@linkcode DataError}).
 */
export async function openContent(
  kv: Deno.Kv,
  options: OpenContentOptions,
): Promise<OpenedContent> {
  const log = options.log ?? console.info;
  if (options.source === "file") {
    const data = await DataStore.open(options.path);
    await options.check(data.current());
    if (!options.onDeploy) data.watch({ check: options.check });
    return {
      data,
      source: "file",
      close() {
        data.close();
        return Promise.resolve();
      },
    };
  }

  let published = await getPublishedContent(kv);
  if (!published) {
    published = await seedFromFile(kv, options);
    log(
      `Content: KV had none; published ${options.path} (version ${
        published.version.digest.slice(0, 12)
      }) as its first version`,
    );
  } else {
    performance.mark("start: content pointer read");
    await sayWhetherFileDiffers(published.version, options, log);
    performance.mark("start: data set file compared");
  }
  const initial = await loadVersion(kv, published.version);
  performance.mark("start: content version read");
  await options.check(initial);
  performance.mark("start: guide codes checked");
  const data = new DataStore(initial);
  data.setCheck(options.check);

  // Reads of the pointer run one at a time; a change seen meanwhile reads again.
  let following: Promise<void> = Promise.resolve();
  const follow = () => {
    following = following.then(async () => {
      const next = await getPublishedContent(kv).catch(() => null);
      if (!next || next.version.digest.startsWith(data.current().version)) {
        return;
      }
      await data.adopt(() => loadVersion(kv, next.version));
    });
  };
  const watcher: KeyWatcher = watchKey(kv, keys.contentPublished(), {
    onChange: follow,
    pollMs: options.pollMs ?? CONTENT_POLL_MS,
  });
  return {
    data,
    source: "kv",
    async close() {
      await watcher.close();
      await following;
    },
  };
}

/** A published version, loaded (never validated again: it was when published). */
export async function loadVersion(
  kv: Deno.Kv,
  version: ContentVersion,
): Promise<LoadedData> {
  const body = await readContentBody<RawTourismData>(kv, version);
  if (!body) {
    throw new DataError(`Content version ${version.id} has a part missing`);
  }
  return toLoadedData(body.data, version.digest);
}

/** How long a start keeps trying to seed a KV that another process holds locked. */
const SEED_WITHIN_MS = 10_000;

/**
 * Publishes the file as the first version, unless another instance does
 * first. A commit refused because another process held the KV file locked
 * is a conflict with nothing published yet, so it is tried again.
 */
async function seedFromFile(
  kv: Deno.Kv,
  options: OpenContentOptions,
): Promise<PublishedContent> {
  const text = await readDataSetFile(options.path);
  const { data, digest } = await checkTourismDataText(text, options.path);
  await options.check(toLoadedData(data, digest));
  const deadline = Date.now() + SEED_WITHIN_MS;
  while (Date.now() < deadline) {
    try {
      await publishContent(kv, {
        body: { text, data },
        digest,
        source: "seed",
        by: options.path,
        changes: [],
        expected: null,
        at: options.now(),
      });
    } catch (error) {
      if (!(error instanceof ContentConflictError)) throw error;
    }
    const published = await getPublishedContent(kv);
    if (published) return published;
    await new Promise((resolve) =>
      setTimeout(resolve, 20 + Math.random() * 80)
    );
  }
  throw new DataError("The content could not be seeded: the KV stayed locked");
}

async function sayWhetherFileDiffers(
  version: ContentVersion,
  options: OpenContentOptions,
  log: (line: string) => void,
): Promise<void> {
  const published = `Content: version ${
    version.digest.slice(0, 12)
  }, published ${version.publishedAt} by ${version.by}`;
  let text: string;
  try {
    text = await Deno.readTextFile(options.path);
  } catch {
    log(`${published}.`);
    return;
  }
  const { sha256Hex } = await import("@/lib/crypto/sha256.ts");
  if (await sha256Hex(text) === version.digest) {
    log(`${published} (the same as ${options.path}).`);
  } else {
    log(
      `${published}. ${options.path} differs and is not used: CONTENT_SOURCE=kv serves what is published; publish the file with \`deno task content:import\`, or set CONTENT_SOURCE=file to serve the file.`,
    );
  }
}

async function readDataSetFile(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new DataError(`${path}: cannot be read: ${(error as Error).message}`);
  }
}

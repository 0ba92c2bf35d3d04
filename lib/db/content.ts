/**
 * The portal's content in KV: every published version of the data set
 * (`data/turismo.json`'s format), kept with who published it, when and
 * what changed, and one pointer, `content_published`, to the version in
 * force. Every instance follows the pointer (lib/data/content_store.ts);
 * the data set file is only the seed of a new KV and the import and export
 * format.
 *
 * A version is its JSON text as published (an import keeps the file's
 * bytes, so an export gives the same file) and what validation returned
 * for it (so a start or a reload never validates again), gzipped, in parts
 * under KV's 64 KiB value limit, written with its record and the new
 * pointer in one atomic that checks the pointer is still the one the
 * publisher started from: of two publishers, the second is refused with
 * {@linkcode ContentConflictError} and loses nothing silently.
 */
import type { StaffAction, StaffMember } from "@/lib/types/staff.ts";
import { addStaffActionTo } from "./audit.ts";
import { keys } from "./keys.ts";
import { commit, MAX_GET_MANY_KEYS } from "./kv.ts";

/** Bytes of a version per KV value, with room under the 64 KiB limit. */
const PART_BYTES = 60_000;
/** A version larger than this (gzipped) is refused: one atomic holds it with room to spare. */
export const MAX_CONTENT_BYTES = 600_000;

/** How a version came to be. */
export type ContentSource = "seed" | "import" | "console" | "revert";

/** A published version's record (also the pointer's value). */
export interface ContentVersion {
  /** Sorts by time: `<ISO 8601>~<random>`. */
  id: string;
  /** The SHA-256 (hex) of the JSON text: the data version is its first 12 digits. */
  digest: string;
  /** ISO 8601. */
  publishedAt: string;
  /** The staff member's e-mail, or what published it (`seed`, `import`). */
  by: string;
  source: ContentSource;
  /** For a revert: the version whose content it brought back. */
  revertOf?: string;
  /** The version it replaced; absent for the first. */
  previous?: string;
  /** What changed against `previous`, one short line per item (lib/data/content_diff.ts). */
  changes: string[];
  /** Gzipped bytes and their parts. */
  bytes: number;
  parts: number;
}

/** A version's content (`T`: the data set's type, lib/data's; storage does not look inside). */
export interface ContentBody<T = unknown> {
  /** The JSON text as published. */
  text: string;
  /** What validation returned for it. */
  data: T;
}

/** The version in force and the pointer's versionstamp (what a publish checks). */
export interface PublishedContent {
  version: ContentVersion;
  versionstamp: string;
}

/** Thrown when the published version moved since the publisher read it. */
export class ContentConflictError extends Error {
  override name = "ContentConflictError";
  constructor(readonly current: ContentVersion | null) {
    super(
      current
        ? `The content was published meanwhile (${current.publishedAt} by ${current.by})`
        : "The content was removed meanwhile",
    );
  }
}

/** Thrown for a version over {@linkcode MAX_CONTENT_BYTES}. */
export class ContentTooLargeError extends Error {
  override name = "ContentTooLargeError";
}

/** The pointer to the version in force, or null on a KV that was never seeded. */
export async function getPublishedContent(
  kv: Deno.Kv,
): Promise<PublishedContent | null> {
  const entry = await kv.get<ContentVersion>(keys.contentPublished());
  return entry.value
    ? { version: entry.value, versionstamp: entry.versionstamp }
    : null;
}

/** A version's record, or null. */
export async function getContentVersion(
  kv: Deno.Kv,
  id: string,
): Promise<ContentVersion | null> {
  return (await kv.get<ContentVersion>(keys.contentVersion(id))).value;
}

/** The published versions, newest first, at most `limit`. */
export async function listContentVersions(
  kv: Deno.Kv,
  { limit = 50 }: { limit?: number } = {},
): Promise<ContentVersion[]> {
  const entries = await Array.fromAsync(
    kv.list<ContentVersion>({ prefix: keys.contentVersions() }, {
      reverse: true,
      limit,
    }),
  );
  return entries.map((entry) => entry.value);
}

/** A version's content, read from its parts; null if a part is missing. */
export async function readContentBody<T = unknown>(
  kv: Deno.Kv,
  version: ContentVersion,
): Promise<ContentBody<T> | null> {
  const partKeys = Array.from(
    { length: version.parts },
    (_, i) => keys.contentPart(version.id, i),
  );
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < partKeys.length; i += MAX_GET_MANY_KEYS) {
    const entries = await kv.getMany<Uint8Array[]>(
      partKeys.slice(i, i + MAX_GET_MANY_KEYS),
    );
    for (const entry of entries) {
      if (!(entry.value instanceof Uint8Array)) return null;
      chunks.push(entry.value);
    }
  }
  const json = await gunzip(concat(chunks));
  return JSON.parse(json) as ContentBody<T>;
}

/** What {@linkcode publishContent} is told. */
export interface PublishInput {
  body: ContentBody;
  digest: string;
  source: ContentSource;
  /** The staff member who published (audited); absent for a seed or an import task. */
  staff?: StaffMember;
  /** Who, when no staff member did (`seed`, `import`). */
  by?: string;
  changes: string[];
  revertOf?: string;
  /**
   * The pointer's versionstamp the publisher started from: null for "no
   * version yet" (a seed). The publish is refused if the pointer moved.
   */
  expected: string | null;
  at: Date;
}

/**
 * Writes a new version and points the portal to it, in one atomic that
 * checks the pointer against `expected` (and records the staff action,
 * when a member published). Throws {@linkcode ContentConflictError} when
 * another publish came first.
 */
export async function publishContent(
  kv: Deno.Kv,
  input: PublishInput,
): Promise<ContentVersion> {
  const gz = await gzip(JSON.stringify(input.body));
  if (gz.length > MAX_CONTENT_BYTES) {
    throw new ContentTooLargeError(
      `The content is ${gz.length} bytes compressed, over ${MAX_CONTENT_BYTES}`,
    );
  }
  const previous = input.expected === null
    ? null
    : await getPublishedContent(kv);
  // Ids sort as the history runs, even when two publishes share a millisecond.
  const atMs = Math.max(
    input.at.getTime(),
    previous ? Date.parse(previous.version.id.split("~")[0]) + 1 : 0,
  );
  const id = `${new Date(atMs).toISOString()}~${
    crypto.randomUUID().slice(0, 8)
  }`;
  const parts = Math.max(1, Math.ceil(gz.length / PART_BYTES));
  const version: ContentVersion = {
    id,
    digest: input.digest,
    publishedAt: input.at.toISOString(),
    by: input.staff?.email || input.staff?.id || input.by || input.source,
    source: input.source,
    ...(input.revertOf ? { revertOf: input.revertOf } : {}),
    ...(previous ? { previous: previous.version.id } : {}),
    changes: input.changes,
    bytes: gz.length,
    parts,
  };
  const operation = kv.atomic()
    .check({ key: keys.contentPublished(), versionstamp: input.expected });
  for (let i = 0; i < parts; i++) {
    operation.set(
      keys.contentPart(id, i),
      gz.subarray(i * PART_BYTES, (i + 1) * PART_BYTES),
    );
  }
  operation.set(keys.contentVersion(id), version)
    .set(keys.contentPublished(), version);
  if (input.staff) {
    const action: StaffAction = input.source === "revert"
      ? "content_reverted"
      : "content_published";
    addStaffActionTo(operation, {
      staff: input.staff,
      action,
      target: id,
      at: input.at,
    });
  }
  const result = await commit(operation);
  if (!result.ok) {
    throw new ContentConflictError(
      (await getPublishedContent(kv))?.version ?? null,
    );
  }
  return version;
}

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream("gzip"),
  );
  return await new Response(stream).text();
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** An edit of one item saved and not yet published. */
export interface ContentDraft {
  part: string;
  /** The item's key (its slug, its place in the list, "" for an object). */
  key: string;
  /** The item as edited. */
  item: Record<string, unknown>;
  /** The item as published when the edit began: a publish made since is seen, and what it changed. */
  base: Record<string, unknown>;
  /** An item not published yet: publishing adds it at the end of its list. */
  isNew?: boolean;
  /** The staff member's e-mail. */
  by: string;
  /** ISO 8601. */
  savedAt: string;
}

/** A draft and its versionstamp (what the next save of the same item checks). */
export interface DraftEntry {
  draft: ContentDraft;
  versionstamp: string;
}

/** Thrown when someone else saved the same item since the editor opened it. */
export class DraftConflictError extends Error {
  override name = "DraftConflictError";
  constructor(readonly current: DraftEntry | null) {
    super("The draft was saved or discarded meanwhile");
  }
}

/** The draft of one item, or null. */
export async function getContentDraft(
  kv: Deno.Kv,
  part: string,
  key: string,
): Promise<DraftEntry | null> {
  const entry = await kv.get<ContentDraft>(keys.contentDraft(part, key));
  return entry.value
    ? { draft: entry.value, versionstamp: entry.versionstamp }
    : null;
}

/** Every draft, by part and key. */
export async function listContentDrafts(kv: Deno.Kv): Promise<ContentDraft[]> {
  const entries = await Array.fromAsync(
    kv.list<ContentDraft>({ prefix: keys.contentDrafts() }),
  );
  return entries.map((entry) => entry.value);
}

/**
 * Saves `draft` if the item's draft is still the one the editor opened
 * (`expected`: its versionstamp, null for "there was none"); else throws
 * {@linkcode DraftConflictError} with the draft saved meanwhile.
 */
export async function saveContentDraft(
  kv: Deno.Kv,
  draft: ContentDraft,
  expected: string | null,
): Promise<string> {
  const key = keys.contentDraft(draft.part, draft.key);
  const result = await commit(
    kv.atomic().check({ key, versionstamp: expected }).set(key, draft),
  );
  if (!result.ok) {
    throw new DraftConflictError(
      await getContentDraft(kv, draft.part, draft.key),
    );
  }
  return result.versionstamp;
}

/** Deletes a draft if it is still `expected`; returns whether it was. */
export async function deleteContentDraft(
  kv: Deno.Kv,
  part: string,
  key: string,
  expected: string,
): Promise<boolean> {
  const draftKey = keys.contentDraft(part, key);
  const result = await commit(
    kv.atomic().check({ key: draftKey, versionstamp: expected }).delete(
      draftKey,
    ),
  );
  return result.ok;
}

/** What an admin decides about the content (`/panel/contenido`). */
export interface ContentSettings {
  /** Whether editors publish their own drafts (else an admin does). */
  editorsMayPublish: boolean;
}

/** The content's settings; editors do not publish unless an admin said so. */
export async function getContentSettings(
  kv: Deno.Kv,
): Promise<ContentSettings> {
  return (await kv.get<ContentSettings>(keys.contentSettings())).value ??
    { editorsMayPublish: false };
}

/** Sets whether editors publish, with the staff action, in one atomic. */
export async function setEditorsMayPublish(
  kv: Deno.Kv,
  { allowed, staff, at }: { allowed: boolean; staff: StaffMember; at: Date },
): Promise<void> {
  const operation = kv.atomic().set(
    keys.contentSettings(),
    {
      editorsMayPublish: allowed,
    } satisfies ContentSettings,
  );
  addStaffActionTo(operation, {
    staff,
    action: "content_setting_changed",
    target: allowed ? "on" : "off",
    at,
  });
  const result = await commit(operation);
  if (!result.ok) throw new Error("The content's setting was not saved");
}

/**
 * Publishing the content: a data set's JSON text (an import, the console's
 * upload, an editor's change) validated in full, checked against the guide
 * codes the console gave, and written as a new version
 * (lib/db/content.ts) with what changed; a revert publishes an earlier
 * version's text again. The instance that published takes the new version
 * at once; the others within a second (lib/content/content_store.ts).
 */
import {
  checkTourismDataText,
  DataError,
  type LoadedData,
  type RawTourismData,
  toLoadedData,
} from "@/lib/data/tourism_data.ts";
import type { DataStore } from "@/lib/data/data_store.ts";
import {
  type DataSetIssue,
  listDataSetIssues,
} from "@/lib/data/tourism_data_schema.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import {
  type ContentSource,
  type ContentVersion,
  deleteContentDraft,
  getContentDraft,
  getContentVersion,
  getPublishedContent,
  publishContent,
  readContentBody,
} from "@/lib/db/content.ts";
import { listPartners } from "@/lib/db/rewards.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { diffContent, type FieldChange, summarizeChanges } from "./diff.ts";

/** What publishing needs of the app. */
export interface PublishDeps {
  kv: Deno.Kv;
  data: DataStore;
  now: () => Date;
  /** Refuses a version that cannot be taken (a guide code the console gave another attraction). */
  check: (next: LoadedData) => Promise<void> | void;
}

/** A data set that cannot be published: one line per problem, each naming its path. */
export class ContentInvalidError extends Error {
  override name = "ContentInvalidError";
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
  }
}

/** Thrown when the version to bring back is not in the history. */
export class ContentVersionNotFoundError extends Error {
  override name = "ContentVersionNotFoundError";
}

/** A publish's outcome: the new version, or none when the text is what is published. */
export type PublishOutcome =
  | { published: ContentVersion; changes: FieldChange[] }
  | { unchanged: ContentVersion };

/** What {@linkcode publishText} is told. */
export interface PublishTextInput {
  text: string;
  source: Exclude<ContentSource, "seed" | "revert">;
  staff?: StaffMember;
  by?: string;
  /**
   * The pointer's versionstamp the publisher started from (the console's
   * form carries it), null when nothing was published then; absent:
   * whatever is published now (the import task).
   */
  expected?: string | null;
}

/**
 * Validates `text` and publishes it. Throws {@linkcode ContentInvalidError}
 * for a data set that is not valid, `ContentConflictError` when the
 * published version moved since `expected`.
 */
export async function publishText(
  deps: PublishDeps,
  input: PublishTextInput,
): Promise<PublishOutcome> {
  const { data, digest } = await validate(input.text);
  const loaded = toLoadedData(data, digest);
  await checkOrRefuse(deps, loaded);
  const current = await getPublishedContent(deps.kv);
  if (current?.version.digest === digest) return { unchanged: current.version };
  const before = current &&
    await readContentBody<RawTourismData>(deps.kv, current.version);
  const changes = diffContent(before?.data ?? null, data);
  const published = await publishContent(deps.kv, {
    body: { text: input.text, data },
    digest,
    source: input.source,
    staff: input.staff,
    by: input.by,
    changes: summarizeChanges(changes),
    expected: input.expected === undefined
      ? current?.versionstamp ?? null
      : input.expected,
    at: deps.now(),
  });
  await deps.data.adopt(() => Promise.resolve(loaded));
  return { published, changes };
}

/**
 * Publishes version `versionId`'s content again, as a new version (the
 * history keeps both). Throws {@linkcode ContentVersionNotFoundError},
 * `ContentConflictError`, or {@linkcode ContentInvalidError} when the
 * guide codes the console gave since clash with it.
 */
export async function revertTo(
  deps: PublishDeps,
  { versionId, staff, expected }: {
    versionId: string;
    staff: StaffMember;
    /** As {@linkcode PublishTextInput.expected}. */
    expected: string | null;
  },
): Promise<PublishOutcome> {
  const version = await getContentVersion(deps.kv, versionId);
  const body = version &&
    await readContentBody<RawTourismData>(deps.kv, version);
  if (!version || !body) {
    throw new ContentVersionNotFoundError(`No content version ${versionId}`);
  }
  const loaded = toLoadedData(body.data, version.digest);
  await checkOrRefuse(deps, loaded);
  const current = await getPublishedContent(deps.kv);
  if (current?.version.digest === version.digest) {
    return { unchanged: current.version };
  }
  const before = current &&
    await readContentBody<RawTourismData>(deps.kv, current.version);
  const changes = diffContent(before?.data ?? null, body.data);
  const published = await publishContent(deps.kv, {
    body,
    digest: version.digest,
    source: "revert",
    staff,
    revertOf: version.id,
    changes: summarizeChanges(changes),
    expected,
    at: deps.now(),
  });
  await deps.data.adopt(() => Promise.resolve(loaded));
  return { published, changes };
}

/** A version and every field it changed against the one before it. */
export async function describeVersion(
  kv: Deno.Kv,
  versionId: string,
): Promise<
  { version: ContentVersion; changes: FieldChange[] } | null
> {
  const version = await getContentVersion(kv, versionId);
  if (!version) return null;
  const body = await readContentBody<RawTourismData>(kv, version);
  if (!body) return null;
  const previous = version.previous
    ? await getContentVersion(kv, version.previous)
    : null;
  const before = previous &&
    await readContentBody<RawTourismData>(kv, previous);
  return { version, changes: diffContent(before?.data ?? null, body.data) };
}

/** The published text (the export), or null on a KV never seeded. */
export async function readPublishedText(
  kv: Deno.Kv,
): Promise<{ version: ContentVersion; text: string } | null> {
  const current = await getPublishedContent(kv);
  const body = current &&
    await readContentBody<RawTourismData>(kv, current.version);
  return current && body ? { version: current.version, text: body.text } : null;
}

async function validate(
  text: string,
): Promise<{ data: RawTourismData; digest: string }> {
  try {
    return await checkTourismDataText(text, "the data set");
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    throw new ContentInvalidError(splitProblems(error.message));
  }
}

async function checkOrRefuse(
  deps: PublishDeps,
  loaded: LoadedData,
): Promise<void> {
  try {
    await deps.check(loaded);
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    throw new ContentInvalidError([error.message]);
  }
}

/** `the data set is invalid: a; b` → `["a", "b"]`. */
function splitProblems(message: string): string[] {
  const rest = message.replace(/^the data set(?: is invalid)?:\s*/, "");
  return rest.split("; ").filter(Boolean);
}

/** Thrown when the item was published by someone else since the draft's edit began. */
export class ItemPublishedMeanwhileError extends Error {
  override name = "ItemPublishedMeanwhileError";
  constructor(readonly changes: FieldChange[]) {
    super("The item was published meanwhile");
  }
}

/**
 * Publishes one item's saved draft: the published data set with the item
 * replaced, validated in full, as a new version; the draft is deleted.
 * Refused with {@linkcode ItemPublishedMeanwhileError} (what changed) when
 * the item as published is no longer what the edit began from.
 */
export async function publishDraft(
  deps: PublishDeps,
  { part, key, staff, findIndex }: {
    part: string;
    key: string;
    staff: StaffMember;
    /** Where the item is in the published data set (-1: an object part), null if gone. */
    findIndex: (data: RawTourismData) => number | null;
  },
): Promise<PublishOutcome> {
  const entry = await getContentDraft(deps.kv, part, key);
  if (!entry) {
    throw new ContentVersionNotFoundError(`No draft of ${part} ${key}`);
  }
  const current = await getPublishedContent(deps.kv);
  const body = current &&
    await readContentBody<RawTourismData>(deps.kv, current.version);
  if (!current || !body) {
    throw new ContentVersionNotFoundError("No content is published");
  }
  const record = body.data as unknown as Record<string, unknown>;
  const found = findIndex(body.data);
  let index: number;
  if (entry.draft.isNew) {
    // Someone published an item with the same slug meanwhile.
    if (found !== null) throw new ItemPublishedMeanwhileError([]);
    index = (record[part] as unknown[]).length;
  } else {
    if (found === null) throw new ItemPublishedMeanwhileError([]);
    index = found;
    const now = index === -1
      ? record[part]
      : (record[part] as unknown[])[index];
    if (JSON.stringify(now) !== JSON.stringify(entry.draft.base)) {
      throw new ItemPublishedMeanwhileError(
        diffContent(
          { [part]: entry.draft.base } as unknown as RawTourismData,
          { [part]: now } as unknown as RawTourismData,
        ),
      );
    }
  }
  const next = { ...record };
  if (index === -1) next[part] = entry.draft.item;
  else {
    const list = [...(record[part] as unknown[])];
    list[index] = entry.draft.item;
    next[part] = list;
  }
  const outcome = await publishText(deps, {
    text: JSON.stringify(next, null, 2) + "\n",
    source: "console",
    staff,
    expected: current.versionstamp,
  });
  await deleteContentDraft(deps.kv, part, key, entry.versionstamp);
  return outcome;
}

/**
 * The parts whose items the office takes off the portal. Not attractions:
 * their guide codes, visits, badges and the passport's full set hang on
 * them (an attraction the office no longer shows is a data set change a
 * developer reviews).
 */
export const REMOVABLE_PARTS = [
  "events",
  "routes",
  "packages",
  "providers",
] as const;
export type RemovablePart = (typeof REMOVABLE_PARTS)[number];

/**
 * Publishes the data set without the item `slug` of `part`, as a new
 * version (the history keeps the item: a restore brings it back), and
 * drops the item's draft. Throws `ContentConflictError` when the published
 * version moved since `expected` (the confirmation the publisher read),
 * {@linkcode ContentInvalidError} when something else still names it (a
 * package its provider, a route its stop, a prizes' partner its provider), and
 * {@linkcode ContentVersionNotFoundError} for an item not published.
 */
export async function removeItem(
  deps: PublishDeps,
  { part, slug, staff, expected }: {
    part: RemovablePart;
    slug: string;
    staff: StaffMember;
    expected: string | null;
  },
): Promise<PublishOutcome> {
  const current = await getPublishedContent(deps.kv);
  const body = current &&
    await readContentBody<RawTourismData>(deps.kv, current.version);
  const items = body?.data[part] as { slug: string }[] | undefined;
  if (!current || !items?.some((item) => item.slug === slug)) {
    throw new ContentVersionNotFoundError(`No ${part} ${slug} is published`);
  }
  const next = { ...body!.data, [part]: items.filter((i) => i.slug !== slug) };
  const problems = listDataSetIssues(next).map((issue) =>
    sayWhere(next, issue)
  );
  // A prizes' partner linked to the provider would lose its hours and the
  // console's link without a word: it is unlinked in Premios first.
  if (part === "providers") {
    for (const partner of await listPartners(deps.kv)) {
      if (partner.providerSlug === slug) {
        problems.push(
          t(DEFAULT_LANG, "panel_content.remove.partnerLinked", {
            name: partner.name,
          }),
        );
      }
    }
  }
  if (problems.length > 0) throw new ContentInvalidError(problems);
  const outcome = await publishText(deps, {
    text: JSON.stringify(next, null, 2) + "\n",
    source: "console",
    staff,
    expected,
  });
  const draft = await getContentDraft(deps.kv, part, slug);
  if (draft) await deleteContentDraft(deps.kv, part, slug, draft.versionstamp);
  return outcome;
}

/** `Paquetes «Tequila en un día» (provider): no existe «rutas-del-agave»`. */
function sayWhere(data: RawTourismData, issue: DataSetIssue): string {
  const [part, index, ...rest] = issue.path.map(String);
  const partName = t(DEFAULT_LANG, `panel_content.part.${part}`);
  const list = (data as unknown as Record<string, unknown>)[part];
  const item = Array.isArray(list) ? list[Number(index)] : undefined;
  const label = item?.name ?? item?.slug ?? index;
  return `${partName} «${label}»${
    rest.length ? ` (${rest.join(".")})` : ""
  }: ${issue.message}`;
}

/**
 * One item's edit, as the console's form sends it: the item a URL names in
 * the published content, the form read back into it, checked with the
 * whole data set, saved as a draft (refused when someone saved the same
 * item since the form was opened) and, when asked, published. The route
 * only maps each {@linkcode EditOutcome} to a page.
 */
import type { DataStore } from "@/lib/data/data_store.ts";
import type { LoadedData, RawTourismData } from "@/lib/data/tourism_data.ts";
import {
  ContentConflictError,
  DraftConflictError,
  type DraftEntry,
  getContentDraft,
  getContentSettings,
  getPublishedContent,
  readContentBody,
  saveContentDraft,
} from "@/lib/db/content.ts";
import type { StaffMember, StaffRole } from "@/lib/types/staff.ts";
import { diffContent, type FieldChange } from "./diff.ts";
import {
  checkEditedItem,
  describeFields,
  EDITABLE_PARTS,
  type EditablePart,
  type FieldSpec,
  findItem,
  readItemForm,
  replaceItem,
} from "./editor.ts";
import {
  ContentInvalidError,
  ItemPublishedMeanwhileError,
  publishDraft,
} from "./publish.ts";

/** What editing needs of the app. */
export interface EditDeps {
  kv: Deno.Kv;
  data: DataStore;
  now: () => Date;
  check: (next: LoadedData) => Promise<void> | void;
}

/** The item a URL names, in the published content. */
export interface EditTarget {
  part: EditablePart;
  /** The draft's key: the item's slug or place in its list, "" for an object part. */
  key: string;
  /** Its place in the list, -1 for an object part. */
  index: number;
  /** The published data set, guide codes included. */
  data: RawTourismData;
  /** The item as published (a new one: its slug alone). */
  published: Record<string, unknown>;
  fields: FieldSpec[];
  /** An item not published yet: it goes at the end of its list. */
  isNew: boolean;
}

/** Whether `part` is a list of items with slugs (where the office adds items). */
export function takesNewItems(part: EditablePart): boolean {
  return ["attractions", "events", "routes", "packages", "providers"]
    .includes(part);
}

/** The item `part`/`key` names in the published content, or null (no such part, item or content). */
export async function findEditTarget(
  kv: Deno.Kv,
  partName: string,
  key: string,
  { allowNew = false }: {
    /** Take a slug no item has as a new item (its form was asked for, or its draft saved). */
    allowNew?: boolean;
  } = {},
): Promise<EditTarget | null> {
  const part = EDITABLE_PARTS.find((p) => p === partName);
  if (!part) return null;
  const data = await readPublishedData(kv);
  if (!data) return null;
  const found = findItem(data, part, key);
  if (found) {
    return {
      part,
      key,
      index: found.index,
      data,
      published: found.item,
      fields: describeFields(part),
      isNew: false,
    };
  }
  const isNew = takesNewItems(part) && SLUG.test(key) &&
    (allowNew || (await getContentDraft(kv, part, key))?.draft.isNew === true);
  if (!isNew) return null;
  return {
    part,
    key,
    index: (data as unknown as Record<string, unknown[]>)[part].length,
    data,
    published: { slug: key },
    fields: describeFields(part),
    isNew: true,
  };
}

/** An item's slug, as the data set's schema has it. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Why a new item's slug cannot be taken, or null: not a slug, or already an item's or a draft's. */
export async function checkNewSlug(
  kv: Deno.Kv,
  part: EditablePart,
  slug: string,
): Promise<"invalid" | "taken" | null> {
  if (!takesNewItems(part) || !SLUG.test(slug) || slug.length > 80) {
    return "invalid";
  }
  const data = await readPublishedData(kv);
  if (data && findItem(data, part, slug)) return "taken";
  if (await getContentDraft(kv, part, slug)) return "taken";
  return null;
}

/** The published data set, guide codes included; null on a KV never seeded. */
export async function readPublishedData(
  kv: Deno.Kv,
): Promise<RawTourismData | null> {
  const current = await getPublishedContent(kv);
  const body = current &&
    await readContentBody<RawTourismData>(kv, current.version);
  return body?.data ?? null;
}

/** Whether `role` publishes drafts: admins, and editors when an admin allows it. */
export async function mayPublish(
  kv: Deno.Kv,
  role: StaffRole,
): Promise<boolean> {
  if (role === "admin") return true;
  return role === "editor" && (await getContentSettings(kv)).editorsMayPublish;
}

/** How a form's save (and publish) ended. */
export type EditOutcome =
  | { kind: "saved" }
  | { kind: "published" }
  /** A value is wrong: nothing saved; `item` is what the form said. */
  | {
    kind: "invalid";
    item: Record<string, unknown>;
    draft: DraftEntry | null;
    /** By input name (`es:name`). */
    problems: Map<string, string[]>;
    /** Problems elsewhere in the data set the edit caused. */
    other: string[];
  }
  /** Someone saved the item since the form was opened: nothing saved. */
  | {
    kind: "saved_meanwhile";
    item: Record<string, unknown>;
    draft: DraftEntry | null;
    changes: FieldChange[];
  }
  /** Saved, not published: the item was published meanwhile, or the data set cannot be taken. */
  | {
    kind: "not_published";
    item: Record<string, unknown>;
    draft: DraftEntry | null;
    changes?: FieldChange[];
    problems?: string[];
  };

/**
 * Reads `form` into the item (over its draft, if any), checks the data set
 * with it, saves the draft if the draft is still the one the form was
 * opened on (`form.borrador`, its versionstamp, "" for none) and, with
 * `publish`, publishes it.
 */
export async function saveItemEdit(
  deps: EditDeps,
  { target, form, staff, langs, publish }: {
    target: EditTarget;
    form: Record<string, string>;
    staff: StaffMember;
    /** The languages beside Spanish. */
    langs: string[];
    publish: boolean;
  },
): Promise<EditOutcome> {
  const draft = await getContentDraft(deps.kv, target.part, target.key);
  const read = readItemForm(
    draft?.draft.item ?? target.published,
    target.fields,
    form,
    langs,
  );
  const problems = new Map<string, string[]>(
    read.problems.map((p) => [p.name, [p.message]]),
  );
  const checked = checkEditedItem(
    replaceItem(target.data, target.part, target.index, read.item),
    target.part,
    target.index,
  );
  for (const [name, messages] of checked.byField) {
    problems.set(name, [...(problems.get(name) ?? []), ...messages]);
  }
  if (problems.size > 0 || checked.other.length > 0) {
    return {
      kind: "invalid",
      item: read.item,
      draft,
      problems,
      other: checked.other,
    };
  }
  const opened = form.borrador || null;
  try {
    await saveContentDraft(deps.kv, {
      part: target.part,
      key: target.key,
      item: read.item,
      // The published item the edit began from: a later publish is seen.
      base: draft && opened === draft.versionstamp
        ? draft.draft.base
        : target.published,
      ...(target.isNew ? { isNew: true } : {}),
      by: staff.email || staff.id,
      savedAt: deps.now().toISOString(),
    }, opened);
  } catch (error) {
    if (!(error instanceof DraftConflictError)) throw error;
    return {
      kind: "saved_meanwhile",
      item: read.item,
      draft: error.current,
      changes: diffItem(
        target.part,
        target.published,
        error.current?.draft.item ?? target.published,
      ),
    };
  }
  if (!publish) return { kind: "saved" };
  try {
    await publishDraft(deps, {
      part: target.part,
      key: target.key,
      staff,
      findIndex: (data) =>
        findItem(data, target.part, target.key)?.index ?? null,
    });
    return { kind: "published" };
  } catch (error) {
    const saved = await getContentDraft(deps.kv, target.part, target.key);
    if (error instanceof ItemPublishedMeanwhileError) {
      return {
        kind: "not_published",
        item: read.item,
        draft: saved,
        changes: error.changes,
      };
    }
    if (error instanceof ContentInvalidError) {
      return {
        kind: "not_published",
        item: read.item,
        draft: saved,
        problems: error.problems,
      };
    }
    if (error instanceof ContentConflictError) {
      return { kind: "not_published", item: read.item, draft: saved };
    }
    throw error;
  }
}

/** Every field that differs between two versions of one item of `part`. */
export function diffItem(
  part: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): FieldChange[] {
  return diffContent(
    { [part]: before } as unknown as RawTourismData,
    { [part]: after } as unknown as RawTourismData,
  );
}

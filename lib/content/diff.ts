/**
 * What changed between two versions of the content, for the history: one
 * {@linkcode FieldChange} per field that differs (items of a list matched
 * by their slug, so a moved item is not a change), and one summary line per
 * item. Guide codes are never shown: a change of one says only that it
 * changed (the codes page is where they are seen).
 */
import type { RawTourismData } from "@/lib/data/tourism_data.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";

/** One field that differs: its path and both values as text (absent: not there). */
export interface FieldChange {
  /** e.g. `attractions[museo-los-abuelos].schedule` or `branding.colors.primary`. */
  path: string;
  before?: string;
  after?: string;
}

/** Shown instead of a guide code's value, and for an item added or removed (the console's words). */
const say = (key: string) => t(DEFAULT_LANG, `panel_content.diff.${key}`);
/** Longer values are cut here in the history. */
const MAX_SHOWN = 400;

/** Every field that differs between `before` and `after`, in document order. */
export function diffContent(
  before: RawTourismData | null,
  after: RawTourismData,
): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(before ?? {}, after, "", changes);
  return changes;
}

/**
 * One line per item (or top-level part) that changed: `attractions[x]:
 * schedule, translations.en.schedule`, `events[feria]: added`.
 */
export function summarizeChanges(changes: FieldChange[]): string[] {
  const byItem = new Map<string, Set<string>>();
  for (const change of changes) {
    const match = /^([a-z]+(?:\[[^\]]+\])?)(?:\.(.+))?$/i.exec(change.path);
    const item = match?.[1] ?? change.path;
    const rest = match?.[2];
    const fields = byItem.get(item) ?? new Set<string>();
    if (rest) fields.add(rest);
    else if (change.before === undefined) fields.add("added");
    else if (change.after === undefined) fields.add("removed");
    else fields.add("changed");
    byItem.set(item, fields);
  }
  return [...byItem].map(([item, fields]) => {
    const list = [...fields];
    const shown = list.slice(0, 6).join(", ") +
      (list.length > 6 ? `, … (${list.length})` : "");
    return `${item}: ${shown}`;
  });
}

function walk(
  before: unknown,
  after: unknown,
  path: string,
  out: FieldChange[],
): void {
  if (same(before, after)) return;
  if (isRecord(before) && isRecord(after)) {
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const name of names) {
      walk(before[name], after[name], path ? `${path}.${name}` : name, out);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (isSlugList(before) && isSlugList(after)) {
      const old = new Map(before.map((item) => [item.slug, item]));
      const next = new Map(after.map((item) => [item.slug, item]));
      for (const slug of new Set([...old.keys(), ...next.keys()])) {
        const itemPath = `${path}[${slug}]`;
        if (!old.has(slug)) out.push({ path: itemPath, after: say("added") });
        else if (!next.has(slug)) {
          out.push({ path: itemPath, before: say("removed") });
        } else walk(old.get(slug), next.get(slug), itemPath, out);
      }
      return;
    }
    if (before.every(isRecord) && after.every(isRecord)) {
      const length = Math.max(before.length, after.length);
      for (let i = 0; i < length; i++) {
        const itemPath = `${path}[${i + 1}]`;
        if (i >= before.length) {
          out.push({ path: itemPath, after: say("added") });
        } else if (i >= after.length) {
          out.push({ path: itemPath, before: say("removed") });
        } else walk(before[i], after[i], itemPath, out);
      }
      return;
    }
  }
  const hidden = /(^|\.)guideCode$/.test(path);
  out.push({
    path,
    ...(before === undefined
      ? {}
      : { before: hidden ? say("hidden") : show(before) }),
    ...(after === undefined
      ? {}
      : { after: hidden ? say("hidden") : show(after) }),
  });
}

function show(value: unknown): string {
  const text = typeof value === "string"
    ? value
    : Array.isArray(value) && value.every((v) => typeof v === "string")
    ? value.join(" · ")
    : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSlugList(list: unknown[]): list is { slug: string }[] {
  return list.every((item) => isRecord(item) && typeof item.slug === "string");
}

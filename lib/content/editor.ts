/**
 * The console's content editor, driven by the data set's own schema: the
 * fields of one item (an attraction, an event, the branding...) read off
 * its zod schema, each with its Spanish value and, where the data set
 * translates it, the value in every other language beside it; a form read
 * back into the item; and the problems of the whole data set with the
 * item in place, by field, in Spanish. Guide codes are never a field here
 * (the codes page keeps them) and an item's slug is not edited (pages,
 * links and visits hang on it).
 */
import type { RawTourismData } from "@/lib/data/tourism_data.ts";
import {
  listDataSetIssues,
  tourismDataSchema,
} from "@/lib/data/tourism_data_schema.ts";
import {
  BASE_LANG,
  type FieldKind,
  TRANSLATABLE,
  type TranslatableFields,
} from "@/lib/data/translations.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";

/** What the editor edits: the data set's parts. */
export const EDITABLE_PARTS = [
  "attractions",
  "events",
  "routes",
  "packages",
  "providers",
  "directions",
  "gastronomy",
  "emergency",
  "weather",
  "culture",
  "municipality",
  "branding",
  "meta",
  "privacy",
] as const;
export type EditablePart = (typeof EDITABLE_PARTS)[number];

/** How one field is edited. */
export type FieldInput =
  | "text"
  | "longtext"
  | "number"
  | "boolean"
  | "tristate"
  | "enum"
  | "lines"
  | "json";

/** One field of an item's form. */
export interface FieldSpec {
  /** Inside the item, e.g. `["cost", "notes"]`. */
  path: string[];
  input: FieldInput;
  optional: boolean;
  /** An enum's values. */
  options?: string[];
  /** How the data set translates it; absent: the same in every language. */
  translated?: FieldKind;
}

/** Never a field of the editor. */
const HIDDEN_FIELDS = new Set(["i18n", "guideCode", "slug"]);
/** Fields written as paragraphs. */
const LONG_FIELDS = new Set([
  "description",
  "summary",
  "history",
  "notice",
  "climate",
  "byCar",
  "byBus",
  "logoSvg",
  "notes",
  "tagline",
]);

/** Whether `part` is a list (one item per entry) or one object. */
export function isListPart(part: EditablePart): boolean {
  return Array.isArray(emptyShapeOf(part));
}

function emptyShapeOf(part: EditablePart): unknown {
  const shape = (tourismDataSchema as unknown as ZodLike).shape![part];
  return unwrap(shape).def.type === "array" ? [] : {};
}

/** An item's key in URLs: its slug, else its 1-based place in the list; "" for an object. */
export function listItemKeys(data: RawTourismData, part: EditablePart) {
  const value = (data as Record<string, unknown>)[part];
  if (!Array.isArray(value)) return [{ key: "", label: labelOf(value) }];
  return value.map((item, i) => ({
    key: typeof item?.slug === "string" ? item.slug : String(i + 1),
    label: labelOf(item) || String(i + 1),
  }));
}

function labelOf(item: unknown): string {
  if (typeof item !== "object" || item === null) return "";
  const record = item as Record<string, unknown>;
  for (const name of ["name", "fromCity", "dish", "climate", "office"]) {
    if (typeof record[name] === "string") return record[name] as string;
  }
  return "";
}

/** The item at `key` of `part`, with its index in the list (-1 for an object), or null. */
export function findItem(
  data: RawTourismData,
  part: EditablePart,
  key: string,
): { item: Record<string, unknown>; index: number } | null {
  const value = (data as Record<string, unknown>)[part];
  if (!Array.isArray(value)) {
    return key === "" && typeof value === "object" && value !== null
      ? { item: value as Record<string, unknown>, index: -1 }
      : null;
  }
  const index = value.findIndex((item, i) =>
    item?.slug === key || (item?.slug === undefined && String(i + 1) === key)
  );
  return index === -1 ? null : { item: value[index], index };
}

/** `data` with the item at `index` of `part` replaced by `item` (a copy; `data` is not changed). */
export function replaceItem(
  data: RawTourismData,
  part: EditablePart,
  index: number,
  item: Record<string, unknown>,
): RawTourismData {
  const copy = { ...data } as Record<string, unknown>;
  if (index === -1) copy[part] = item;
  else {
    const list = [...(copy[part] as unknown[])];
    list[index] = item;
    copy[part] = list;
  }
  return copy as RawTourismData;
}

/** The fields of `part`'s items, in the schema's order. */
export function describeFields(part: EditablePart): FieldSpec[] {
  let schema = unwrap((tourismDataSchema as unknown as ZodLike).shape![part]);
  if (schema.def.type === "array") schema = unwrap(schema.def.element!);
  const translated = (TRANSLATABLE as Record<string, { fields: unknown }>)[
    part
  ]?.fields as TranslatableFields | undefined;
  return walkShape(schema, [], translated);
}

function walkShape(
  schema: ZodLike,
  path: string[],
  translated: TranslatableFields | undefined,
): FieldSpec[] {
  const fields: FieldSpec[] = [];
  for (const [name, field] of Object.entries(schema.shape ?? {})) {
    if (HIDDEN_FIELDS.has(name)) continue;
    const optional = isOptional(field);
    const inner = unwrap(field);
    const kind = translated?.[name];
    const at = [...path, name];
    switch (inner.def.type) {
      case "object":
        fields.push(
          ...walkShape(
            inner,
            at,
            typeof kind === "object" && !Array.isArray(kind)
              ? kind as TranslatableFields
              : undefined,
          ).map((f) => ({ ...f, optional: f.optional || optional })),
        );
        break;
      case "string":
        fields.push({
          path: at,
          input: LONG_FIELDS.has(name) ? "longtext" : "text",
          optional,
          ...(typeof kind === "string" ? { translated: kind } : {}),
        });
        break;
      case "literal":
        break; // a fixed value (a currency): kept as it is
      case "number":
        fields.push({ path: at, input: "number", optional });
        break;
      case "boolean":
        // An optional yes/no may also be unknown (absent), as OpenStreetMap
        // tags are: a select of three, not a checkbox of two.
        fields.push({
          path: at,
          input: optional ? "tristate" : "boolean",
          optional,
        });
        break;
      case "enum":
        fields.push({
          path: at,
          input: "enum",
          optional,
          options: Object.values(inner.def.entries ?? {}).map(String),
        });
        break;
      case "array":
        fields.push(
          unwrap(inner.def.element!).def.type === "string"
            ? {
              path: at,
              input: "lines",
              optional,
              ...(kind === "list" ? { translated: "list" as const } : {}),
            }
            : { path: at, input: "json", optional },
        );
        break;
      default:
        fields.push({ path: at, input: "json", optional });
    }
  }
  return fields;
}

/** The name of a field's form input: `es:cost.notes`, `en:cost.notes`. */
export function inputName(field: FieldSpec, lang: string): string {
  return `${lang}:${field.path.join(".")}`;
}

/** A field's value in `item` (`lang` other than Spanish: from its overlay), as the form shows it. */
export function formValue(
  item: Record<string, unknown>,
  field: FieldSpec,
  lang: string,
): string {
  const source = lang === BASE_LANG
    ? item
    : (item.i18n as Record<string, unknown> | undefined)?.[lang];
  const value = getAt(source, field.path);
  if (value === undefined || value === null) return "";
  switch (field.input) {
    case "lines":
      return Array.isArray(value) ? value.join("\n") : String(value);
    case "json":
      return JSON.stringify(value, null, 2);
    case "boolean":
      return value ? "on" : "";
    case "tristate":
      return value ? "true" : "false";
    default:
      return String(value);
  }
}

/** A field the form gave a value it cannot be (a number that is not one, broken JSON). */
export interface FieldProblem {
  /** The input's name ({@linkcode inputName}). */
  name: string;
  message: string;
}

/**
 * The item as the form says it: `item` (its guide code, slug and anything
 * the editor does not show kept) with every field of `fields` set from
 * `form`, an empty optional field removed, an empty translation dropped
 * from the overlay. `langs`: the other languages shown beside Spanish.
 */
export function readItemForm(
  item: Record<string, unknown>,
  fields: FieldSpec[],
  form: Record<string, string>,
  langs: string[],
): { item: Record<string, unknown>; problems: FieldProblem[] } {
  const next = structuredClone(item);
  const problems: FieldProblem[] = [];
  for (const field of fields) {
    const name = inputName(field, BASE_LANG);
    const parsed = parseInput(field, form[name]);
    if ("problem" in parsed) problems.push({ name, message: parsed.problem });
    else setAt(next, field.path, parsed.value);
  }
  const overlays = structuredClone(
    (item.i18n as Record<string, Record<string, unknown>> | undefined) ?? {},
  );
  for (const lang of langs) {
    const overlay = overlays[lang] ?? {};
    for (const field of fields) {
      if (!field.translated) continue;
      const parsed = parseInput(
        { ...field, optional: true },
        form[inputName(field, lang)],
      );
      if ("value" in parsed) setAt(overlay, field.path, parsed.value);
    }
    prune(overlay);
    if (Object.keys(overlay).length > 0) overlays[lang] = overlay;
    else delete overlays[lang];
  }
  if (Object.keys(overlays).length > 0) next.i18n = overlays;
  else delete next.i18n;
  return { item: next, problems };
}

function parseInput(
  field: FieldSpec,
  raw: string | undefined,
): { value: unknown } | { problem: string } {
  const text = (raw ?? "").replace(/\r\n/g, "\n");
  const empty = text.trim() === "";
  if (field.input === "boolean") {
    return { value: empty ? (field.optional ? undefined : false) : true };
  }
  if (empty) return { value: undefined };
  switch (field.input) {
    case "tristate":
      return { value: text === "true" };
    case "number": {
      const value = Number(text.trim().replace(",", "."));
      return Number.isFinite(value)
        ? { value }
        : { problem: t(DEFAULT_LANG, "panel_content.problem.number") };
    }
    case "lines":
      return {
        value: text.split("\n").map((line) => line.trim()).filter(Boolean),
      };
    case "json":
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { problem: t(DEFAULT_LANG, "panel_content.problem.json") };
      }
    default:
      return { value: text.trim() };
  }
}

/**
 * The problems of the whole data set with the edited item in place that
 * concern it, keyed by input name (`es:name`, `en:summary`), and those
 * elsewhere (a reference the edit broke), as lines.
 */
export function checkEditedItem(
  data: RawTourismData,
  part: EditablePart,
  index: number,
): { byField: Map<string, string[]>; other: string[] } {
  const prefix: PropertyKey[] = index === -1 ? [part] : [part, index];
  const byField = new Map<string, string[]>();
  const other: string[] = [];
  for (const issue of listDataSetIssues(data)) {
    const inside = prefix.every((p, i) => issue.path[i] === p);
    if (!inside) {
      other.push(`${issue.path.join(".")}: ${issue.message}`);
      continue;
    }
    const rest = issue.path.slice(prefix.length).map(String);
    const name = rest[0] === "i18n" && rest.length > 2
      ? `${rest[1]}:${rest.slice(2).join(".")}`
      : `${BASE_LANG}:${rest.join(".")}`;
    byField.set(name, [...(byField.get(name) ?? []), issue.message]);
  }
  return { byField, other };
}

/** The fields of `item` with Spanish and no text in `lang` ("falta la traducción"). */
export function listUntranslated(
  item: Record<string, unknown>,
  fields: FieldSpec[],
  lang: string,
): FieldSpec[] {
  return fields.filter((field) =>
    (field.translated === "text" || field.translated === "list") &&
    formValue(item, field, BASE_LANG) !== "" &&
    formValue(item, field, lang) === ""
  );
}

function getAt(value: unknown, path: string[]): unknown {
  let at = value;
  for (const name of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[name];
  }
  return at;
}

function setAt(
  target: Record<string, unknown>,
  path: string[],
  value: unknown,
): void {
  let at = target;
  for (const name of path.slice(0, -1)) {
    if (typeof at[name] !== "object" || at[name] === null) {
      if (value === undefined) return;
      at[name] = {};
    }
    at = at[name] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete at[last];
  else at[last] = value;
}

/** Drops empty nested objects (a translation with nothing left). */
function prune(target: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(target)) {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      prune(value as Record<string, unknown>);
      if (Object.keys(value).length === 0) delete target[name];
    }
  }
}

/** The parts of a zod 4 schema the editor reads. */
interface ZodLike {
  def: {
    type: string;
    innerType?: ZodLike;
    in?: ZodLike;
    element?: ZodLike;
    entries?: Record<string, string | number>;
  };
  shape?: Record<string, ZodLike>;
}

function isOptional(schema: ZodLike): boolean {
  let at = schema;
  for (;;) {
    if (at.def.type === "optional" || at.def.type === "default") return true;
    const next = at.def.innerType ?? at.def.in;
    if (!next) return false;
    at = next;
  }
}

function unwrap(schema: ZodLike): ZodLike {
  let at = schema;
  while (at.def.innerType ?? (at.def.type === "pipe" ? at.def.in : undefined)) {
    at = at.def.innerType ?? at.def.in!;
  }
  return at;
}

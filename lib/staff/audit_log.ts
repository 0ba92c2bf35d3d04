/**
 * The audit log as the console shows and exports it (`/panel/auditoria`):
 * the filter asked for (person, action, days on the municipality's
 * calendar) and each entry in words: people by their e-mail address,
 * attractions by their name in the data set, a note as "la nota de
 * <atractivo> del <fecha>", never an id or a slug. The words are the
 * catalogue's (`locales/<lang>/panel_audit.json`), so the page and the CSV
 * say the same thing; this module only picks the message and its values.
 */
import {
  addDays,
  getLocalMidnightMs,
  getLocalWallClock,
  isDay,
} from "@/lib/calendar/mod.ts";
import {
  iterateStaffActionsMatching,
  listStaffActionsMatching,
  type StaffActionEntry,
  type StaffActionFilter,
} from "@/lib/db/audit.ts";
import {
  CHECK_IN_AUDIT_TARGET,
  CHECK_IN_METHODS,
  type CheckInMethod,
  getMethodWordsKey,
} from "@/lib/check_in/mod.ts";
import { getVisitById } from "@/lib/db/visits.ts";
import type { LoadedData } from "@/lib/data/mod.ts";
import { formatDate, formatDateTime } from "@/lib/format/mod.ts";
import { toCsv } from "@/lib/open_data/csv.ts";
import {
  DEFAULT_LANG,
  type Lang,
  type MessageValues,
  t,
} from "@/lib/i18n/catalogue.ts";
import { STAFF_ROLES, type StaffAction } from "@/lib/types/staff.ts";

/** Every action the log records, in the order the filter offers them. */
export const AUDIT_ACTIONS: readonly StaffAction[] = [
  "signin",
  "signout",
  "session_ended",
  "access_removed",
  "staff_invited",
  "staff_link_issued",
  "staff_role_changed",
  "staff_removed",
  "code_replaced",
  "check_in_method_set",
  "note_hidden",
  "note_shown",
  "question_resolved",
  "export_downloaded",
  "erasure",
  "personal_data_exported",
  "photo_uploaded",
  "content_published",
  "content_reverted",
  "content_setting_changed",
  "photo_deleted",
  "partner_saved",
  "partner_pin_issued",
  "prize_saved",
];

/** An action in words (`panel_audit.action.*`); an unknown one as recorded. */
export function getAuditActionLabel(
  action: string,
  lang: Lang = DEFAULT_LANG,
): string {
  return (AUDIT_ACTIONS as readonly string[]).includes(action)
    ? t(lang, `panel_audit.action.${action}`)
    : action;
}

/** A role in words (`panel_audit.role.*`); an unknown one as recorded. */
export function getRoleLabel(role: string, lang: Lang = DEFAULT_LANG): string {
  return (STAFF_ROLES as readonly string[]).includes(role)
    ? t(lang, `panel_audit.role.${role}`)
    : role;
}

/** The filter of the log, as the page's form (GET) gives it. */
export interface AuditQuery {
  /** An e-mail address (or staff id): who did it, or to whom. */
  person: string;
  action: StaffAction | "";
  /** `YYYY-MM-DD` on the municipality's calendar, included; empty: no bound. */
  from: string;
  to: string;
  /** A field that was not a date, or a start after the end: ignored, and the page says so. */
  problem: "invalid" | "reversed" | null;
}

/** Reads the filter from the query (`persona`, `accion`, `desde`, `hasta`). */
export function parseAuditQuery(
  query: Record<string, string | undefined>,
): AuditQuery {
  const person = (query.persona ?? "").trim().toLowerCase().slice(0, 320);
  const action = (query.accion ?? "") as StaffAction;
  const from = (query.desde ?? "").trim();
  const to = (query.hasta ?? "").trim();
  const problem = (from && !isDay(from)) || (to && !isDay(to))
    ? "invalid"
    : from && to && from > to
    ? "reversed"
    : null;
  return {
    person,
    action: AUDIT_ACTIONS.includes(action) ? action : "",
    from: problem ? "" : from,
    to: problem ? "" : to,
    problem,
  };
}

/** Whether the query filters anything. */
export function isAuditFiltered(query: AuditQuery): boolean {
  return Boolean(query.person || query.action || query.from || query.to);
}

/** The query as the address's search part (`?persona=…`), empty for none; for links and the export. */
export function toAuditSearch(query: AuditQuery): string {
  const params = new URLSearchParams();
  if (query.person) params.set("persona", query.person);
  if (query.action) params.set("accion", query.action);
  if (query.from) params.set("desde", query.from);
  if (query.to) params.set("hasta", query.to);
  const search = params.toString();
  return search ? `?${search}` : "";
}

/**
 * What the audit needs of the app: KV, the data set in force, and the
 * language of its words (the catalogue's `panel_audit`; Spanish unless said).
 */
export interface AuditLogDeps {
  kv: Deno.Kv;
  data: Pick<LoadedData, "data" | "attractionsBySlug">;
  lang?: Lang;
}

function toFilter(query: AuditQuery, timeZone: string): StaffActionFilter {
  const { person, action } = query;
  return {
    fromMs: query.from ? getLocalMidnightMs(query.from, timeZone) : undefined,
    untilMs: query.to
      ? getLocalMidnightMs(addDays(query.to, 1), timeZone)
      : undefined,
    matches: person || action
      ? (entry) =>
        (!action || entry.action === action) &&
        (!person || entry.staff.id === person ||
          entry.staff.email === person || entry.target === person)
      : undefined,
  };
}

/** One entry of the log in words. */
export interface AuditRow {
  id: string;
  /** ISO 8601, and the same on the municipality's clock in words. */
  at: string;
  when: string;
  person: string;
  role: string;
  action: string;
  /** What it was done to, in words; "—" when nothing. */
  about: string;
}

/**
 * One page (50) of the entries the query keeps, newest first, in words;
 * `cursor` goes on to older ones (empty on the last page).
 */
export async function listAuditRows(
  deps: AuditLogDeps,
  query: AuditQuery,
  { cursor, limit = 50 }: { cursor?: string; limit?: number } = {},
): Promise<{ rows: AuditRow[]; cursor: string }> {
  const { timeZone } = deps.data.data.municipality;
  const page = await listStaffActionsMatching(
    deps.kv,
    toFilter(query, timeZone),
    { cursor, limit },
  );
  return {
    rows: await Promise.all(page.values.map((entry) => toRow(deps, entry))),
    cursor: page.cursor,
  };
}

/** The CSV's columns (`panel_audit.csv.*`: in Spanish `fecha,persona,rol,accion,sobre`). */
const CSV_COLUMNS = ["at", "person", "role", "action", "about"] as const;

/**
 * Every entry the query keeps, newest first, as CSV (a header row, then one
 * row per entry, in the same words as the page; times on the
 * municipality's clock, `YYYY-MM-DD HH:MM`), streamed. No byte-order mark:
 * the route adds it, as for the console's other downloads.
 */
export function streamAuditCsv(
  deps: AuditLogDeps,
  query: AuditQuery,
): ReadableStream<Uint8Array> {
  const { timeZone } = deps.data.data.municipality;
  const entries = iterateStaffActionsMatching(
    deps.kv,
    toFilter(query, timeZone),
  );
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        const lang = deps.lang ?? DEFAULT_LANG;
        const header = CSV_COLUMNS.map((column) =>
          t(lang, `panel_audit.csv.${column}`)
        );
        controller.enqueue(encoder.encode(toCsv([header])));
        return;
      }
      const next = await entries.next();
      if (next.done) return controller.close();
      const row = await toRow(deps, next.value);
      controller.enqueue(encoder.encode(toCsv([[
        formatSpreadsheetTime(row.at, timeZone),
        row.person,
        row.role,
        row.action,
        row.about,
      ]])));
    },
    async cancel() {
      await entries.return(undefined);
    },
  });
}

/** The log's own file name, as it is downloaded and audited. */
export const AUDIT_CSV_NAME = "auditoria.csv";

/** `YYYY-MM-DD HH:MM` on the municipality's clock: what a spreadsheet reads as a date and time. */
function formatSpreadsheetTime(iso: string, timeZone: string): string {
  return getLocalWallClock(iso, timeZone).slice(0, 16).replace("T", " ");
}

async function toRow(
  deps: AuditLogDeps,
  entry: StaffActionEntry,
): Promise<AuditRow> {
  const { timeZone } = deps.data.data.municipality;
  const lang = deps.lang ?? DEFAULT_LANG;
  const action = getAuditActionLabel(entry.action, lang);
  return {
    id: entry.id,
    at: entry.at,
    when: formatDateTime(entry.at, timeZone, lang),
    person: entry.staff.email || entry.staff.id,
    role: getRoleLabel(entry.staff.role, lang),
    action: entry.method
      ? t(lang, "panel_audit.actionWithMethod", {
        action,
        method: entry.method,
      })
      : action,
    about: await describeTarget(deps, entry, lang),
  };
}

/**
 * A code replacement's target as written since the grace period became a
 * fact: `<slug> (grace_days: <n>)`. Older entries wrote the words
 * themselves (`<slug> (periodo de gracia: …)`), shown as written.
 */
const CODE_GRACE = /^ \(grace_days: (\d+)\)$/;

/** What an entry was done to, in words. */
async function describeTarget(
  deps: AuditLogDeps,
  entry: StaffActionEntry,
  lang: Lang,
): Promise<string> {
  const { target } = entry;
  const say = (key: string, values?: MessageValues) =>
    t(lang, `panel_audit.about.${key}`, values);
  if (target === undefined) return say("none");
  // An attraction since dropped from the data set keeps its slug, quoted.
  const attractionName = (slug: string) =>
    deps.data.attractionsBySlug.get(slug)?.name ??
      say("droppedAttraction", { slug });
  switch (entry.action) {
    case "note_hidden":
    case "note_shown": {
      const visit = await getVisitById(deps.kv, target);
      if (!visit) return say("noteGone");
      return say("note", {
        attraction: attractionName(visit.slug),
        date: formatDate(
          visit.ratedAt ?? visit.visitedAt,
          deps.data.data.municipality.timeZone,
          lang,
        ),
      });
    }
    case "code_replaced": {
      const [, slug, rest] = /^(\S+)(.*)$/.exec(target) ?? [, target, ""];
      const grace = CODE_GRACE.exec(rest);
      return grace
        ? say("codeGrace", {
          attraction: attractionName(slug),
          days: Number(grace[1]),
        })
        : say("code", { attraction: attractionName(slug), rest });
    }
    case "check_in_method_set": {
      // Written as "<slug> (method: <id>, radius_m: <n>)"; before, with the
      // method in Spanish words, shown as written.
      const [, slug, rest] = /^(\S+)(.*)$/.exec(target) ?? [, target, ""];
      const rule = CHECK_IN_AUDIT_TARGET.exec(rest);
      return say("checkIn", {
        attraction: attractionName(slug),
        rest: rule && CHECK_IN_METHODS.some((m) => m === rule[1])
          ? say("checkInRule", {
            method: t(lang, getMethodWordsKey(rule[1] as CheckInMethod)),
            radius: Number(rule[2]),
          })
          : rest,
      });
    }
    case "staff_invited":
    case "staff_role_changed":
      return entry.role
        ? say("withRole", { target, role: getRoleLabel(entry.role, lang) })
        : target;
    case "question_resolved":
      return say("question", { question: target });
    case "export_downloaded":
      return say("export", { file: target });
    case "erasure":
      return say("erasure", { ref: target.replace(/^erasure:/, "") });
    case "personal_data_exported":
      return say("personalData", { ref: target.replace(/^ticket:/, "") });
    case "photo_uploaded":
    case "photo_deleted":
      return say("photo", { id: target });
    case "content_published":
    case "content_reverted":
      return say("content", { id: target });
    case "content_setting_changed":
      return say(target === "on" ? "editorsPublishOn" : "editorsPublishOff");
    default:
      return target;
  }
}

/**
 * The audit log as the console shows and exports it (`/panel/auditoria`):
 * the filter asked for (person, action, days on the municipality's
 * calendar) and each entry in words: people by their e-mail address,
 * attractions by their name in the data set, a note as "la nota de
 * <atractivo> del <fecha>", never an id or a slug. The console is Spanish
 * only, so its words live here, in one table, beside the filter that uses
 * them, and the page and the CSV say the same thing.
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
import { getVisitById } from "@/lib/db/visits.ts";
import type { LoadedData } from "@/lib/data/mod.ts";
import { formatDate, formatDateTime } from "@/lib/format/mod.ts";
import { toCsv } from "@/lib/open_data/csv.ts";
import type { StaffAction, StaffRole } from "@/lib/types/staff.ts";

/** Each action in words, in the order the filter offers them. */
export const AUDIT_ACTION_LABELS: Readonly<Record<StaffAction, string>> = {
  signin: "Entró al panel",
  signout: "Salió del panel",
  session_ended: "Cerró la sesión de otra persona",
  access_removed: "Perdió el acceso al panel",
  staff_invited: "Invitó a una persona al panel",
  staff_link_issued: "Hizo un enlace de acceso nuevo",
  staff_role_changed: "Cambió el rol de una persona",
  staff_removed: "Quitó a una persona del panel",
  code_replaced: "Reemplazó un código",
  check_in_method_set: "Cambió cómo se registra una visita",
  note_hidden: "Ocultó una nota",
  note_shown: "Volvió a mostrar una nota",
  question_resolved: "Marcó una pregunta como resuelta",
  export_downloaded: "Descargó una exportación",
  erasure: "Borró datos personales",
  personal_data_exported: "Exportó los datos personales de una persona",
};

const METHOD_LABEL = {
  link: "con un enlace de acceso",
  provider: "con el proveedor de identidad",
} as const;

/** A role in words. */
export const ROLE_LABELS: Readonly<Record<StaffRole, string>> = {
  admin: "Administración",
  viewer: "Consulta",
};

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
    action: action in AUDIT_ACTION_LABELS ? action : "",
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

/** What the audit needs of the app: KV and the data set in force. */
export interface AuditLogDeps {
  kv: Deno.Kv;
  data: Pick<LoadedData, "data" | "attractionsBySlug">;
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

/** The CSV's header row. */
const CSV_HEADER = ["fecha", "persona", "rol", "accion", "sobre"];

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
        controller.enqueue(encoder.encode(toCsv([CSV_HEADER])));
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
  const label = AUDIT_ACTION_LABELS[entry.action] ?? entry.action;
  return {
    id: entry.id,
    at: entry.at,
    when: formatDateTime(entry.at, timeZone),
    person: entry.staff.email || entry.staff.id,
    role: ROLE_LABELS[entry.staff.role] ?? entry.staff.role,
    action: entry.method ? `${label} (${METHOD_LABEL[entry.method]})` : label,
    about: await describeTarget(deps, entry),
  };
}

/** What an entry was done to, in words. */
async function describeTarget(
  deps: AuditLogDeps,
  entry: StaffActionEntry,
): Promise<string> {
  const { target } = entry;
  if (target === undefined) return "—";
  // An attraction since dropped from the data set keeps its slug, quoted.
  const attractionName = (slug: string) =>
    deps.data.attractionsBySlug.get(slug)?.name ??
      `«${slug}» (ya no está en los datos)`;
  switch (entry.action) {
    case "note_hidden":
    case "note_shown": {
      const visit = await getVisitById(deps.kv, target);
      if (!visit) return "una nota que ya se borró";
      return `la nota de ${attractionName(visit.slug)} del ${
        formatDate(
          visit.ratedAt ?? visit.visitedAt,
          deps.data.data.municipality.timeZone,
        )
      }`;
    }
    case "code_replaced": {
      // Written as "<slug> (periodo de gracia: …)".
      const [, slug, rest] = /^(\S+)(.*)$/.exec(target) ?? [, target, ""];
      return `el código de ${attractionName(slug)}${rest}`;
    }
    case "check_in_method_set": {
      // Written as "<slug> (<method in words>, <radius> m)".
      const [, slug, rest] = /^(\S+)(.*)$/.exec(target) ?? [, target, ""];
      return `el registro de visitas de ${attractionName(slug)}${rest}`;
    }
    case "staff_invited":
    case "staff_role_changed":
      return entry.role
        ? `${target} (rol: ${ROLE_LABELS[entry.role]})`
        : target;
    case "question_resolved":
      return `la pregunta «${target}»`;
    case "export_downloaded":
      return `el archivo ${target}`;
    case "erasure":
      return `una solicitud de borrado (referencia ${
        target.replace(/^erasure:/, "")
      })`;
    case "personal_data_exported":
      return `los datos de un pasaporte (referencia ${
        target.replace(/^ticket:/, "")
      })`;
    default:
      return target;
  }
}

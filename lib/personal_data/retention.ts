/**
 * Every kind of record of the portal that holds personal data: what it
 * holds, why, where it lives and how long it is kept. The privacy notice
 * (`/aviso-de-privacidad`) and docs/PRIVACY.md's table are written from this
 * one table, and every period is the constant that enforces it, imported,
 * never retyped: the notice and the code cannot disagree.
 */
import {
  type Config,
  DEFAULT_GUEST_PASSPORT_RETENTION_MONTHS,
} from "@/lib/config/config.ts";
import { AUDIT_RETENTION_MS } from "@/lib/db/audit.ts";
import { ERASURE_RECORD_KEPT_MS } from "@/lib/db/erasures.ts";
import {
  STAFF_EXPIRED_KEPT_MS,
  STAFF_IDLE_MS,
  STAFF_LINK_TTL_MS,
} from "@/lib/db/staff_sessions.ts";
import { QUESTION_RETENTION_MS } from "@/lib/db/unanswered_questions.ts";
import { CHAT_RATE_LIMIT } from "@/lib/limits/chat_limit.ts";
import { IP_BUDGET_WINDOW_MS } from "@/lib/limits/ip_budget.ts";
import { LATEST_CARD_TTL_MS } from "@/lib/og/share_cards.ts";
import { FLOW_TTL_MS, SESSION_TTL_MS } from "@/lib/oauth/sign_in.ts";
import { PAGE_TTL_MS, ROUTE_PAGE_TTL_MS } from "@/lib/pages/page_cache.ts";
import {
  GUEST_PASSPORT_TTL_MS,
  GUEST_PASSPORTS_PER_ADDRESS,
} from "@/lib/passport/guest.ts";
import {
  GUIDE_CODE_ADDRESS_LIMIT,
  GUIDE_CODE_LIMIT,
} from "@/lib/passport/verify_visit.ts";
import {
  CLAIM_TTL_MS,
  TICKETS_PER_ADDRESS,
} from "@/lib/tickets/create_ticket.ts";

/** Where a record lives. */
export type RecordStore =
  /** The portal's Deno KV database (key families in `keys`). */
  | "kv"
  /** The city's CMS: WordPress, or the embedded driver's posts in KV. */
  | "cms"
  /** The language-model provider the chat sends messages to. */
  | "model_provider"
  /** One instance's memory (caches), gone with a restart. */
  | "memory"
  /** The request log: standard output, to wherever the operator sends it. */
  | "stdout";

/** A period's unit. */
export type RetentionUnit = "seconds" | "minutes" | "hours" | "days" | "months";

/** From which moment a period counts. */
export type RetentionStart =
  /** The record was written. */
  | "created"
  /** The passport (any of its sessions or page tokens) was last used. */
  | "last_use"
  /** The last request that used it (a staff session: idle time). */
  | "last_request"
  /** The last hit of the limit (each hit is kept for the window). */
  | "last_hit"
  /** The last question of its group. */
  | "last_question"
  /** The erasure finished. */
  | "finished";

/** How long a record is kept. */
export type Retention =
  | {
    kind: "period";
    /** The period in `unit`, from the constant (or the setting) that enforces it. */
    amount: number;
    unit: RetentionUnit;
    from: RetentionStart;
    /** The period in milliseconds; null for months (calendar months vary). */
    ms: number | null;
    /** The environment variable that sets it, when the operator may change it. */
    setting?: string;
  }
  /** Kept until the person erases it (`/mi-pasaporte`) or asks staff to (`/panel/solicitudes`). */
  | { kind: "until_erased" }
  /** The portal keeps nothing: it is sent on (to the model provider, to stdout). */
  | { kind: "not_kept" };

/** A rule of a record that applies only to some passports. */
export interface RetentionRule {
  /** Which passports (or records) it applies to; absent: all. */
  appliesTo?: "guest" | "account" | "no_passport";
  retention: Retention;
}

/** A sentence pair for the notice (Spanish) and docs/PRIVACY.md (English). */
export interface Described {
  es: string;
  en: string;
}

/** One kind of record that holds personal data. */
export interface PersonalRecord {
  /** Stable id (tests, anchors). */
  id: string;
  /** Its name. */
  name: Described;
  /** What personal data it holds. */
  holds: Described;
  /** Why the portal keeps it. */
  purpose: Described;
  store: RecordStore;
  /** The KV key families (`keys` in lib/db/keys.ts) it lives under; empty off KV. */
  keyFamilies: readonly string[];
  /** How long it is kept: one rule, or one per kind of passport. */
  retention: readonly RetentionRule[];
  /** Whether a tourist's export (`/mi-pasaporte`) includes it and erasure removes it. */
  exported: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A period in the largest unit that divides it exactly (a year of days stays 365 days). */
export function toPeriod(
  ms: number,
  from: RetentionStart,
): Extract<Retention, { kind: "period" }> {
  const [amount, unit]: [number, RetentionUnit] = ms % DAY === 0
    ? [ms / DAY, "days"]
    : ms % HOUR === 0
    ? [ms / HOUR, "hours"]
    : ms % MINUTE === 0
    ? [ms / MINUTE, "minutes"]
    : [ms / 1000, "seconds"];
  return { kind: "period", amount, unit, from, ms };
}

/** The period of an unused guest passport, from the configuration. */
function guestRetention(months: number): Retention {
  return {
    kind: "period",
    amount: months,
    unit: "months",
    from: "last_use",
    ms: null,
    setting: "GUEST_PASSPORT_RETENTION_MONTHS",
  };
}

/** A tourist's passport data: erased with an unused guest passport, or on request. */
function passportRules(months: number): RetentionRule[] {
  return [
    { appliesTo: "guest", retention: guestRetention(months) },
    { appliesTo: "account", retention: { kind: "until_erased" } },
  ];
}

/**
 * The table for a configuration: the guest passport's period is
 * `GUEST_PASSPORT_RETENTION_MONTHS`; every other period is a constant of
 * the code that enforces it.
 */
export function listPersonalRecords(
  { guestPassportRetentionMonths: months }: Pick<
    Config,
    "guestPassportRetentionMonths"
  >,
): PersonalRecord[] {
  const addressLimits = [
    CHAT_RATE_LIMIT.windowMs,
    GUIDE_CODE_ADDRESS_LIMIT.windowMs,
    GUEST_PASSPORTS_PER_ADDRESS.windowMs,
    TICKETS_PER_ADDRESS.windowMs,
  ];
  return [
    {
      id: "passport",
      name: { es: "Pasaporte", en: "Passport" },
      holds: {
        es:
          "Un identificador de usuario al azar, cuándo se abrió y el último día en que se usó.",
        en:
          "A random user id, when it was opened and the last day it was used.",
      },
      purpose: {
        es:
          "Guardar tus sellos y saber cuándo dejaste de usarlo para borrarlo a tiempo.",
        en:
          "To keep the stamps, and to know when it fell out of use so it is erased on time.",
      },
      store: "kv",
      keyFamilies: ["passports_last_seen", "passports_by_last_seen"],
      retention: passportRules(months),
      exported: true,
    },
    {
      id: "visits",
      name: {
        es: "Visitas, calificaciones y notas",
        en: "Visits, ratings and notes",
      },
      holds: {
        es:
          "Qué atractivos visitaste y cuándo, tus calificaciones y el texto de tus notas (también las que el personal ocultó).",
        en:
          "Which attractions were visited and when, the ratings and the notes' text (hidden ones too).",
      },
      purpose: {
        es:
          "Tu pasaporte, tus insignias y tu página de ruta, donde también se ven tus notas; el personal de turismo las lee en el panel y puede ocultarlas.",
        en:
          "The passport, its badges and the route page, where the notes show too; tourism staff read them in the console and can hide them.",
      },
      store: "kv",
      keyFamilies: ["visits", "visits_by_id", "notes_by_time"],
      retention: passportRules(months),
      exported: true,
    },
    {
      id: "badges",
      name: { es: "Insignias y contadores", en: "Badges and counters" },
      holds: {
        es: "Las insignias que desbloqueaste y cuántas visitas llevas.",
        en: "The badges unlocked and the number of visits.",
      },
      purpose: {
        es: "Mostrar tu avance en el pasaporte y en tu tarjeta para compartir.",
        en: "To show progress on the passport and the share card.",
      },
      store: "kv",
      keyFamilies: ["badges", "user_stats"],
      retention: passportRules(months),
      exported: true,
    },
    {
      id: "ticket",
      name: { es: "Boleto turístico", en: "Tourist ticket" },
      holds: {
        es:
          "Nombre, correo electrónico, teléfono (si lo diste) y código para compartir.",
        en: "Name, e-mail address, phone number (if given) and share code.",
      },
      purpose: {
        es:
          "Emitir tu boleto, publicar tu página de ruta con tu nombre y encontrar tu boleto si nos escribes.",
        en:
          "To issue the ticket, publish the route page with the name, and find the ticket when the person writes in.",
      },
      store: "kv",
      keyFamilies: ["tickets", "tickets_by_user", "tickets_by_email"],
      retention: [
        ...passportRules(months),
        { appliesTo: "no_passport", retention: { kind: "until_erased" } },
      ],
      exported: true,
    },
    {
      id: "cms_post",
      name: {
        es: "Publicación del boleto en el gestor de contenidos",
        en: "The ticket's post in the CMS",
      },
      holds: {
        es: "Los mismos datos del boleto: nombre, correo, teléfono y código.",
        en: "The ticket's data: name, e-mail, phone and share code.",
      },
      purpose: {
        es: "El municipio lleva sus boletos en su gestor de contenidos.",
        en: "The municipality keeps its tickets in its CMS.",
      },
      store: "cms",
      keyFamilies: ["cms_posts"],
      retention: [
        ...passportRules(months),
        { appliesTo: "no_passport", retention: { kind: "until_erased" } },
      ],
      exported: true,
    },
    {
      id: "ticket_claim",
      name: { es: "Boleto en trámite", en: "Ticket being created" },
      holds: {
        es:
          "La huella (SHA-256) de la clave al azar que tu navegador envió con la solicitud; nunca tu correo.",
        en:
          "The SHA-256 of the random key the browser sent with the request; never the e-mail address.",
      },
      purpose: {
        es:
          "Que dos solicitudes al mismo tiempo no creen dos boletos, y que solo tu reintento termine un boleto cuya creación falló.",
        en:
          "So that two requests at once do not create two tickets, and only the same request's retry finishes a ticket whose creation failed.",
      },
      store: "kv",
      keyFamilies: ["ticket_claims"],
      retention: [{ retention: toPeriod(CLAIM_TTL_MS, "created") }],
      exported: false,
    },
    {
      id: "session",
      name: { es: "Sesiones", en: "Sessions" },
      holds: {
        es:
          "Cuándo iniciaste sesión y hasta cuándo vale (nunca la contraseña; la cookie guarda solo un número al azar).",
        en:
          "When a session began and when it ends (the cookie holds only a random id; KV its hash).",
      },
      purpose: {
        es: "Reconocer tu navegador sin pedirte entrar cada vez.",
        en: "To recognise the browser without signing in each time.",
      },
      store: "kv",
      keyFamilies: ["sessions", "sessions_by_user"],
      retention: [
        {
          appliesTo: "guest",
          retention: toPeriod(GUEST_PASSPORT_TTL_MS, "created"),
        },
        {
          appliesTo: "account",
          retention: toPeriod(SESSION_TTL_MS, "created"),
        },
      ],
      exported: true,
    },
    {
      id: "identity",
      name: { es: "Cuenta vinculada", en: "Identity link" },
      holds: {
        es:
          "El proveedor con el que entraste y tu identificador en él (nunca tu contraseña).",
        en:
          "The identity provider and the person's subject there (never a password).",
      },
      purpose: {
        es: "Abrir el mismo pasaporte cada vez que entras con tu cuenta.",
        en: "To open the same passport at each sign-in.",
      },
      store: "kv",
      keyFamilies: ["users_by_identity", "identities_by_user"],
      retention: [{ retention: { kind: "until_erased" } }],
      exported: true,
    },
    {
      id: "sign_in_flow",
      name: { es: "Inicio de sesión en curso", en: "Sign-in in progress" },
      holds: {
        es: "Un valor al azar y la página a la que volverás.",
        en: "Random values and the page to return to.",
      },
      purpose: {
        es: "Terminar el inicio de sesión con tu proveedor de forma segura.",
        en: "To finish the sign-in with the provider safely.",
      },
      store: "kv",
      keyFamilies: ["oauth_flows"],
      retention: [{ retention: toPeriod(FLOW_TTL_MS, "created") }],
      exported: false,
    },
    {
      id: "user_rate_limits",
      name: {
        es: "Límite de intentos por usuario",
        en: "Per-user attempt limits",
      },
      holds: {
        es: "La hora de tus códigos de guía equivocados.",
        en: "When the user's wrong guide codes were sent.",
      },
      purpose: {
        es: "Evitar que se adivinen los códigos de guía.",
        en: "To stop guide codes being guessed.",
      },
      store: "kv",
      keyFamilies: ["rate_limits"],
      retention: [{
        retention: toPeriod(GUIDE_CODE_LIMIT.windowMs, "last_hit"),
      }],
      exported: false,
    },
    {
      id: "address_rate_limits",
      name: {
        es: "Límite de solicitudes por dirección IP",
        en: "Per-address request limits",
      },
      holds: {
        es:
          "Tu dirección IP y la hora de tus solicitudes de chat, boletos, pasaportes y códigos equivocados.",
        en:
          "The client's IP address and when it asked for a chat answer, a ticket, a passport, or sent a wrong code.",
      },
      purpose: {
        es: "Proteger el servicio del abuso.",
        en: "To protect the service from abuse.",
      },
      store: "kv",
      keyFamilies: ["rate_limits"],
      retention: [{
        retention: toPeriod(Math.max(...addressLimits), "last_hit"),
      }],
      exported: false,
    },
    {
      id: "ip_budget",
      name: {
        es: "Presupuesto de solicitudes por dirección IP",
        en: "Per-address request budget",
      },
      holds: { es: "Tu dirección IP.", en: "The client's IP address." },
      purpose: {
        es: "Frenar a quien hace demasiadas solicitudes por minuto.",
        en: "To slow down whoever makes too many requests a minute.",
      },
      store: "memory",
      keyFamilies: [],
      retention: [{ retention: toPeriod(IP_BUDGET_WINDOW_MS, "last_hit") }],
      exported: false,
    },
    {
      id: "page_caches",
      name: {
        es: "Copias temporales de las páginas y tu tarjeta",
        en: "Cached pages and share cards",
      },
      holds: {
        es:
          "Tu nombre, tus sellos y tus notas, tal como se ven en tu página de ruta y tu tarjeta.",
        en:
          "The name, stamps and notes as the route page and the card show them.",
      },
      purpose: {
        es: "Servir rápido las páginas que se comparten.",
        en: "To serve shared pages fast.",
      },
      store: "memory",
      keyFamilies: [],
      retention: [{
        retention: toPeriod(
          Math.max(PAGE_TTL_MS, ROUTE_PAGE_TTL_MS, LATEST_CARD_TTL_MS),
          "created",
        ),
      }],
      exported: false,
    },
    {
      id: "chat",
      name: {
        es: "Mensajes del chat y ubicación",
        en: "Chat messages and location",
      },
      holds: {
        es: "Lo que escribes en el chat y, si la compartes, tu ubicación.",
        en: "What the person types in the chat and, if shared, their location.",
      },
      purpose: {
        es:
          "Responder tus preguntas: se envían al proveedor del modelo de lenguaje, que las procesa fuera del portal.",
        en:
          "To answer questions: they are sent to the language-model provider, which processes them outside the portal.",
      },
      store: "model_provider",
      keyFamilies: [],
      retention: [{ retention: { kind: "not_kept" } }],
      exported: false,
    },
    {
      id: "unanswered_questions",
      name: {
        es: "Preguntas sin respuesta",
        en: "Unanswered chat questions",
      },
      holds: {
        es:
          "El texto de la pregunta, con los datos personales ocultos (correos, teléfonos, CURP, RFC, INE, tarjetas, direcciones y nombres); nada que diga quién la hizo.",
        en:
          "The question's text with personal data masked (e-mails, phones, CURP, RFC, INE, cards, addresses, names); nothing about who asked.",
      },
      purpose: {
        es: "Que el personal sepa qué información falta en el portal.",
        en: "So that staff learn what information the portal lacks.",
      },
      store: "kv",
      keyFamilies: ["unanswered_questions", "unanswered_questions_by_rank"],
      retention: [{
        retention: toPeriod(QUESTION_RETENTION_MS, "last_question"),
      }],
      exported: false,
    },
    {
      id: "erasure",
      name: { es: "Solicitudes de borrado", en: "Erasure records" },
      holds: {
        es:
          "Mientras se borran tus datos, qué falta por borrar; al terminar, solo la fecha y el estado.",
        en:
          "While an erasure runs, what is left to erase; once done, only its dates and state.",
      },
      purpose: {
        es:
          "Terminar el borrado aunque algo falle a la mitad, y decirte cuándo quedó listo.",
        en:
          "To finish an erasure even if something fails half-way, and to tell the person when it is done.",
      },
      store: "kv",
      keyFamilies: ["erasures", "erasures_pending", "erasures_by_user"],
      retention: [{
        retention: toPeriod(ERASURE_RECORD_KEPT_MS, "finished"),
      }],
      exported: false,
    },
    {
      id: "staff_session",
      name: { es: "Sesiones del personal", en: "Staff sessions" },
      holds: {
        es:
          "El correo electrónico y el rol de la persona del personal; cómo y cuándo entró (con un enlace, o con el proveedor de identidad y su identificador allí).",
        en:
          "The staff member's e-mail address and role; how and when they signed in (a link, or the identity provider and their subject there).",
      },
      purpose: {
        es: "Dar acceso al panel del personal.",
        en: "To give access to the staff console.",
      },
      store: "kv",
      keyFamilies: ["staff_sessions"],
      retention: [{
        retention: toPeriod(
          STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS,
          "last_request",
        ),
      }],
      exported: false,
    },
    {
      id: "staff_link",
      name: {
        es: "Enlaces de acceso del personal",
        en: "Staff sign-in links",
      },
      holds: {
        es: "El correo electrónico y el rol de la persona del personal.",
        en: "The staff member's e-mail address and role.",
      },
      purpose: {
        es: "Entrar al panel sin proveedor de identidad.",
        en: "To sign in to the console without an identity provider.",
      },
      store: "kv",
      keyFamilies: ["staff_links"],
      retention: [{ retention: toPeriod(STAFF_LINK_TTL_MS, "created") }],
      exported: false,
    },
    {
      id: "audit",
      name: { es: "Bitácora del personal", en: "Staff audit log" },
      holds: {
        es:
          "Qué hizo cada persona del personal, cuándo y sobre qué (su correo; de ti, a lo más el número de la solicitud).",
        en:
          "What each staff member did, when and to what (their e-mail; of a tourist at most a request's id).",
      },
      purpose: {
        es: "Rendir cuentas de lo que hace el personal con los datos.",
        en: "Accountability for what staff do with the data.",
      },
      store: "kv",
      keyFamilies: ["staff_actions"],
      retention: [{ retention: toPeriod(AUDIT_RETENTION_MS, "created") }],
      exported: false,
    },
    {
      id: "request_log",
      name: { es: "Registro de solicitudes", en: "Request log" },
      holds: {
        es:
          "Método, ruta (que puede incluir tu código para compartir), código de respuesta y duración de cada solicitud; no tu dirección IP.",
        en:
          "Each request's method, path (a route page's includes its share code), status and duration; no client address.",
      },
      purpose: {
        es: "Operar el servicio y encontrar fallas.",
        en: "To run the service and find faults.",
      },
      store: "stdout",
      keyFamilies: [],
      retention: [{ retention: { kind: "not_kept" } }],
      exported: false,
    },
  ];
}

/** The table with the default configuration (`GUEST_PASSPORT_RETENTION_MONTHS` unset). */
export const PERSONAL_RECORDS: readonly PersonalRecord[] = listPersonalRecords({
  guestPassportRetentionMonths: DEFAULT_GUEST_PASSPORT_RETENTION_MONTHS,
});

const UNIT_WORDS: Record<
  "es" | "en",
  Record<RetentionUnit, [string, string]>
> = {
  es: {
    seconds: ["segundo", "segundos"],
    minutes: ["minuto", "minutos"],
    hours: ["hora", "horas"],
    days: ["día", "días"],
    months: ["mes", "meses"],
  },
  en: {
    seconds: ["second", "seconds"],
    minutes: ["minute", "minutes"],
    hours: ["hour", "hours"],
    days: ["day", "days"],
    months: ["month", "months"],
  },
};

const FROM_WORDS: Record<"es" | "en", Record<RetentionStart, string>> = {
  es: {
    created: "desde que se crea",
    last_use: "sin usarse",
    last_request: "desde la última solicitud",
    last_hit: "desde la última solicitud contada",
    last_question: "desde la última pregunta",
    finished: "desde que termina",
  },
  en: {
    created: "from its creation",
    last_use: "unused",
    last_request: "after the last request",
    last_hit: "after the last counted request",
    last_question: "after the last question",
    finished: "after it finishes",
  },
};

const APPLIES_WORDS: Record<
  "es" | "en",
  Record<NonNullable<RetentionRule["appliesTo"]>, string>
> = {
  es: {
    guest: "pasaporte de invitado",
    account: "pasaporte con cuenta",
    no_passport: "boleto sin pasaporte",
  },
  en: {
    guest: "guest passport",
    account: "account passport",
    no_passport: "ticket without a passport",
  },
};

/** A retention in words, e.g. "24 months unused" or "90 días desde la última pregunta". */
export function describeRetention(
  retention: Retention,
  lang: "es" | "en",
): string {
  switch (retention.kind) {
    case "until_erased":
      return lang === "es"
        ? "hasta que pidas borrarlo"
        : "until the person asks for erasure";
    case "not_kept":
      return lang === "es"
        ? "el portal no lo guarda"
        : "not kept by the portal";
    case "period": {
      const [one, many] = UNIT_WORDS[lang][retention.unit];
      const amount = retention.amount.toLocaleString(
        lang === "es" ? "es-MX" : "en-US",
      );
      return `${amount} ${retention.amount === 1 ? one : many} ${
        FROM_WORDS[lang][retention.from]
      }${retention.setting ? ` (\`${retention.setting}\`)` : ""}`;
    }
  }
}

/** A record's rules in words, each prefixed with whom it applies to when that differs. */
export function describeRules(
  rules: readonly RetentionRule[],
  lang: "es" | "en",
): string {
  return rules.map((rule) =>
    rule.appliesTo
      ? `${APPLIES_WORDS[lang][rule.appliesTo]}: ${
        describeRetention(rule.retention, lang)
      }`
      : describeRetention(rule.retention, lang)
  ).join("; ");
}

const STORE_WORDS: Record<RecordStore, string> = {
  kv: "KV",
  cms: "the CMS",
  model_provider: "the model provider",
  memory: "memory (per instance)",
  stdout: "stdout",
};

/**
 * docs/PRIVACY.md's table of personal records (English), one row per record:
 * `lib/personal_data/retention_test.ts` checks docs/PRIVACY.md holds exactly
 * this, so the two cannot drift apart.
 */
export function renderPersonalRecordsTable(
  records: readonly PersonalRecord[] = PERSONAL_RECORDS,
): string {
  const rows = records.map((record) => [
    record.name.en,
    record.holds.en,
    `${STORE_WORDS[record.store]}${
      record.keyFamilies.length
        ? `: ${record.keyFamilies.map((key) => `\`${key}\``).join(", ")}`
        : ""
    }`,
    describeRules(record.retention, "en"),
  ]);
  const lines = [
    "| Record | Holds | Where | Kept |",
    "| --- | --- | --- | --- |",
    ...rows.map((cells) =>
      `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`
    ),
  ];
  return lines.join("\n");
}

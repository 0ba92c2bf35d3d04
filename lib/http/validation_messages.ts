/**
 * The API's validation messages: what a visitor (or an API client) reads in
 * `details` when a request body is refused. Written here in Spanish rather
 * than taken from zod's locale, whose generated sentences are ungrammatical
 * ("Inválido dirección de correo electrónico") and name fields by their JSON
 * keys. Each body field of each endpoint has a Spanish name with its gender
 * and number, so every sentence agrees ("Las notas deben ser texto.").
 *
 * Only the wording lives here: the limits come from the zod issue (its
 * `minimum`, `maximum`, `format`), so a schema change cannot leave a message
 * naming an old limit.
 */

/** What {@linkcode describeIssue} reads of a zod issue (a structural subset of `z.core.$ZodIssue`). */
export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message?: string;
  expected?: string;
  format?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  keys?: readonly string[];
  values?: readonly unknown[];
}

/** The `details` of a request body that is not what the API takes. */
export const BODY_MESSAGES = {
  /** 415: not sent as JSON. */
  notJsonType: "Envía el cuerpo de la solicitud como application/json.",
  /** 400: a JSON content type and no body at all. */
  empty: "El cuerpo de la solicitud está vacío: envía un objeto JSON.",
  /** 400: a body that does not parse. */
  malformed: "El cuerpo de la solicitud no es JSON válido.",
} as const;

/** A field's Spanish name, lower case, with the article; its gender and number for agreement. */
interface FieldName {
  name: string;
  feminine?: boolean;
  plural?: boolean;
  /** Sentences for a failed `format` (e.g. `regex`) of this field, replacing the generic one. */
  formats?: Record<string, string>;
}

/**
 * Every body field of every endpoint: ticket, verify-visit, rate-visit,
 * session-token and chat (whose errors the visitor reads as a `{reply}`).
 * Fields a visitor never types keep their JSON key in parentheses, for the
 * API client's developer.
 */
const FIELD_NAMES: Record<string, FieldName> = {
  // POST /api/turismo/ticket
  name: { name: "el nombre" },
  email: {
    name: "el correo electrónico",
    formats: {
      email:
        "El correo electrónico no es válido. Revisa que esté escrito como nombre@ejemplo.com.",
    },
  },
  shareCode: {
    name: "el código del boleto (shareCode)",
    formats: {
      regex:
        "El código del boleto (shareCode) debe tener de 4 a 64 caracteres: letras sin acentos, dígitos, guion (-) o guion bajo (_).",
    },
  },
  phone: {
    name: "el teléfono",
    formats: {
      regex: "El teléfono solo admite dígitos, espacios y los signos + ( ) -.",
    },
  },
  // POST /api/turismo/verify-visit
  code: { name: "el código de guía" },
  userId: { name: "el identificador de usuario (userId)" },
  // POST /api/turismo/rate-visit
  atractivoSlug: { name: "el identificador del atractivo (atractivoSlug)" },
  rating: { name: "la calificación", feminine: true },
  notes: { name: "las notas", feminine: true, plural: true },
  // POST /api/session-token
  guest: { name: "la opción de pasaporte de invitado (guest)", feminine: true },
  // POST /api/chat
  message: { name: "el mensaje" },
  history: { name: "el historial de la conversación" },
  location: { name: "la ubicación", feminine: true },
};

/** The whole body, for issues at the root (an array or a string instead of an object). */
const BODY: FieldName = { name: "el cuerpo de la solicitud" };

/**
 * The Spanish sentence for a zod issue of a request body, and the field it is
 * about (`undefined` for the body as a whole). `body` is the value that was
 * validated: it tells a missing field from one of the wrong type (`null`
 * included: an optional field may be left out, not sent as null), and an
 * empty text from one of invisible characters only, which the issue alone
 * does not.
 */
export function describeIssue(
  issue: IssueLike,
  body: unknown,
): { field?: string; details: string } {
  let path = issue.path.map(String);
  if (issue.code === "unrecognized_keys" && issue.keys?.length) {
    // Not raised today (bodies are not strict), but said well if it ever is.
    path = [...path, issue.keys[0]];
    const keys = issue.keys.map((key) => `«${key}»`).join(", ");
    return {
      field: path.join("."),
      details: issue.keys.length === 1
        ? `El campo ${keys} no se admite.`
        : `Los campos ${keys} no se admiten.`,
    };
  }
  const field = path.length ? path.join(".") : undefined;
  const names = field === undefined
    ? BODY
    : FIELD_NAMES[field] ?? { name: `el campo «${field}»` };
  return { field, details: sentence(issue, names, valueAt(body, path)) };
}

function sentence(issue: IssueLike, field: FieldName, value: unknown): string {
  const the = capitalize(field.name);
  const es = field.plural ? "son" : "es";
  const debe = field.plural ? "deben" : "debe";
  const puede = field.plural ? "pueden" : "puede";
  const admite = field.plural ? "admiten" : "admite";
  const tiene = field.plural ? "tienen" : "tiene";
  const agree = (adjective: string) => inflect(adjective, field);
  if (
    (issue.code === "too_small" || issue.code === "invalid_format") &&
    typeof value === "string" && value.trim() === ""
  ) {
    // "" or spaces: not "must look like x@y.mx" but "it is empty".
    return `${the} no ${puede} estar ${agree("vacío")}.`;
  }
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `${the} ${es} ${agree("obligatorio")}.`;
      return TYPE_NAMES[issue.expected ?? ""]
        ? `${the} ${debe} ${TYPE_NAMES[issue.expected ?? ""]}.`
        : `${the} no ${tiene} el tipo de dato correcto.`;
    case "too_small": {
      const n = Number(issue.minimum);
      if (issue.origin === "string") {
        if (n <= 1 && typeof value === "string") {
          // Not empty as sent: what was left after cleaning is (controls,
          // zero-width and bidi characters are removed).
          return `${the} no ${tiene} ningún carácter visible.`;
        }
        return n <= 1
          ? `${the} no ${puede} estar ${agree("vacío")}.`
          : `${the} ${debe} tener al menos ${n} caracteres.`;
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return `${the} ${debe} tener al menos ${count(n, "elemento")}.`;
      }
      return issue.inclusive === false
        ? `${the} ${debe} ser mayor que ${n}.`
        : `${the} ${debe} ser como mínimo ${n}.`;
    }
    case "too_big": {
      const n = Number(issue.maximum);
      if (issue.origin === "string") {
        return `${the} ${admite} como máximo ${count(n, "carácter")}.`;
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return `${the} ${admite} como máximo ${count(n, "elemento")}.`;
      }
      return issue.inclusive === false
        ? `${the} ${debe} ser menor que ${n}.`
        : `${the} ${debe} ser como máximo ${n}.`;
    }
    case "invalid_format": {
      const format = issue.format ?? "";
      const own = field.formats?.[format] ?? FORMAT_NAMES[format];
      return own
        ? own.replace("{campo}", the).replace("{debe}", debe)
        : `${the} no ${tiene} el formato correcto.`;
    }
    case "invalid_value":
      if (issue.values?.length) {
        const values = issue.values.map((v) => JSON.stringify(v)).join(", ");
        return issue.values.length === 1
          ? `${the} ${debe} ser ${values}.`
          : `${the} ${debe} ser uno de estos valores: ${values}.`;
      }
      return `${the} no ${es} ${agree("válido")}.`;
    case "custom":
      // A refinement's message is written by us, in Spanish, as a sentence.
      return issue.message ?? `${the} no ${es} ${agree("válido")}.`;
    default:
      return `${the} no ${es} ${agree("válido")}.`;
  }
}

/** Sentences for zod's string formats; `{campo}` is the field's name, `{debe}` its verb. */
const FORMAT_NAMES: Record<string, string> = {
  email: "{campo} {debe} ser una dirección de correo electrónico válida.",
  guid:
    "{campo} {debe} ser un UUID, como 123e4567-e89b-42d3-a456-426614174000.",
  uuid:
    "{campo} {debe} ser un UUID, como 123e4567-e89b-42d3-a456-426614174000.",
  url: "{campo} {debe} ser una dirección web (URL) válida.",
};

/** What a value of each zod type is, after "debe ser". */
const TYPE_NAMES: Record<string, string> = {
  string: "ser texto",
  number: "ser un número",
  int: "ser un número entero",
  boolean: "ser true o false",
  object: "ser un objeto JSON",
  array: "ser una lista",
  null: "ser null",
};

/** The value at `path` in `body`, or `undefined`. */
function valueAt(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A regular adjective in -o agreeing with the field: "vacío" → "vacías". */
function inflect(adjective: string, field: FieldName): string {
  const stem = adjective.slice(0, -1);
  return stem + (field.feminine ? "a" : "o") + (field.plural ? "s" : "");
}

/** "1 carácter", "120 caracteres". */
function count(n: number, noun: "carácter" | "elemento"): string {
  if (n === 1) return `1 ${noun}`;
  return `${n} ${noun === "carácter" ? "caracteres" : "elementos"}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

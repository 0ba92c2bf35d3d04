/**
 * The API's validation messages: what a visitor (or an API client) reads in
 * `details` when a request body is refused, in the request's language. Ours
 * rather than zod's locale, whose generated sentences are ungrammatical
 * ("Inválido dirección de correo electrónico") and name fields by their JSON
 * keys.
 *
 * The sentences are catalogue messages (`locales/<lang>/api.json`,
 * `invalid.*`) with the field as a value: each body field of each endpoint
 * has a name (`field.<key>`) and a grammatical form (`fieldForm.<key>`, in
 * each language's own terms: Spanish gender and number, `m`/`f`/`mp`/`fp`;
 * English number, `s`/`p`) that the sentence selects on, so every sentence
 * agrees ("Las notas deben ser texto.", "The notes are required."). A third
 * language is a new `api.json` with its own forms, not code.
 *
 * Only the wording lives there: the limits come from the zod issue (its
 * `minimum`, `maximum`, `format`), so a schema change cannot leave a message
 * naming an old limit.
 */
import { DEFAULT_LANG, getMessage, type Lang } from "@/lib/i18n/catalogue.ts";
import {
  apiMessage,
  type ApiText,
  type ApiValue,
  sayApiText,
} from "@/lib/errors/mod.ts";

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
  notJsonType: apiMessage("body.notJson"),
  /** 400: a JSON content type and no body at all. */
  empty: apiMessage("body.empty"),
  /** 400: a body that does not parse. */
  malformed: apiMessage("body.malformed"),
} as const;

/**
 * Every body field of every endpoint with a name in the catalogue: ticket,
 * verify-visit, check-in, rate-visit, session-token and chat (whose errors the
 * visitor reads as a `{reply}`). Fields a visitor never types keep their
 * JSON key in parentheses there, for the API client's developer.
 */
const NAMED_FIELDS = new Set([
  "name",
  "email",
  "shareCode",
  "phone",
  "lang",
  "code",
  "userId",
  "atractivoSlug",
  "rating",
  "notes",
  "guest",
  "message",
  "history",
  "location",
  "checkInId",
  "claimedAt",
  "position",
  "atractivo",
]);

/** Fields with their own sentence for a failed `format` (`invalid.<field>.<format>`). */
const OWN_FORMATS = new Set(["email.email", "shareCode.regex", "phone.regex"]);

/** zod's string formats with a sentence (`invalid.format.<name>`). */
const FORMATS: Record<string, string> = {
  email: "email",
  guid: "uuid",
  uuid: "uuid",
  url: "url",
};

/** zod's types with a sentence (`invalid.type`'s `type` select). */
const TYPES = new Set([
  "string",
  "number",
  "int",
  "boolean",
  "object",
  "array",
  "null",
]);

/**
 * The sentence for a zod issue of a request body, as a catalogue message
 * said later in the request's language, and the field it is about
 * (`undefined` for the body as a whole). `body` is the value that was
 * validated: it tells a missing field from one of the wrong type (`null`
 * included: an optional field may be left out, not sent as null), and an
 * empty text from one of invisible characters only, which the issue alone
 * does not.
 */
export function getIssueMessage(
  issue: IssueLike,
  body: unknown,
): { field?: string; message: ApiText } {
  let path = issue.path.map(String);
  if (issue.code === "unrecognized_keys" && issue.keys?.length) {
    // Not raised today (bodies are not strict), but said well if it ever is.
    path = [...path, issue.keys[0]];
    const quoted = issue.keys.map((name) =>
      apiMessage("invalid.quoted", { name })
    );
    return {
      field: path.join("."),
      message: apiMessage("invalid.unknownFields", {
        count: issue.keys.length,
        keys: (lang) => quoted.map((key) => sayApiText(key, lang)).join(", "),
      }),
    };
  }
  const field = path.length ? path.join(".") : undefined;
  return { field, message: sentence(issue, field, valueAt(body, path)) };
}

/**
 * {@linkcode getIssueMessage}'s sentence said in `lang` (Spanish by
 * default), with its field.
 */
export function describeIssue(
  issue: IssueLike,
  body: unknown,
  lang: Lang = DEFAULT_LANG,
): { field?: string; details: string } {
  const { field, message } = getIssueMessage(issue, body);
  return { field, details: sayApiText(message, lang) };
}

function sentence(
  issue: IssueLike,
  field: string | undefined,
  value: unknown,
): ApiText {
  const named = field === undefined
    ? "body"
    : NAMED_FIELDS.has(field)
    ? field
    : "other";
  const subject: Record<string, ApiValue> = {
    field: apiMessage(`field.${named}`, { name: field ?? "" }),
    // The field's grammatical form, in each language's own terms.
    form: (lang) => getMessage(lang, `api.fieldForm.${named}`),
  };
  const say = (key: string, values: Record<string, ApiValue> = {}) =>
    apiMessage(`invalid.${key}`, { ...subject, ...values });
  if (
    (issue.code === "too_small" || issue.code === "invalid_format") &&
    typeof value === "string" && value.trim() === ""
  ) {
    // "" or spaces: not "must look like x@y.mx" but "it is empty".
    return say("empty");
  }
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return say("required");
      return TYPES.has(issue.expected ?? "")
        ? say("type", { type: issue.expected! })
        : say("wrongType");
    case "too_small": {
      const n = Number(issue.minimum);
      if (issue.origin === "string") {
        if (n <= 1 && typeof value === "string") {
          // Not empty as sent: what was left after cleaning is (controls,
          // zero-width and bidi characters are removed).
          return say("noVisible");
        }
        return n <= 1 ? say("empty") : say("minChars", { n });
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return say("minItems", { n });
      }
      return say(issue.inclusive === false ? "greaterThan" : "atLeast", { n });
    }
    case "too_big": {
      const n = Number(issue.maximum);
      if (issue.origin === "string") return say("maxChars", { n });
      if (issue.origin === "array" || issue.origin === "set") {
        return say("maxItems", { n });
      }
      return say(issue.inclusive === false ? "lessThan" : "atMost", { n });
    }
    case "invalid_format": {
      const format = issue.format ?? "";
      if (OWN_FORMATS.has(`${field}.${format}`)) {
        return apiMessage(`invalid.${field}.${format}`);
      }
      return FORMATS[format]
        ? say(`format.${FORMATS[format]}`)
        : say("badFormat");
    }
    case "invalid_value":
      if (issue.values?.length) {
        const values = issue.values.map((v) => JSON.stringify(v)).join(", ");
        return say(issue.values.length === 1 ? "oneValue" : "oneOf", {
          values,
        });
      }
      return say("invalid");
    case "custom":
      // A refinement's message is written by us, as a sentence.
      return issue.message ?? say("invalid");
    default:
      return say("invalid");
  }
}

/** The value at `path` in `body`, or `undefined`. */
function valueAt(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Every validation error of every endpoint, against the exact Spanish text a
 * visitor (or an API client) reads: one row per field and failure mode, plus
 * the body as a whole (malformed JSON, no body, not JSON, not an object). The
 * sentences are ours (lib/http/validation_messages.ts), never zod's locale.
 */
import assert from "node:assert/strict";
import { parseChatInput } from "@/lib/chat/input.ts";
import { getChatReply } from "@/lib/chat/replies.ts";
import { BadRequestError } from "@/lib/errors/mod.ts";
import { createTestContext, randomUserId, UUID } from "../test_utils.ts";

const TICKET = "/api/turismo/ticket";
const VERIFY = "/api/turismo/verify-visit";
const RATE = "/api/turismo/rate-visit";
const SESSION = "/api/session-token";
const CHAT = "/api/chat";

/** Endpoints that need a bearer token: their rows are sent with one for {@linkcode USER}. */
const BEARER = new Set([VERIFY, RATE]);
const USER = randomUserId();

interface Row {
  endpoint: string;
  /** What the row tries; the body is JSON of `body` unless `raw` is given. */
  what: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  status: number;
  /** `field` of a 400 (absent for the body as a whole). */
  field?: string;
  /** The exact `details`; for the chat, the exact `reply`. */
  text: string;
}

const ticket = (overrides: Record<string, unknown>) => ({
  name: "Ana López",
  email: "ana@ejemplo.mx",
  shareCode: `vm-${crypto.randomUUID().slice(0, 8)}`,
  ...overrides,
});
const verify = (overrides: Record<string, unknown>) => ({
  code: "PLZ4KA",
  userId: USER,
  ...overrides,
});
const rate = (overrides: Record<string, unknown>) => ({
  userId: USER,
  atractivoSlug: "plaza-principal",
  rating: 5,
  ...overrides,
});
const omit = undefined; // JSON.stringify drops an undefined field: "missing"

const SHARE_CODE =
  "El código del boleto (shareCode) debe tener de 4 a 64 caracteres: letras sin acentos, dígitos, guion (-) o guion bajo (_).";
const PHONE = "El teléfono solo admite dígitos, espacios y los signos + ( ) -.";
const USER_ID_UUID =
  "El identificador de usuario (userId) debe ser un UUID, como 123e4567-e89b-42d3-a456-426614174000.";
const BODY_NOT_OBJECT = "El cuerpo de la solicitud debe ser un objeto JSON.";
const MALFORMED = "El cuerpo de la solicitud no es JSON válido.";
const EMPTY = "El cuerpo de la solicitud está vacío: envía un objeto JSON.";
const NOT_JSON = "Envía el cuerpo de la solicitud como application/json.";

/** The body-level failures every JSON endpoint shares. */
function bodyRows(endpoint: string): Row[] {
  const chat = endpoint === CHAT;
  return [
    {
      endpoint,
      what: "malformed JSON",
      raw: '{"name": ',
      status: 400,
      text: chat ? getChatReply(400) : MALFORMED,
    },
    {
      endpoint,
      what: "no body",
      raw: "",
      status: 400,
      text: chat ? getChatReply(400) : EMPTY,
    },
    {
      endpoint,
      what: "text/plain",
      raw: "hola",
      contentType: "text/plain",
      status: 415,
      text: chat ? getChatReply(415) : NOT_JSON,
    },
    {
      endpoint,
      what: "a form",
      raw: "name=Ana",
      contentType: "application/x-www-form-urlencoded",
      status: 415,
      text: chat ? getChatReply(415) : NOT_JSON,
    },
    {
      endpoint,
      what: "an array",
      body: [1, 2],
      status: 400,
      text: chat ? getChatReply(400) : BODY_NOT_OBJECT,
    },
    {
      endpoint,
      what: "a string",
      body: "hola",
      status: 400,
      text: chat ? getChatReply(400) : BODY_NOT_OBJECT,
    },
    {
      endpoint,
      what: "null",
      body: null,
      status: 400,
      text: chat ? getChatReply(400) : BODY_NOT_OBJECT,
    },
  ];
}

const ROWS: Row[] = [
  // POST /api/turismo/ticket
  ...bodyRows(TICKET),
  {
    endpoint: TICKET,
    what: "name missing",
    body: ticket({ name: omit }),
    status: 400,
    field: "name",
    text: "El nombre es obligatorio.",
  },
  {
    endpoint: TICKET,
    what: "name null",
    body: ticket({ name: null }),
    status: 400,
    field: "name",
    text: "El nombre debe ser texto.",
  },
  {
    endpoint: TICKET,
    what: "name a number",
    body: ticket({ name: 42 }),
    status: 400,
    field: "name",
    text: "El nombre debe ser texto.",
  },
  {
    endpoint: TICKET,
    what: "name empty",
    body: ticket({ name: "" }),
    status: 400,
    field: "name",
    text: "El nombre no puede estar vacío.",
  },
  {
    endpoint: TICKET,
    what: "name only spaces",
    body: ticket({ name: "   " }),
    status: 400,
    field: "name",
    text: "El nombre no puede estar vacío.",
  },
  {
    endpoint: TICKET,
    what: "name only invisible characters",
    body: ticket({ name: "\u200B\u202E\u0007" }),
    status: 400,
    field: "name",
    text: "El nombre no tiene ningún carácter visible.",
  },
  {
    endpoint: TICKET,
    what: "name too long",
    body: ticket({ name: "x".repeat(121) }),
    status: 400,
    field: "name",
    text: "El nombre admite como máximo 120 caracteres.",
  },
  {
    endpoint: TICKET,
    what: "email missing",
    body: ticket({ email: omit }),
    status: 400,
    field: "email",
    text: "El correo electrónico es obligatorio.",
  },
  {
    endpoint: TICKET,
    what: "email a number",
    body: ticket({ email: 5 }),
    status: 400,
    field: "email",
    text: "El correo electrónico debe ser texto.",
  },
  {
    endpoint: TICKET,
    what: "email empty",
    body: ticket({ email: " " }),
    status: 400,
    field: "email",
    text: "El correo electrónico no puede estar vacío.",
  },
  {
    endpoint: TICKET,
    what: "email not an address",
    body: ticket({ email: "no-es-correo" }),
    status: 400,
    field: "email",
    text:
      "El correo electrónico no es válido. Revisa que esté escrito como nombre@ejemplo.com.",
  },
  {
    endpoint: TICKET,
    what: "email too long",
    body: ticket({ email: `${"a".repeat(250)}@b.mx` }),
    status: 400,
    field: "email",
    text: "El correo electrónico admite como máximo 254 caracteres.",
  },
  {
    endpoint: TICKET,
    what: "shareCode missing",
    body: ticket({ shareCode: omit }),
    status: 400,
    field: "shareCode",
    text: "El código del boleto (shareCode) es obligatorio.",
  },
  {
    endpoint: TICKET,
    what: "shareCode a number",
    body: ticket({ shareCode: 12345 }),
    status: 400,
    field: "shareCode",
    text: "El código del boleto (shareCode) debe ser texto.",
  },
  {
    endpoint: TICKET,
    what: "shareCode empty",
    body: ticket({ shareCode: "" }),
    status: 400,
    field: "shareCode",
    text: "El código del boleto (shareCode) no puede estar vacío.",
  },
  {
    endpoint: TICKET,
    what: "shareCode too short",
    body: ticket({ shareCode: "abc" }),
    status: 400,
    field: "shareCode",
    text: SHARE_CODE,
  },
  {
    endpoint: TICKET,
    what: "shareCode too long",
    body: ticket({ shareCode: "x".repeat(65) }),
    status: 400,
    field: "shareCode",
    text: SHARE_CODE,
  },
  {
    endpoint: TICKET,
    what: "shareCode with spaces",
    body: ticket({ shareCode: "con espacios" }),
    status: 400,
    field: "shareCode",
    text: SHARE_CODE,
  },
  {
    endpoint: TICKET,
    what: "shareCode a path",
    body: ticket({ shareCode: "../../etc" }),
    status: 400,
    field: "shareCode",
    text: SHARE_CODE,
  },
  {
    endpoint: TICKET,
    what: "phone a number",
    body: ticket({ phone: 3741234567 }),
    status: 400,
    field: "phone",
    text: "El teléfono debe ser texto.",
  },
  {
    endpoint: TICKET,
    what: "phone null",
    body: ticket({ phone: null }),
    status: 400,
    field: "phone",
    text: "El teléfono debe ser texto.",
  },
  {
    endpoint: TICKET,
    what: "phone with letters",
    body: ticket({ phone: "llámame" }),
    status: 400,
    field: "phone",
    text: PHONE,
  },
  {
    endpoint: TICKET,
    what: "phone too long",
    body: ticket({ phone: "1".repeat(33) }),
    status: 400,
    field: "phone",
    text: "El teléfono admite como máximo 32 caracteres.",
  },
  {
    endpoint: TICKET,
    what: "an unknown field is ignored",
    body: ticket({ apodo: "Anita" }),
    status: 200,
    text: "",
  },

  // POST /api/turismo/verify-visit (bearer)
  ...bodyRows(VERIFY),
  {
    endpoint: VERIFY,
    what: "code missing",
    body: verify({ code: omit }),
    status: 400,
    field: "code",
    text: "El código de guía es obligatorio.",
  },
  {
    endpoint: VERIFY,
    what: "code a number",
    body: verify({ code: 123456 }),
    status: 400,
    field: "code",
    text: "El código de guía debe ser texto.",
  },
  {
    endpoint: VERIFY,
    what: "code too long",
    body: verify({ code: "x".repeat(65) }),
    status: 400,
    field: "code",
    text: "El código de guía admite como máximo 64 caracteres.",
  },
  {
    endpoint: VERIFY,
    what: "userId missing",
    body: verify({ userId: omit }),
    status: 400,
    field: "userId",
    text: "El identificador de usuario (userId) es obligatorio.",
  },
  {
    endpoint: VERIFY,
    what: "userId a number",
    body: verify({ userId: 42 }),
    status: 400,
    field: "userId",
    text: "El identificador de usuario (userId) debe ser texto.",
  },
  {
    endpoint: VERIFY,
    what: "userId empty",
    body: verify({ userId: "" }),
    status: 400,
    field: "userId",
    text: "El identificador de usuario (userId) no puede estar vacío.",
  },
  {
    endpoint: VERIFY,
    what: "userId not a UUID",
    body: verify({ userId: "usuario-1" }),
    status: 400,
    field: "userId",
    text: USER_ID_UUID,
  },

  // POST /api/turismo/rate-visit (bearer)
  ...bodyRows(RATE),
  {
    endpoint: RATE,
    what: "userId missing",
    body: rate({ userId: omit }),
    status: 400,
    field: "userId",
    text: "El identificador de usuario (userId) es obligatorio.",
  },
  {
    endpoint: RATE,
    what: "userId a number",
    body: rate({ userId: 42 }),
    status: 400,
    field: "userId",
    text: "El identificador de usuario (userId) debe ser texto.",
  },
  {
    endpoint: RATE,
    what: "userId not a UUID",
    body: rate({ userId: "no-uuid" }),
    status: 400,
    field: "userId",
    text: USER_ID_UUID,
  },
  {
    endpoint: RATE,
    what: "atractivoSlug missing",
    body: rate({ atractivoSlug: omit }),
    status: 400,
    field: "atractivoSlug",
    text: "El identificador del atractivo (atractivoSlug) es obligatorio.",
  },
  {
    endpoint: RATE,
    what: "atractivoSlug a number",
    body: rate({ atractivoSlug: 7 }),
    status: 400,
    field: "atractivoSlug",
    text: "El identificador del atractivo (atractivoSlug) debe ser texto.",
  },
  {
    endpoint: RATE,
    what: "atractivoSlug too long",
    body: rate({ atractivoSlug: "x".repeat(101) }),
    status: 400,
    field: "atractivoSlug",
    text:
      "El identificador del atractivo (atractivoSlug) admite como máximo 100 caracteres.",
  },
  {
    endpoint: RATE,
    what: "notes a number",
    body: rate({ notes: 3 }),
    status: 400,
    field: "notes",
    text: "Las notas deben ser texto.",
  },
  {
    endpoint: RATE,
    what: "notes a list",
    body: rate({ notes: ["a"] }),
    status: 400,
    field: "notes",
    text: "Las notas deben ser texto.",
  },
  {
    endpoint: RATE,
    what: "notes an object",
    body: rate({ notes: { text: "a" } }),
    status: 400,
    field: "notes",
    text: "Las notas deben ser texto.",
  },
  {
    endpoint: RATE,
    what: "a rating out of range is saved as null, not refused",
    body: rate({ rating: "cinco", notes: null }),
    status: 200,
    text: "",
  },

  // POST /api/session-token
  ...bodyRows(SESSION),
  {
    endpoint: SESSION,
    what: "guest a string",
    body: { guest: "sí" },
    status: 400,
    field: "guest",
    text: "La opción de pasaporte de invitado (guest) debe ser true o false.",
  },
  {
    endpoint: SESSION,
    what: "guest a number",
    body: { guest: 1 },
    status: 400,
    field: "guest",
    text: "La opción de pasaporte de invitado (guest) debe ser true o false.",
  },
  {
    endpoint: SESSION,
    what: "guest null",
    body: { guest: null },
    status: 400,
    field: "guest",
    text: "La opción de pasaporte de invitado (guest) debe ser true o false.",
  },
  {
    endpoint: SESSION,
    what: "a valid body without a session goes on to the sign-in check",
    body: { guest: false },
    status: 401,
    text: "No has iniciado sesión o tu sesión caducó",
  },

  // POST /api/chat: errors are {reply} (docs/API.md, chat)
  ...bodyRows(CHAT),
  {
    endpoint: CHAT,
    what: "message missing",
    body: { history: [] },
    status: 400,
    text: getChatReply(400),
  },
  {
    endpoint: CHAT,
    what: "message a number",
    body: { message: 42 },
    status: 400,
    text: getChatReply(400),
  },
  {
    endpoint: CHAT,
    what: "message only spaces",
    body: { message: "  \n " },
    status: 400,
    text: getChatReply(400),
  },
  {
    endpoint: CHAT,
    what: "a bad history and location are ignored, not refused",
    body: { message: "hola", history: "nada", location: { lat: 500 } },
    status: 503, // no model is configured here
    text: getChatReply(503),
  },
];

/** What zod's locales write (Spanish or English), or a field prefix ("email: "). */
const ZODISMS =
  /Inválid[oa] [a-z]|se esperaba|GUID|<=|>=|Too (big|small)|Invalid|expected|received|^\w+: /;

Deno.test("every validation error of every endpoint, word for word", async (t) => {
  await using ctx = await createTestContext();
  const token = await ctx.tokenFor(USER);
  // The rate-visit rows that pass need a verified visit.
  const verified = await ctx.app.request(VERIFY, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(verify({})),
  });
  assert.equal(verified.status, 200, await verified.text());

  for (const row of ROWS) {
    await t.step(`${row.endpoint}: ${row.what} → ${row.status}`, async () => {
      const res = await ctx.app.request(row.endpoint, {
        method: "POST",
        headers: {
          "content-type": row.contentType ?? "application/json",
          ...(BEARER.has(row.endpoint)
            ? { authorization: `Bearer ${token}` }
            : {}),
        },
        body: row.raw ?? JSON.stringify(row.body),
      });
      assert.equal(res.status, row.status);
      assert.match(res.headers.get("content-type")!, /^application\/json/);
      const body = await res.json();
      if (row.status === 200) {
        assert.equal(typeof body, "object");
        return;
      }
      if (row.endpoint === CHAT) {
        assert.deepEqual(body, { reply: row.text });
        return;
      }
      assert.deepEqual(body, {
        error: {
          400: "Solicitud no válida",
          401: "No autorizado",
          403: "Prohibido",
          415: "Tipo de contenido no admitido",
        }[row.status],
        details: row.text,
        ...(row.field ? { field: row.field } : {}),
      });
    });
  }

  await t.step("no text is zod's, and each is a Spanish sentence", () => {
    for (const row of ROWS.filter((row) => row.text)) {
      assert.doesNotMatch(row.text, ZODISMS, row.what);
    }
    for (const row of ROWS.filter((row) => row.status === 400 && row.field)) {
      assert.match(row.text, /^[A-ZÁÉÍÓÚ][^]*\.$/, row.what);
    }
  });

  await t.step("every validated field of every endpoint has rows", () => {
    const fields = (endpoint: string) =>
      new Set(
        ROWS.filter((row) => row.endpoint === endpoint && row.field)
          .map((row) => row.field),
      );
    assert.deepEqual(
      fields(TICKET),
      new Set(["name", "email", "shareCode", "phone"]),
    );
    assert.deepEqual(fields(VERIFY), new Set(["code", "userId"]));
    // rating is never refused: anything but 1 to 5 is saved as null.
    assert.deepEqual(
      fields(RATE),
      new Set(["userId", "atractivoSlug", "notes"]),
    );
    assert.deepEqual(fields(SESSION), new Set(["guest"]));
  });

  await t.step("the example UUID in the message is one", () => {
    assert.match(USER_ID_UUID.match(/[0-9a-f-]{36}/)![0], UUID);
  });
});

// The chat answers {reply}, but its details are worded as everywhere else.
Deno.test("the chat's message errors are worded as the others", () => {
  const details = (message: unknown) => {
    try {
      parseChatInput({ message });
    } catch (error) {
      assert.ok(error instanceof BadRequestError);
      assert.equal(error.options.body?.field, "message");
      return error.details;
    }
    assert.fail("no error");
  };
  assert.equal(details(undefined), "El mensaje es obligatorio.");
  assert.equal(details(42), "El mensaje debe ser texto.");
  assert.equal(details(" \n "), "El mensaje no puede estar vacío.");
});

/**
 * Each Spanish text of {@linkcode ROWS} as a client whose `Accept-Language`
 * prefers English reads it (docs/API.md, "Languages").
 */
const ENGLISH: Record<string, string> = {
  [MALFORMED]: "The request body is not valid JSON.",
  [EMPTY]: "The request body is empty: send a JSON object.",
  [NOT_JSON]: "Send the request body as application/json.",
  [BODY_NOT_OBJECT]: "The request body must be a JSON object.",
  "El nombre es obligatorio.": "The name is required.",
  "El nombre debe ser texto.": "The name must be text.",
  "El nombre no puede estar vacío.": "The name cannot be empty.",
  "El nombre no tiene ningún carácter visible.":
    "The name has no visible characters.",
  "El nombre admite como máximo 120 caracteres.":
    "The name can be at most 120 characters long.",
  "El correo electrónico es obligatorio.": "The email address is required.",
  "El correo electrónico debe ser texto.": "The email address must be text.",
  "El correo electrónico no puede estar vacío.":
    "The email address cannot be empty.",
  "El correo electrónico no es válido. Revisa que esté escrito como nombre@ejemplo.com.":
    "The email address is not valid. Check that it is written like name@example.com.",
  "El correo electrónico admite como máximo 254 caracteres.":
    "The email address can be at most 254 characters long.",
  "El código del boleto (shareCode) es obligatorio.":
    "The ticket code (shareCode) is required.",
  "El código del boleto (shareCode) debe ser texto.":
    "The ticket code (shareCode) must be text.",
  "El código del boleto (shareCode) no puede estar vacío.":
    "The ticket code (shareCode) cannot be empty.",
  [SHARE_CODE]:
    "The ticket code (shareCode) must be 4 to 64 characters long: unaccented letters, digits, hyphens (-) or underscores (_).",
  "El teléfono debe ser texto.": "The phone number must be text.",
  [PHONE]:
    "The phone number can only contain digits, spaces and the signs + ( ) -.",
  "El teléfono admite como máximo 32 caracteres.":
    "The phone number can be at most 32 characters long.",
  "El código de guía es obligatorio.": "The guide code is required.",
  "El código de guía debe ser texto.": "The guide code must be text.",
  "El código de guía admite como máximo 64 caracteres.":
    "The guide code can be at most 64 characters long.",
  "El identificador de usuario (userId) es obligatorio.":
    "The user ID (userId) is required.",
  "El identificador de usuario (userId) debe ser texto.":
    "The user ID (userId) must be text.",
  "El identificador de usuario (userId) no puede estar vacío.":
    "The user ID (userId) cannot be empty.",
  [USER_ID_UUID]:
    "The user ID (userId) must be a UUID, such as 123e4567-e89b-42d3-a456-426614174000.",
  "El identificador del atractivo (atractivoSlug) es obligatorio.":
    "The attraction ID (atractivoSlug) is required.",
  "El identificador del atractivo (atractivoSlug) debe ser texto.":
    "The attraction ID (atractivoSlug) must be text.",
  "El identificador del atractivo (atractivoSlug) admite como máximo 100 caracteres.":
    "The attraction ID (atractivoSlug) can be at most 100 characters long.",
  "Las notas deben ser texto.": "The notes must be text.",
  "La opción de pasaporte de invitado (guest) debe ser true o false.":
    "The guest passport option (guest) must be true or false.",
  "No has iniciado sesión o tu sesión caducó":
    "You are not signed in, or your session has expired",
  [getChatReply(400)]:
    "I didn’t get a valid message. Type your question and try again.",
  [getChatReply(503)]:
    "The chat isn’t available right now. Please try again later.",
};

/** The English `error` of each status the rows meet. */
const ENGLISH_ERRORS: Record<number, string> = {
  400: "Invalid request",
  401: "Unauthorized",
  403: "Forbidden",
  415: "Unsupported content type",
};

Deno.test("every validation error in English when Accept-Language prefers it", async (t) => {
  await using ctx = await createTestContext();
  const token = await ctx.tokenFor(USER);
  const verified = await ctx.app.request(VERIFY, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(verify({})),
  });
  assert.equal(verified.status, 200, await verified.text());
  const send = (row: Row, acceptLanguage: string) =>
    ctx.app.request(row.endpoint, {
      method: "POST",
      headers: {
        "content-type": row.contentType ?? "application/json",
        "accept-language": acceptLanguage,
        ...(BEARER.has(row.endpoint)
          ? { authorization: `Bearer ${token}` }
          : {}),
      },
      body: row.raw ?? JSON.stringify(row.body),
    });

  for (const row of ROWS.filter((row) => row.status !== 200)) {
    await t.step(
      `${row.endpoint}: ${row.what} → ${row.status}, in English`,
      async () => {
        const res = await send(row, "en-US,en;q=0.9,es;q=0.5");
        assert.equal(res.status, row.status);
        const body = await res.json();
        const english = ENGLISH[row.text];
        assert.ok(english, `no English text for: ${row.text}`);
        if (row.endpoint === CHAT) {
          assert.deepEqual(body, { reply: english });
          return;
        }
        assert.deepEqual(body, {
          error: ENGLISH_ERRORS[row.status],
          details: english,
          ...(row.field ? { field: row.field } : {}),
        });
      },
    );
  }

  await t.step("each English text is a sentence with no Spanish in it", () => {
    for (const english of Object.values(ENGLISH)) {
      assert.doesNotMatch(english, ZODISMS);
      assert.doesNotMatch(english, /[áéíóúñ¿¡]| debe | el | la /i, english);
    }
  });

  const row = ROWS.find((row) => row.what === "email not an address")!;
  for (
    const [header, expected] of [
      ["es-MX,es;q=0.9,en;q=0.8", row.text],
      ["en;q=0.4, es;q=0.6", row.text],
      ["de-DE,de;q=0.9", row.text],
      ["fr-FR,fr;q=0.9,en;q=0.5", ENGLISH[row.text]],
    ]
  ) {
    await t.step(
      `Accept-Language "${header}": ${
        expected === row.text ? "Spanish" : "English"
      }`,
      async () => {
        const res = await send(row, header);
        assert.equal(res.status, 400);
        assert.equal((await res.json()).details, expected);
      },
    );
  }
});

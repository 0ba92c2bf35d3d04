import assert from "node:assert/strict";
import { z } from "zod";
import { describeIssue } from "./validation_messages.ts";

/** The sentence for `body` checked against `schema` (its first issue). */
function say(schema: z.ZodType, body: unknown) {
  const result = schema.safeParse(body);
  assert.ok(!result.success, JSON.stringify(body));
  return describeIssue(result.error.issues[0], body);
}

Deno.test("validation messages agree with the field's gender and number", () => {
  const notes = z.object({ notes: z.string().min(1).max(3) });
  assert.deepEqual(say(notes, {}), {
    field: "notes",
    details: "Las notas son obligatorias.",
  });
  assert.equal(
    say(notes, { notes: "" }).details,
    "Las notas no pueden estar vacías.",
  );
  assert.equal(
    say(notes, { notes: "abcd" }).details,
    "Las notas admiten como máximo 3 caracteres.",
  );
  const rating = z.object({ rating: z.number().int().min(1).max(5) });
  assert.equal(say(rating, {}).details, "La calificación es obligatoria.");
  assert.equal(
    say(rating, { rating: "5" }).details,
    "La calificación debe ser un número.",
  );
  assert.equal(
    say(rating, { rating: 2.5 }).details,
    "La calificación debe ser un número entero.",
  );
  assert.equal(
    say(rating, { rating: 0 }).details,
    "La calificación debe ser como mínimo 1.",
  );
  assert.equal(
    say(rating, { rating: 6 }).details,
    "La calificación debe ser como máximo 5.",
  );
  const code = z.object({ code: z.string().min(4) });
  assert.equal(
    say(code, { code: "ab" }).details,
    "El código de guía debe tener al menos 4 caracteres.",
  );
});

Deno.test("validation messages for the rarer issues and unknown fields", () => {
  assert.deepEqual(say(z.object({ apodo: z.string() }), {}), {
    field: "apodo",
    details: "El campo «apodo» es obligatorio.",
  });
  assert.deepEqual(
    say(z.object({ history: z.array(z.string()).max(1) }), {
      history: ["a", "b"],
    }),
    {
      field: "history",
      details: "El historial de la conversación admite como máximo 1 elemento.",
    },
  );
  assert.deepEqual(
    say(z.object({ history: z.array(z.string()) }), { history: [1] }),
    { field: "history.0", details: "El campo «history.0» debe ser texto." },
  );
  assert.deepEqual(say(z.strictObject({}), { a: 1, b: 2 }), {
    field: "a",
    details: "Los campos «a», «b» no se admiten.",
  });
  assert.equal(
    say(z.object({ location: z.enum(["centro", "norte"]) }), {
      location: "sur",
    }).details,
    'La ubicación debe ser uno de estos valores: "centro", "norte".',
  );
  assert.equal(
    say(
      z.object({
        name: z.string().refine(() => false, "Ese nombre ya existe."),
      }),
      { name: "Ana" },
    ).details,
    "Ese nombre ya existe.",
  );
  assert.equal(
    say(z.object({ guest: z.url() }), { guest: "nada" }).details,
    "La opción de pasaporte de invitado (guest) debe ser una dirección web (URL) válida.",
  );
  assert.deepEqual(say(z.object({}), 3), {
    field: undefined,
    details: "El cuerpo de la solicitud debe ser un objeto JSON.",
  });
});

Deno.test("validation messages in English agree with the field's number", () => {
  const en = (schema: z.ZodType, body: unknown) => {
    const result = schema.safeParse(body);
    assert.ok(!result.success, JSON.stringify(body));
    return describeIssue(result.error.issues[0], body, "en").details;
  };
  const notes = z.object({ notes: z.string().min(1).max(3) });
  assert.equal(en(notes, {}), "The notes are required.");
  assert.equal(en(notes, { notes: "" }), "The notes cannot be empty.");
  assert.equal(
    en(notes, { notes: "abcd" }),
    "The notes can be at most 3 characters long.",
  );
  const rating = z.object({ rating: z.number().int().min(1).max(5) });
  assert.equal(en(rating, {}), "The rating is required.");
  assert.equal(en(rating, { rating: "5" }), "The rating must be a number.");
  assert.equal(
    en(rating, { rating: 2.5 }),
    "The rating must be a whole number.",
  );
  assert.equal(en(rating, { rating: 0 }), "The rating must be at least 1.");
  assert.equal(en(rating, { rating: 6 }), "The rating must be at most 5.");
  assert.equal(
    en(z.object({ code: z.string().min(4) }), { code: "ab" }),
    "The guide code must be at least 4 characters long.",
  );
  assert.equal(
    en(z.object({ history: z.array(z.string()).max(1) }), {
      history: ["a", "b"],
    }),
    "The conversation history can have at most 1 item.",
  );
  assert.equal(
    en(z.object({ history: z.array(z.string()) }), { history: [1] }),
    'The field "history.0" must be text.',
  );
  assert.equal(
    en(z.strictObject({}), { a: 1, b: 2 }),
    'The fields "a", "b" are not accepted.',
  );
  assert.equal(
    en(z.strictObject({}), { a: 1 }),
    'The field "a" is not accepted.',
  );
  assert.equal(
    en(z.object({ location: z.enum(["centro", "norte"]) }), {
      location: "sur",
    }),
    'The location must be one of these values: "centro", "norte".',
  );
  assert.equal(
    en(z.object({ guest: z.url() }), { guest: "nada" }),
    "The guest passport option (guest) must be a valid web address (URL).",
  );
  assert.equal(en(z.object({}), 3), "The request body must be a JSON object.");
});

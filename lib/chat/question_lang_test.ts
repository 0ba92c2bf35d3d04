import assert from "node:assert/strict";
import { detectQuestionLang, getReplyLang } from "./question_lang.ts";

Deno.test("detectQuestionLang: tourist questions, full of Spanish names", () => {
  const cases: [string, string | null][] = [
    ["how far is Guadalajara", "en"],
    ["What time does José Cuervo open?", "en"],
    ["Is the Tequila Express running on Saturday?", "en"],
    ["where can I eat birria", "en"],
    ["How much is the tour at La Rojeña?", "en"],
    ["¿Qué horario tiene la Destilería La Rojeña?", "es"],
    ["precio del tour de 2 horas", "es"],
    ["¿hay algo el 16 de septiembre?", "es"],
    ["donde puedo comer birria", "es"],
    ["¿Cuánto cuesta el Tequila Express?", "es"],
    ["Mundo Cuervo", null],
    ["tequila tour", null],
    ["ok", null],
    ["Hola", null],
    ["Hello", null],
    ["", null],
  ];
  for (const [question, lang] of cases) {
    assert.equal(detectQuestionLang(question), lang, question);
  }
});

Deno.test("getReplyLang: the question, else the last clear one, else the page", () => {
  const history = [{ role: "user", content: "Where can I buy tickets?" }];
  assert.equal(
    getReplyLang({ message: "Mundo Cuervo?", history, pageLang: "es" }),
    "en",
  );
  assert.equal(
    getReplyLang({ message: "Mundo Cuervo?", history: [], pageLang: "es" }),
    "es",
  );
  assert.equal(
    getReplyLang({ message: "¿Dónde está?", history, pageLang: "en" }),
    "es",
  );
});

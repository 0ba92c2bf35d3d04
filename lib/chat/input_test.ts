import assert from "node:assert/strict";
import { BadRequestError } from "@/lib/errors/mod.ts";
import { parseChatInput, truncateChars } from "./input.ts";

Deno.test("truncateChars counts code points, so an emoji is never split", () => {
  assert.equal(truncateChars("hola", 10), "hola");
  assert.equal(truncateChars("abcdef", 3), "abc");
  const cut = truncateChars("🌵".repeat(10), 3);
  assert.equal(cut, "🌵🌵🌵");
  assert.equal([...cut].length, 3);
  assert.equal(cut.length, 6);
});

Deno.test("parseChatInput trims and cuts the message and refuses an empty one", () => {
  assert.equal(parseChatInput({ message: "  hola  " }).message, "hola");
  assert.equal(
    parseChatInput({ message: "x".repeat(501) }).message,
    "x".repeat(500),
  );
  for (const message of ["", "  \n\t ", 42, null, undefined, {}]) {
    assert.throws(
      () => parseChatInput({ message }),
      BadRequestError,
      JSON.stringify(message),
    );
  }
});

Deno.test("parseChatInput keeps the last 8 valid history entries", () => {
  const valid = Array.from({ length: 10 }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: ` turno ${i} `,
  }));
  const { history } = parseChatInput({
    message: "hola",
    history: [...valid, { role: "system", content: "x" }, { role: "user" }],
  });
  assert.deepEqual(
    history,
    valid.slice(2).map((m) => ({ ...m, content: m.content.trim() })),
  );
  assert.deepEqual(
    parseChatInput({ message: "hola", history: { 0: valid[0] } }).history,
    [],
  );
  assert.deepEqual(
    parseChatInput({
      message: "hola",
      history: [{ role: "user", content: "   " }],
    }).history,
    [],
  );
});

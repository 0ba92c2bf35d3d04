import assert from "node:assert/strict";
import { ticketNameSchema } from "./schemas.ts";

Deno.test("ticket names: trimmed, cleaned, 1 to 120 characters", async (t) => {
  await t.step("trims and collapses whitespace, keeps accents", () => {
    assert.equal(
      ticketNameSchema.parse("  María   José\tÑúñez  "),
      "María José Ñúñez",
    );
  });

  await t.step("removes controls, bidi overrides and zero-width marks", () => {
    assert.equal(
      ticketNameSchema.parse("Ana\u202E zíuR\u200B\u0007"),
      "Ana zíuR",
    );
  });

  await t.step("120 characters pass, 121 do not", () => {
    assert.equal(ticketNameSchema.parse("a".repeat(120)), "a".repeat(120));
    assert.equal(ticketNameSchema.safeParse("a".repeat(121)).success, false);
  });

  await t.step("a name of nothing visible is refused", () => {
    for (const name of ["", "   ", "\u200B\u200B", "\u202E\u202D", "\u0007"]) {
      assert.equal(
        ticketNameSchema.safeParse(name).success,
        false,
        JSON.stringify(name),
      );
    }
  });
});

import assert from "node:assert/strict";
import { isShareCode } from "./share_code.ts";
import { shareCodeSchema } from "./schemas.ts";

Deno.test("share codes: 4 to 64 of A-Z a-z 0-9 _ -, one rule everywhere", async (t) => {
  const valid = ["abcd", "Ruta-Ana_01", "A".repeat(64), "0000"];
  const invalid = [
    "",
    "abc",
    "A".repeat(65),
    "ruta ana",
    "ruta/../admin",
    "ruta.ana",
    "ñandú-01",
    "ruta-01\n",
    "ruta%2F01",
  ];

  await t.step("isShareCode and the schema agree on each case", () => {
    for (const code of valid) {
      assert.equal(isShareCode(code), true, code);
      assert.equal(shareCodeSchema.safeParse(code).success, true, code);
    }
    for (const code of invalid) {
      assert.equal(isShareCode(code), false, JSON.stringify(code));
      assert.equal(
        shareCodeSchema.safeParse(code).success,
        false,
        JSON.stringify(code),
      );
    }
  });
});

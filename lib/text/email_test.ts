import assert from "node:assert/strict";
import { z } from "zod";
import { EMAIL_PATTERN, isEmailAddress } from "./email.ts";

Deno.test("e-mail addresses: the same rule as the schemas' z.email()", () => {
  assert.equal(EMAIL_PATTERN.source, z.regexes.email.source);
  assert.equal(EMAIL_PATTERN.flags, z.regexes.email.flags);
  for (
    const address of ["ana@municipio.gob.mx", "o'brien+turismo@ejemplo.mx"]
  ) {
    assert.equal(isEmailAddress(address), true, address);
    assert.equal(z.email().safeParse(address).success, true, address);
  }
  for (
    const address of [
      "",
      "ana",
      "ana@",
      "@municipio.gob.mx",
      "ana@localhost",
      "a..b@ejemplo.mx",
      "ana @ejemplo.mx",
    ]
  ) {
    assert.equal(isEmailAddress(address), false, address);
    assert.equal(z.email().safeParse(address).success, false, address);
  }
});

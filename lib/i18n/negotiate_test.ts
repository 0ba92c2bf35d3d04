import assert from "node:assert/strict";
import { negotiateLang } from "./negotiate.ts";

Deno.test("negotiateLang: the language Accept-Language prefers, else Spanish", async (t) => {
  await t.step(
    "no header, or one naming no language we have, is Spanish",
    () => {
      assert.equal(negotiateLang(undefined), "es");
      assert.equal(negotiateLang(""), "es");
      assert.equal(negotiateLang("de-DE,de;q=0.9"), "es");
      assert.equal(negotiateLang("*"), "es");
      assert.equal(negotiateLang("not a header ;;;"), "es");
    },
  );

  await t.step("a regional English tag is English", () => {
    assert.equal(negotiateLang("en-US,en;q=0.9"), "en");
    assert.equal(negotiateLang("en-GB"), "en");
    assert.equal(negotiateLang("EN-us"), "en");
    assert.equal(negotiateLang("english"), "es");
  });

  await t.step("q=0 refuses a language", () => {
    assert.equal(negotiateLang("en;q=0, fr"), "es");
    assert.equal(negotiateLang("es;q=0, en;q=0.1"), "en");
  });

  await t.step("q-values decide between Spanish and English", () => {
    assert.equal(negotiateLang("es-MX,es;q=0.9,en;q=0.8"), "es");
    assert.equal(negotiateLang("en;q=0.8, es-MX;q=0.9"), "es");
    assert.equal(negotiateLang("es;q=0.3, en;q=0.7"), "en");
    assert.equal(negotiateLang("fr-FR,fr;q=0.9,en;q=0.5"), "en");
  });

  await t.step("a tie goes to the language the header lists first", () => {
    assert.equal(negotiateLang("en;q=0.5, es;q=0.5"), "en");
    assert.equal(negotiateLang("es;q=0.5, en;q=0.5"), "es");
  });
});

import assert from "node:assert/strict";
import { cleanText, graphemes, stripInvisible } from "./clean.ts";

Deno.test("cleanText: what a visitor typed, safe to show", async (t) => {
  await t.step("anything but a string is empty", () => {
    for (const value of [undefined, null, 42, {}, ["Ana"]]) {
      assert.equal(cleanText(value, 120), "");
    }
  });

  await t.step("whitespace is collapsed and trimmed; accents kept", () => {
    assert.equal(
      cleanText("  María\n\nJosé \t Ñúñez\u2028 ", 120),
      "María José Ñúñez",
    );
  });

  await t.step(
    "controls, bidi overrides, zero-width marks and ANSI escapes go",
    () => {
      assert.equal(
        cleanText("\u202EAna\u200B Ruiz\u0007\u001B[31m!\u001B[0m\uFEFF", 120),
        "Ana Ruiz!",
      );
    },
  );

  await t.step("a lone surrogate becomes U+FFFD", () => {
    assert.equal(cleanText("Ana\uD800", 120), "Ana\uFFFD");
  });

  await t.step("cut at whole graphemes: an emoji family is never split", () => {
    const family = "👩‍👩‍👧‍👦";
    assert.equal(cleanText(`Ana ${family} Ruiz`, 5), `Ana ${family}`);
    assert.equal(cleanText("Ñandú", 3), "Ñan");
    // ZWJ and variation selectors are kept: emoji sequences need them.
    assert.equal(cleanText("❤️ 🏳️‍🌈", 10), "❤️ 🏳️‍🌈");
  });

  await t.step(
    "stacked combining marks are capped at three; a huge cluster is dropped",
    () => {
      const marks = (n: number) => "\u0301".repeat(n);
      assert.equal(cleanText(`a${marks(10)}b`, 120), `a${marks(3)}b`);
      assert.equal(cleanText(`Ana a${marks(40)} Ruiz`, 120), "Ana Ruiz");
    },
  );
});

Deno.test("stripInvisible: removes invisible characters, leaves layout", () => {
  assert.equal(
    stripInvisible("Nota:\n  línea 2\t\u202Efin\u200B\u001B[1m"),
    "Nota:\n  línea 2\tfin",
  );
});

Deno.test("graphemes: one entry per visible character", () => {
  assert.deepEqual(graphemes("añ👩‍👧"), ["a", "ñ", "👩‍👧"]);
});

import assert from "node:assert/strict";
import { createTranslate } from "./messages.ts";

Deno.test("createTranslate", async (t) => {
  const messages = {
    visits: "{count, plural, one {# visita} other {# visitas}}",
    privacy: "Más detalles en el <link>aviso de privacidad</link>.",
  };

  await t.step("formats plurals and numbers by the locale's rules", () => {
    const es = createTranslate(messages, "es-MX");
    assert.equal(es("visits", { count: 1 }), "1 visita");
    assert.equal(es("visits", { count: 1200 }), "1,200 visitas");
    const de = createTranslate({ visits: messages.visits }, "de-DE");
    assert.equal(de("visits", { count: 1200 }), "1.200 visitas");
  });

  await t.step(
    "rich renders a tag with its function, keeping the sentence whole",
    () => {
      const t = createTranslate(messages, "es-MX");
      const parts = t.rich("privacy", {
        link: (chunks) => ({ href: "/aviso", chunks }),
      });
      assert.deepEqual(parts, [
        "Más detalles en el ",
        { href: "/aviso", chunks: ["aviso de privacidad"] },
        ".",
      ]);
    },
  );

  await t.step("a missing key shows the key, not an exception", () => {
    const t = createTranslate({}, "en-US");
    assert.equal(t("nothing"), "nothing");
    assert.deepEqual(t.rich("nothing", {}), ["nothing"]);
  });
});

import assert from "node:assert/strict";
import { DEFAULT_LANG, localizePath } from "./paths.ts";
import {
  DEFAULT_LANG as SERVER_DEFAULT,
  getLangs,
} from "@/lib/i18n/catalogue.ts";
import * as server from "@/lib/i18n/paths.ts";

Deno.test("localizePath in the browser", async (t) => {
  await t.step(
    "builds the same address as the server's for every language and path",
    () => {
      assert.equal(DEFAULT_LANG, SERVER_DEFAULT);
      const paths = [
        "/",
        "/mi-pasaporte",
        "/ruta/abc234def567",
        "/turismo/atractivos/volcan-de-tequila",
        "/aviso-de-privacidad#pasaporte",
      ];
      for (const lang of getLangs()) {
        for (const path of paths) {
          assert.equal(
            localizePath(lang, path),
            server.localizePath(lang, path),
            `${lang} ${path}`,
          );
        }
      }
    },
  );

  await t.step("keeps Spanish paths and prefixes English ones", () => {
    assert.equal(localizePath("es", "/mi-pasaporte"), "/mi-pasaporte");
    assert.equal(localizePath("en", "/mi-pasaporte"), "/en/mi-pasaporte");
    assert.equal(localizePath("en", "/"), "/en/");
  });
});

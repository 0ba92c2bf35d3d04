import assert from "node:assert/strict";
import { isSafeLink, renderMarkdown } from "./markdown.ts";

Deno.test("isSafeLink", async (t) => {
  await t.step("allows http(s) and same-site paths", () => {
    for (
      const url of [
        "https://www.google.com/maps/search/?api=1&query=20.88,-103.83",
        "http://ejemplo.mx/",
        "/turismo/atractivos/plaza-principal",
        "/ruta/abc#visitas",
      ]
    ) assert.equal(isSafeLink(url), true, url);
  });

  await t.step("refuses scripts, data, other sites and odd paths", () => {
    for (
      const url of [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox",
        "//evil.example/x",
        "/\\evil.example",
        "https:evil.example",
        "mailto:a@b.mx",
        "turismo/atractivos",
        "/x\u0000y",
      ]
    ) assert.equal(isSafeLink(url), false, url);
  });
});

Deno.test("renderMarkdown", async (t) => {
  await t.step(
    "renders bold, lists and links, internal links in the same tab",
    () => {
      const html = renderMarkdown(
        "**Plaza** y [ver](/turismo/atractivos/plaza-principal)\n\n- uno\n- dos",
      );
      assert.match(html, /<strong>Plaza<\/strong>/);
      assert.match(
        html,
        /<a href="\/turismo\/atractivos\/plaza-principal">ver<\/a>/,
      );
      assert.match(html, /<ul>\n<li>uno<\/li>\n<li>dos<\/li>\n<\/ul>/);
    },
  );

  await t.step("external links open in a new tab without the opener", () => {
    assert.match(
      renderMarkdown("[mapa](https://maps.example/x)"),
      /<a href="https:\/\/maps\.example\/x" target="_blank" rel="noopener noreferrer nofollow">mapa<\/a>/,
    );
  });

  await t.step("raw HTML is escaped, never rendered", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script> <img src=x onerror="alert(2)"> <a href="javascript:x">y</a>',
    );
    assert.doesNotMatch(html, /<script|<img|<a /);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  await t.step(
    "unsafe link targets stay text and images are not loaded",
    () => {
      const html = renderMarkdown(
        "[a](javascript:alert(1)) [b](//evil.example) [c](data:text/html,x) ![d](https://evil.example/p.png)",
      );
      assert.doesNotMatch(html, /href="(?:javascript|\/\/|data)/i);
      assert.doesNotMatch(html, /<img/);
      assert.match(html, /\[a\]\(javascript:alert\(1\)\)/);
    },
  );
});

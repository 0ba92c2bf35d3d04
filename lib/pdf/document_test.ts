import assert from "node:assert/strict";
import { A4, openPdf } from "./mod.ts";

Deno.test("openPdf: an A4 document in Spanish with Inter, as bytes", async () => {
  const { doc, finish } = await openPdf({ info: { Title: "Prueba" } });
  doc.font("Inter-Bold").text("Destilería");
  const bytes = await finish();
  const text = new TextDecoder("latin1").decode(bytes);
  assert.ok(text.startsWith("%PDF-"), "a PDF");
  assert.match(text, /\/MediaBox \[0 0 595\.28 841\.89\]/, "A4");
  assert.equal(A4.width, 595.28);
  assert.match(text, /\/Lang \(es-MX\)/, "in Spanish");
  assert.match(text, /Inter/, "Inter embedded");
  assert.match(text, /\/Title /, "its title");
});

import assert from "node:assert/strict";
import {
  getNoDataFallback,
  maskQuestion,
  NO_DATA_MARKER,
  normalizeQuestion,
  stripNoDataMarkerFromStream,
} from "./unanswered.ts";

async function* from(parts: string[]) {
  for (const part of parts) yield part;
}

Deno.test("stripNoDataMarkerFromStream: the marker never passes, at any split", async () => {
  const reply = `${NO_DATA_MARKER} No tengo ese dato [nota].`;
  for (let i = 1; i < reply.length; i++) {
    for (let j = i + 1; j <= reply.length; j++) {
      let marked = 0;
      const out = await Array.fromAsync(stripNoDataMarkerFromStream(
        from([reply.slice(0, i), reply.slice(i, j), reply.slice(j)]),
        () => void marked++,
      ));
      assert.equal(out.join(""), "No tengo ese dato [nota].", `${i},${j}`);
      assert.ok(out.every((d) => d !== ""));
      assert.equal(marked, 1);
    }
  }
  let marked = 0;
  const plain = await Array.fromAsync(
    stripNoDataMarkerFromStream(
      from(["Hola [", "SIN", "] ok"]),
      () => void marked++,
    ),
  );
  assert.equal(plain.join(""), "Hola [SIN] ok");
  assert.equal(marked, 0);
  const only = await Array.fromAsync(
    stripNoDataMarkerFromStream(from(["[SIN_", "DATOS]"]), () => {}),
  );
  assert.deepEqual(only, [getNoDataFallback()]);
});

Deno.test("maskQuestion and normalizeQuestion: masked, cut, grouped", () => {
  assert.equal(
    maskQuestion(
      "Mi correo es luz@ejemplo.com.mx y mi cel 33 1234 5678, ¿hay tours?",
    ),
    "Mi correo es [correo] y mi cel [teléfono], ¿hay tours?",
  );
  assert.equal(
    maskQuestion("¿Abre el 16 de septiembre de 2026?"),
    "¿Abre el 16 de septiembre de 2026?",
  );
  assert.equal([...maskQuestion("á".repeat(300))].length, 200);
  assert.equal(
    normalizeQuestion("¿Dónde está el MUSEO?"),
    normalizeQuestion("donde esta el museo"),
  );
  assert.equal(normalizeQuestion("¿Dónde está el MUSEO?"), "donde museo");
});

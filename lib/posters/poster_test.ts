import assert from "node:assert/strict";
import { loadShippedData } from "@/tests/test_utils.ts";
import { attractionPosterSvg, getPosterSecondLang } from "./poster.ts";

const loaded = await loadShippedData();
const BASE = "https://turismo.example.gob.mx";

/** The poster's text lines, top to bottom, with their baselines (mm). */
function linesOf(svg: string): { y: number; text: string }[] {
  return [...svg.matchAll(/<text [^>]*y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)]
    .map((m) => ({ y: Number(m[1]), text: m[2] }));
}

Deno.test("posters are bilingual: Spanish first, English under it", async (t) => {
  const renamed = loaded.data.attractions.find((a) =>
    a.i18n?.en?.name && a.i18n.en.name !== a.name
  )!;
  const svg = attractionPosterSvg(loaded.data, {
    slug: renamed.slug,
    code: "ABC123",
    baseUrl: BASE,
  })!;
  const lines = linesOf(svg);
  const at = (text: string) => {
    const line = lines.find((line) => line.text === text);
    assert.ok(line, `${text} in ${JSON.stringify(lines.map((l) => l.text))}`);
    return line.y;
  };

  await t.step("the second language is English", () => {
    assert.equal(getPosterSecondLang(), "en");
  });

  await t.step("each Spanish line has its English line right under it", () => {
    for (
      const [spanish, english] of [
        ["Registra tu visita", "Check in on your visit"],
        [
          "Escanea el código QR con la cámara de tu teléfono",
          "Scan the QR code with your phone’s camera",
        ],
        ["o escribe este código guía:", "or type this guide code:"],
      ]
    ) {
      assert.ok(at(english) > at(spanish), english);
      assert.ok(at(english) - at(spanish) < 8, english);
    }
    assert.ok(at("Registra tu visita") < at("o escribe este código guía:"));
  });

  await t.step("the attraction's English name is under its Spanish one", () => {
    const english = renamed.i18n!.en!.name!;
    assert.ok(svg.includes(">" + english.replaceAll("&", "&amp;") + "<"));
    const spanishLast = Math.max(
      ...lines.filter((l) => renamed.name.includes(l.text) && l.text)
        .map((l) => l.y),
    );
    assert.ok(at(english.replaceAll("&", "&amp;")) > spanishLast);
  });

  await t.step("every line stays above the footer rule, inside the box", () => {
    const rule = Number(/<line x1="[\d.]+" y1="([\d.]+)"/.exec(svg)![1]);
    const footer = lines.at(-1)!;
    for (const line of lines.filter((l) => l !== footer)) {
      assert.ok(line.y < rule - 1, `${line.text} at ${line.y}, rule ${rule}`);
    }
    assert.ok(footer.y > rule && footer.y < 273.5);
  });
});

Deno.test("posters: the top block breathes, whatever the name's length", () => {
  for (const attraction of loaded.data.attractions) {
    const svg = attractionPosterSvg(loaded.data, {
      slug: attraction.slug,
      code: "ABC123",
      baseUrl: BASE,
    })!;
    const lines = [
      ...svg.matchAll(
        /<text [^>]*y="([\d.]+)" font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g,
      ),
    ].map((m) => ({ y: Number(m[1]), size: Number(m[2]), text: m[3] }));
    // The header band ends under its 2 mm accent rule.
    const bandEnd = Number(
      /<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="2"/.exec(svg)![1],
    ) + 2;
    const checkIn = lines.findIndex((l) => l.text === "Registra tu visita");
    const name = lines.slice(2, checkIn);
    const top = name[0];
    const airAbove = top.y - top.size * 0.75 - bandEnd;
    assert.ok(
      airAbove >= 5,
      `${attraction.slug}: ${airAbove} mm under the band`,
    );
    const call = lines[checkIn];
    const airBelow = call.y - call.size * 0.75 - name.at(-1)!.y;
    assert.ok(
      airBelow >= 6,
      `${attraction.slug}: ${airBelow} mm between its name and the call`,
    );
    // The QR (its white quiet zone on top) stays clear of the call's last line.
    const qrTop = Number(
      /<g transform="translate\([\d.]+ ([\d.]+)\)/.exec(svg)![1],
    );
    assert.ok(qrTop >= lines[checkIn + 3].y + 1.2, attraction.slug);
  }
});

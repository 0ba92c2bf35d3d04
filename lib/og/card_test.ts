import assert from "node:assert/strict";
import { crc32, inflateSync } from "node:zlib";
import { shareCardCacheKey } from "./card_key.ts";
import type { ShareCard } from "./card_types.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "./card_view.tsx";
import {
  renderShareCard,
  renderShareCardSvg,
  warmUpShareCard,
} from "./render_card.ts";
import { emojiDataUri, twemojiName } from "./emoji.ts";
import { hasGlyph } from "./fonts.ts";
import { inlineSvgImages } from "./inline_svg.ts";
import { encodeRgbPng } from "./png.ts";
import { graphemes } from "@/lib/text/clean.ts";
import {
  cleanName,
  DEFAULT_NAME,
  estimateWidthEm,
  isRtl,
  NAME_SIZES,
  pickNameSize,
} from "./text.ts";
import { BRANDING, sampleCard } from "./testdata/cards.ts";

const card = sampleCard;

interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  chunks: string[];
}

/** Parse and fully validate a PNG: signature, chunk CRCs, IHDR, IDAT size. */
function readPng(png: Uint8Array): PngInfo {
  assert.deepEqual(
    [...png.subarray(0, 8)],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    "PNG signature",
  );
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: string[] = [];
  const idat: Uint8Array[] = [];
  let ihdr: Uint8Array | undefined;
  let off = 8;
  while (off < png.length) {
    const len = view.getUint32(off);
    const type = new TextDecoder().decode(png.subarray(off + 4, off + 8));
    const data = png.subarray(off + 8, off + 8 + len);
    const crc = view.getUint32(off + 8 + len);
    assert.equal(crc32(png.subarray(off + 4, off + 8 + len)), crc, type);
    chunks.push(type);
    if (type === "IHDR") ihdr = data;
    if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  assert.equal(chunks[0], "IHDR");
  assert.equal(chunks.at(-1), "IEND");
  assert.ok(ihdr);
  const h = new DataView(ihdr.buffer, ihdr.byteOffset, ihdr.byteLength);
  const info = {
    width: h.getUint32(0),
    height: h.getUint32(4),
    bitDepth: ihdr[8],
    colorType: ihdr[9],
    chunks,
  };
  const channels = info.colorType === 6 ? 4 : 3;
  const raw = inflateSync(
    Uint8Array.from(idat.flatMap((c) => [...c])),
  );
  assert.equal(raw.length, info.height * (1 + info.width * channels));
  return info;
}

function assertCardPng(png: Uint8Array) {
  const info = readPng(png);
  assert.equal(info.width, CARD_WIDTH);
  assert.equal(info.height, CARD_HEIGHT);
  assert.equal(info.width, 1200);
  assert.equal(info.height, 630);
}

// Must stay the first test: exercises the lazy one-time init under
// concurrent first calls.
Deno.test("concurrent first calls share one initialisation", async () => {
  const pngs = await Promise.all(
    Array.from(
      { length: 4 },
      (_, i) => renderShareCard(card({ visitCount: i })),
    ),
  );
  for (const png of pngs) assertCardPng(png);
});

Deno.test("IHDR says 1200x630 and the sample card stays small", async () => {
  const png = await renderShareCard(card());
  assertCardPng(png);
  assert.equal(png[16 + 3] + (png[16 + 2] << 8), 1200); // IHDR width bytes
  assert.equal(png[20 + 3] + (png[20 + 2] << 8), 630); // IHDR height bytes
  assert.ok(png.length < 60_000, `PNG is ${png.length} bytes`);
});

Deno.test("image bytes change with visitCount", async () => {
  const a = await renderShareCard(card({ visitCount: 8 }));
  const b = await renderShareCard(card({ visitCount: 9 }));
  assertCardPng(a);
  assertCardPng(b);
  assert.notDeepEqual(a, b);
});

Deno.test("rendering is deterministic", async () => {
  const a = await renderShareCard(card());
  const b = await renderShareCard(card());
  assert.deepEqual(a, b);
});

const HOSTILE_NAMES: Record<string, string> = {
  "120 × W": "W".repeat(120),
  "120 × Ж": "Ж".repeat(120),
  "only emoji": "🎉🎉🎉👑",
  "markup": "<svg onload=alert(1)>",
  "control chars": "\u0000\u0007\u001b[31m",
  "Arabic": "مرحبا بكم في مدينتنا",
  "Japanese": "山田太郎さんの旅",
  "empty": "",
  "mixed": "José Ñúñez 🇲🇽",
  "bidi override": "\u202Eevil\u202C name",
  "zalgo": "Z" + "\u0336\u0337\u0321\u0322".repeat(30) + "algo",
  "unsupported script": "김민준 สมชาย",
  "newer emoji": "Ana \u{1FAE9}",
  "long words": "Supercalifragilisticoespialidoso ".repeat(6),
  "lone surrogate": "Ana \uD83D López",
};

for (const [label, name] of Object.entries(HOSTILE_NAMES)) {
  Deno.test(`hostile name renders a valid 1200x630 PNG: ${label}`, async () => {
    assertCardPng(await renderShareCard(card({ name })));
  });
}

Deno.test("hostile structured input still renders", async () => {
  const weird = {
    name: 42,
    visitCount: Number.NaN,
    totalAttractions: -3,
    badges: [
      { id: "x", name: "<b>", icon: "not an emoji" },
      null,
      ...Array.from({ length: 20 }, (_, i) => ({
        id: `b${i}`,
        name: "B",
        icon: "👑",
      })),
    ],
    branding: {
      ...BRANDING,
      colors: {
        primary: "url(javascript:alert(1))",
        secondary: "red; background: url(x)",
        accent: "",
        background: "#000",
        text: "#000",
      },
      logoSvg: "<svg><not-closed",
    },
  } as unknown as ShareCard;
  assertCardPng(await renderShareCard(weird));
});

Deno.test("user text never becomes markup in the SVG", async () => {
  const svg = await renderShareCardSvg(
    card({ name: `<svg onload=alert(1)><image href="https://x.test/a.png"/>` }),
  );
  assert.ok(!svg.includes("onload"));
  assert.ok(!svg.includes("x.test"));
  assert.ok(!svg.includes("alert"));
  // Nothing external is referenced: every image is inline data.
  for (const m of svg.matchAll(/href="([^"]*)"/g)) {
    assert.ok(m[1].startsWith("data:") || m[1].startsWith("#"), m[1]);
  }
});

Deno.test("emoji are inlined as vector SVG (no nested SVG images)", async () => {
  const svg = await renderShareCardSvg(card({ name: "Ana 🎉" }));
  assert.ok(!svg.includes("data:image/svg+xml"));
});

Deno.test("cleanName strips controls, keeps text literally", () => {
  assert.equal(cleanName("\u0000\u0007\u001b[31m"), DEFAULT_NAME);
  assert.equal(cleanName(""), DEFAULT_NAME);
  assert.equal(cleanName("   \n\t "), DEFAULT_NAME);
  assert.equal(cleanName(undefined), DEFAULT_NAME);
  assert.equal(cleanName("<svg onload=alert(1)>"), "<svg onload=alert(1)>");
  assert.equal(cleanName("  Ana \n\n  María\tLópez "), "Ana María López");
  assert.equal(cleanName("\u202Eevil\u202C"), "evil");
  assert.equal(cleanName("\x1b[1;31mRojo\x1b[0m"), "Rojo");
  assert.equal(cleanName("José Ñúñez 🇲🇽"), "José Ñúñez 🇲🇽");
});

Deno.test("cleanName caps at 120 graphemes without splitting emoji", () => {
  const long = "👨‍👩‍👧‍👦".repeat(200);
  const out = cleanName(long);
  assert.equal(graphemes(out).length, 120);
  assert.ok(graphemes(out).every((g) => g === "👨‍👩‍👧‍👦"));
  assert.equal(graphemes(cleanName("W".repeat(500))).length, 120);
});

Deno.test("name sizing shrinks, then clamps", () => {
  const short = pickNameSize("Ana", 712);
  assert.equal(short.fontSize, NAME_SIZES[0]);
  assert.equal(short.lines, 1);
  const huge = pickNameSize("W".repeat(120), 712);
  assert.equal(huge.fontSize, NAME_SIZES.at(-1));
  assert.equal(huge.lines, 2);
  let previous = Infinity;
  for (let n = 1; n <= 120; n += 7) {
    const { fontSize } = pickNameSize("a".repeat(n), 712);
    assert.ok(fontSize <= previous);
    previous = fontSize;
  }
  assert.ok(estimateWidthEm("WWW") > estimateWidthEm("iii"));
});

Deno.test("RTL detection", () => {
  assert.equal(isRtl("مرحبا بكم"), true);
  assert.equal(isRtl("123 مرحبا"), true);
  assert.equal(isRtl("Ana مرحبا"), false);
  assert.equal(isRtl("山田"), false);
});

Deno.test("twemoji names: exact, FE0F-stripped and FE0F-added", () => {
  const files = {
    "1f396": 0,
    "23-20e3": 0,
    "2764-fe0f-200d-1f525": 0,
    "1f1f2-1f1fd": 0,
  } as unknown as Parameters<typeof twemojiName>[1];
  assert.equal(twemojiName("🎖️", files), "1f396"); // 1f396 fe0f
  assert.equal(twemojiName("#️⃣", files), "23-20e3"); // 23 fe0f 20e3
  assert.equal(twemojiName("❤️‍🔥", files), "2764-fe0f-200d-1f525");
  assert.equal(twemojiName("❤‍🔥", files), "2764-fe0f-200d-1f525");
  assert.equal(twemojiName("🇲🇽", files), "1f1f2-1f1fd");
  assert.equal(twemojiName("🫩", files), undefined);
});

Deno.test("emojiDataUri loads real twemoji files, unknown -> null", async () => {
  for (const e of ["🧭", "🎖️", "👑", "🇲🇽", "❤️‍🔥"]) {
    const uri = await emojiDataUri(e);
    assert.ok(uri?.startsWith("data:image/svg+xml;base64,"), e);
  }
  assert.equal(await emojiDataUri("\u{1FAE9}"), null);
  assert.equal(await emojiDataUri("x"), null);
});

Deno.test("glyph coverage: latin, cyrillic, arabic, kana yes; hangul no", () => {
  for (const ch of "AñŁЖمさ山") assert.ok(hasGlyph(ch.codePointAt(0)!), ch);
  for (const ch of "김ส") assert.ok(!hasGlyph(ch.codePointAt(0)!), ch);
});

Deno.test("inlineSvgImages inlines satori's own utf8 SVG images only", () => {
  const arrow = encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="30" height="30" viewBox="0 0 24 24"><path id="a" d="M4 12h15" stroke="#fff"/></svg>`,
  );
  const doc =
    `<svg><image x="1" y="2" width="30" height="30" href="data:image/svg+xml;utf8,${arrow}"/>` +
    `<image x="0" y="0" width="5" height="5" href="data:image/svg+xml;base64,PHN2Zy8+"/></svg>`;
  const out = inlineSvgImages(doc);
  assert.match(
    out,
    /<svg x="1" y="2" width="30" height="30" viewBox="0 0 24 24"/,
  );
  assert.match(out, /id="og[0-9a-z]+-a"/);
  // Unknown (untrusted) base64 SVG stays an image.
  assert.match(out, /<image x="0" y="0" width="5" height="5"/);
});

Deno.test("encodeRgbPng round-trips through the PNG validator", () => {
  const w = 3;
  const h = 2;
  const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37) & 255);
  const info = readPng(encodeRgbPng(rgba, w, h));
  assert.equal(info.width, 3);
  assert.equal(info.height, 2);
  assert.equal(info.bitDepth, 8);
  assert.equal(info.colorType, 2);
  assert.throws(() => encodeRgbPng(rgba, 4, 4), RangeError);
});

Deno.test("cache key depends on displayed data only", async () => {
  const a = await shareCardCacheKey(card());
  assert.equal(a, await shareCardCacheKey(card()));
  assert.notEqual(a, await shareCardCacheKey(card({ visitCount: 9 })));
  assert.notEqual(a, await shareCardCacheKey(card({ name: "Otra" })));
  assert.match(a, /^og:[0-9a-f]{64}$/);
});

Deno.test("warm-up renders without throwing", async () => {
  await warmUpShareCard();
});

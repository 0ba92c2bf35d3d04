import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { ShareCard } from "./card_types.ts";
import { renderShareCard } from "./render_card.ts";
import { BRANDING, TALL_LOGO } from "./testdata/cards.ts";

/**
 * SHA-256 of each card's PNG as rendered by the single-file card.ts before
 * it was split into card_view.tsx, card_model.ts, palette.ts and
 * render_card.ts. A satori, resvg or Deno (zlib) upgrade may change the
 * bytes without changing the design: then look at the images, and update
 * these (bumping SHARE_CARD_VERSION only if the design changed).
 */
const GOLDEN: [string, ShareCard, string][] = [
  [
    "long name, complete route",
    {
      name:
        "María de los Ángeles Guadalupe Fernández-Villaseñor y Ortiz de Montellano",
      visitCount: 17,
      totalAttractions: 17,
      badges: [{ id: "explorer", name: "Exploradora", icon: "🧭" }],
      branding: BRANDING,
    },
    "8e87b47b6661f24789c1fddc45643987619ef66dac5f2f2d312e88effd5509ff",
  ],
  [
    "emoji in the name, more badges than fit",
    {
      name: "Ana 🎉 López",
      visitCount: 1,
      totalAttractions: 1,
      badges: ["🧭", "🎖️", "👑", "🇲🇽", "❤️‍🔥", "🌮", "🏛️", "⛪", "🌵"].map((
        icon,
        i,
      ) => ({ id: `b${i}`, name: "B", icon })),
      branding: BRANDING,
    },
    "792c3c4dd20d4a29a6b55473750ebbab8dd992047e7fee7d6728ba8caf269794",
  ],
  [
    "Arabic name, no badges, tall logo, no tagline",
    {
      name: "مرحبا بكم في مدينتنا",
      visitCount: 0,
      totalAttractions: 12,
      badges: [],
      branding: { ...BRANDING, tagline: "", logoSvg: TALL_LOGO },
    },
    "d4e078170bef20ebec8df5df6c3cf1bdc32238761b9fa18eed198afde240eb42",
  ],
  [
    "Japanese name, dark branding with unreadable text colour",
    {
      name: "山田太郎さんの旅",
      visitCount: 1234,
      totalAttractions: 2000,
      badges: [
        { id: "x", name: "X", icon: "🗾" },
        { id: "y", name: "Y", icon: "🍣" },
      ],
      branding: {
        name: "Ciudad Nocturna",
        tagline: "Luces de la noche",
        colors: {
          primary: "#93C5FD",
          secondary: "#F472B6",
          accent: "#FDE047",
          background: "#0B1220",
          text: "#1F2937",
        },
        logoSvg: TALL_LOGO,
      },
    },
    "24a9fa13e057c595b1321bde5ab69c0d26ee6edba4bed36b4c7a76207caf133e",
  ],
];

for (const [label, card, expected] of GOLDEN) {
  Deno.test(`PNG bytes unchanged: ${label}`, async () => {
    const png = await renderShareCard(card);
    assert.equal(createHash("sha256").update(png).digest("hex"), expected);
  });
}

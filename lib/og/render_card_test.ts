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
    "242b7c241d83a0892cd99c0537fd32ff8e7b1a1e390cf81272b9a57d30bb32d8",
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
    "b867f59045d513bd7b21d432503407dfaffb30653e962b82bc2e55d5ea7c0cbc",
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
    "ca4484ce17b2697b40be9e74713ba3e85056290722714e46f32f717b10003de0",
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
    "c76ad1f65a21f4428e7f7708f95a94e9d40f0b6d6bb4d60abe2ec827d115b263",
  ],
];

for (const [label, card, expected] of GOLDEN) {
  Deno.test(`PNG bytes unchanged: ${label}`, async () => {
    const png = await renderShareCard(card);
    assert.equal(createHash("sha256").update(png).digest("hex"), expected);
  });
}

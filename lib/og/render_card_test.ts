import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { ShareCard } from "./card_types.ts";
import { renderShareCard } from "./render_card.ts";

const LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#0E6E5C"/><path d="M14 44 26 24l8 12 6-8 10 16z" fill="#FFF8EE"/><circle cx="44" cy="18" r="6" fill="#F2B705"/></svg>`;
const TALL_LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 80"><rect width="40" height="80" rx="8" fill="#F2B705"/><circle cx="20" cy="24" r="10" fill="#111827"/></svg>`;

const BRANDING: ShareCard["branding"] = {
  name: "San Miguel de las Flores",
  tagline: "Pueblo Mágico · Ruta de los Sabores",
  colors: {
    primary: "#0E6E5C",
    secondary: "#C2410C",
    accent: "#F2B705",
    background: "#FFF8EE",
    text: "#1F2937",
  },
  logoSvg: LOGO,
};

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

/**
 * The public pages' cards that `deno task build` draws: the home page's and
 * every attraction's (but one with a photo: the library is in KV), in
 * every language, for the data set it checks, named
 * by their hash (card_key.ts). The service serves these files and never
 * loads the renderer for them; a data set changed since the build is drawn
 * at run time (share_cards.ts).
 */
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { getLangs } from "@/lib/i18n/catalogue.ts";
import { getBuiltPageCardName, pageCardCacheKey } from "./card_key.ts";
import type { PageCardId } from "./card_url.ts";
import { getPageCard } from "./page_cards.ts";

/** One drawn card: its file name under the build's folder and its PNG. */
export interface BuiltPageCard {
  name: string;
  png: Uint8Array;
}

/** Draws every page card of `loaded` (in process: a build has nothing else to answer). */
export async function drawPageCards(
  loaded: LoadedData,
): Promise<BuiltPageCard[]> {
  const { renderCard } = await import("./render_card.ts");
  const pages: PageCardId[] = [
    { kind: "home" },
    ...[...loaded.attractionsBySlug.keys()].map((slug) => ({
      kind: "attraction" as const,
      slug,
    })),
  ];
  const built: BuiltPageCard[] = [];
  for (const lang of getLangs()) {
    for (const page of pages) {
      const card = getPageCard(loaded, { ...page, lang });
      // A card with a photo is drawn at run time: the photo is in KV.
      if (!card || card.photo) continue;
      const name = getBuiltPageCardName(await pageCardCacheKey(card));
      built.push({ name, png: await renderCard(card) });
    }
  }
  return built;
}

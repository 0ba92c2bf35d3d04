import { Island } from "@/components/Island.tsx";
import NearestFirst from "@/islands/NearestFirst.tsx";
import type { Attraction } from "@/lib/data/mod.ts";
import {
  getIslandMessages,
  type Lang,
  localizePath,
  t,
} from "@/lib/i18n/mod.ts";

/**
 * The attraction list's "Ordenar por cercanía" (the NearestFirst island,
 * over cards rendered with `distanceSlot`) and its link to the map page.
 * Its messages are `map`'s `sort*` keys and `away`, nothing more.
 */
export function NearestFirstIsland(
  { lang, places }: { lang: Lang; places: Attraction[] },
) {
  const { messages, ...language } = getIslandMessages(lang, "map");
  return (
    <div class="list-tools">
      <Island
        name="NearestFirst"
        component={NearestFirst}
        props={{
          ...language,
          messages: Object.fromEntries(
            Object.entries(messages).filter(([key]) =>
              key.startsWith("sort") || key === "away"
            ),
          ),
          places: places.map((a) => ({
            slug: a.slug,
            lat: a.location.lat,
            lng: a.location.lng,
          })),
        }}
      />
      <p>
        <a href={localizePath(lang, "/turismo/mapa")}>
          {t(lang, "map.openMap")}
        </a>
      </p>
    </div>
  );
}

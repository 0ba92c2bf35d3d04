import { useEffect, useMemo, useState } from "preact/hooks";
import {
  formatDistance,
  getDistanceKm,
  type LatLng,
} from "@/client/distance.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";

/** Its messages: `map`'s `sort*` keys and `away`. */
export type NearestFirstProps = IslandLanguage & {
  /** Each card's place, by slug. */
  places: { slug: string; lat: number; lng: number }[];
};

/**
 * "Ordenar por cercanía" on the attraction list: once the tourist shares a
 * position (the browser asks), the server-rendered cards are put in order
 * of distance and each says how far it is ("a 1.2 km"), in the browser, so
 * the list stays one cached page and works offline; the position is never
 * sent. "Orden habitual" puts them back. Hidden until hydrated.
 */
export default function NearestFirst(props: NearestFirstProps) {
  const t = useMemo(
    () => createTranslate(props.messages, props.locale),
    [props.messages, props.locale],
  );
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<
    "usual" | "asking" | "sorted" | "restored" | "error"
  >("usual");
  useEffect(() => setReady(true), []);

  function sortBy(position: LatLng | null) {
    const slots = [
      ...document.querySelectorAll<HTMLElement>("[data-distance-slot]"),
    ];
    const cards = slots.map((slot, i) => {
      const place = props.places.find((p) =>
        p.slug === slot.dataset.distanceSlot
      );
      const km = place && position ? getDistanceKm(position, place) : null;
      slot.textContent = km === null
        ? ""
        : t("away", { distance: formatDistance(km, props.locale) });
      const card = slot.closest("article")!;
      card.dataset.usualOrder ??= String(i);
      return { card, km, usual: Number(card.dataset.usualOrder) };
    });
    cards.sort((a, b) =>
      position ? (a.km ?? Infinity) - (b.km ?? Infinity) : a.usual - b.usual
    );
    for (const { card } of cards) card.parentElement?.append(card);
  }

  function sortNearest() {
    if (!("geolocation" in navigator)) return setState("error");
    setState("asking");
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        sortBy({ lat: coords.latitude, lng: coords.longitude });
        setState("sorted");
      },
      () => setState("error"),
      { timeout: 15_000, maximumAge: 60_000 },
    );
  }

  function restore() {
    sortBy(null);
    setState("restored");
  }

  const status = {
    usual: "",
    asking: t("sortAsking"),
    sorted: t("sorted"),
    restored: t("sortedUsual"),
    error: t("sortError"),
  }[state];
  return (
    <div class="sort-nearest" hidden={!ready}>
      {state === "sorted"
        ? (
          <button type="button" class="button" onClick={restore}>
            {t("sortUsual")}
          </button>
        )
        : (
          <button
            type="button"
            class="button"
            disabled={state === "asking"}
            onClick={sortNearest}
          >
            {t("sortNearest")}
          </button>
        )}
      <p class="sort-nearest__status" role="status">{status}</p>
    </div>
  );
}

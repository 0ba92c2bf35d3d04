import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { watchDeviceStamps } from "@/client/device_passport.ts";
import type {
  DrawnMap,
  MapLabels,
  MapPlace,
  MapRoute,
} from "@/client/leaflet_map.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";

/** Its messages: `map`. */
export type PlacesMapProps = IslandLanguage & {
  places: MapPlace[];
  routes: MapRoute[];
  /** The operator's tile source (`MAP_TILE_URL`, `MAP_TILE_ATTRIBUTION`). */
  tiles: { url: string; attribution: string };
  /** Leaflet's stylesheet on this origin (the build's); null before a build. */
  stylesheet: string | null;
  /** The attraction whose page this is. */
  focus?: string;
  /**
   * A route page's visits, by the person it belongs to: those are marked.
   * Without it, the stamps of the device's passport are.
   */
  visits?: { person: string; slugs: string[] };
};

/**
 * The map of the attractions and routes (client/leaflet_map.ts draws it,
 * loaded only here). Offline, or when no tile loads, it says the map needs
 * a connection; the page's list of places is its text equivalent. The
 * tourist's position only after "Mostrar mi ubicación".
 */
export default function PlacesMap(props: PlacesMapProps) {
  const { locale, tiles, visits } = props;
  const t = useMemo(
    () => createTranslate(props.messages, locale),
    [props.messages, locale],
  );
  const canvas = useRef<HTMLDivElement>(null);
  const drawn = useRef<DrawnMap | null>(null);
  const [ready, setReady] = useState(false);
  const [offline, setOffline] = useState(false);
  const [marked, setMarked] = useState<ReadonlySet<string>>(
    new Set(visits?.slugs ?? []),
  );
  const [position, setPosition] = useState<
    { state: "off" | "asking" | "on" | "error"; at?: GeolocationCoordinates }
  >({ state: "off" });

  useEffect(() => {
    let stopped = false;
    // Offline: the browser says so, or tiles fail (none loaded yet, or
    // several in a row: a lost signal, not one missing tile).
    let loaded = 0;
    let failedInARow = 0;
    const update = () =>
      setOffline(
        !navigator.onLine || failedInARow >= 2 ||
          (loaded === 0 && failedInARow > 0),
      );
    addEventListener("online", update);
    addEventListener("offline", update);
    update();
    (async () => {
      try {
        if (props.stylesheet) await linkStylesheet(props.stylesheet);
        const { drawMap } = await import("@/client/leaflet_map.ts");
        if (stopped || !canvas.current) return;
        drawn.current = drawMap(canvas.current, {
          places: props.places,
          routes: props.routes,
          tileUrl: tiles.url,
          labels: getLabels(t, visits?.person),
          focus: props.focus,
          onTiles: (event) => {
            if (event === "load") {
              loaded++;
              failedInARow = 0;
            } else failedInARow++;
            update();
          },
        });
        setReady(true);
      } catch {
        // Leaflet's chunk or stylesheet could not be had (an old worker's
        // precache, no signal): the list of places is the map now.
        failedInARow++;
        update();
      }
    })();
    const stop = visits ? undefined : watchDeviceStamps((stamps) =>
      setMarked(
        new Set(
          [...stamps.values()].filter((s) => s.status === "verified")
            .map((s) => s.slug),
        ),
      )
    );
    return () => {
      stopped = true;
      stop?.();
      removeEventListener("online", update);
      removeEventListener("offline", update);
      drawn.current?.remove();
    };
  }, []);

  useEffect(() => drawn.current?.setMarked(marked), [marked, ready]);
  useEffect(
    () =>
      drawn.current?.setPosition(
        position.at
          ? { lat: position.at.latitude, lng: position.at.longitude }
          : null,
      ),
    [position, ready],
  );

  function togglePosition() {
    if (position.state === "on" || position.state === "asking") {
      return setPosition({ state: "off" });
    }
    if (!("geolocation" in navigator)) return setPosition({ state: "error" });
    setPosition({ state: "asking" });
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => setPosition({ state: "on", at: coords }),
      () => setPosition({ state: "error" }),
      { timeout: 15_000, maximumAge: 60_000 },
    );
  }

  const status = offline
    ? t("offline")
    : !ready
    ? t("loading")
    : position.state === "asking"
    ? t("positionAsking")
    : position.state === "on"
    ? t("positionOn")
    : position.state === "error"
    ? t("positionError")
    : "";
  return (
    <div class={`places-map${offline ? " places-map--offline" : ""}`}>
      <div class="places-map__frame">
        <div
          ref={canvas}
          class="places-map__canvas"
          role="region"
          aria-label={t("region")}
          aria-describedby="mapa-ayuda"
        />
        <p class="places-map__credit">
          {t("credit", { attribution: tiles.attribution })}
        </p>
      </div>
      <p class="places-map__status" role="status">{status}</p>
      <div class="places-map__tools" hidden={!ready}>
        <button type="button" class="button" onClick={togglePosition}>
          {position.state === "on" ? t("hidePosition") : t("showPosition")}
        </button>
      </div>
      <p id="mapa-ayuda" class="places-map__hint">{t("hint")}</p>
      <details class="places-map__legend">
        <summary>{t("legend")}</summary>
        <ul>
          <li>
            <span class="map-key map-key--place" aria-hidden="true" />
            {t("legendPlace")}
          </li>
          <li>
            <span class="map-key map-key--marked" aria-hidden="true" />
            {visits
              ? t("legendVisited", { person: visits.person })
              : t("legendCollected")}
          </li>
          <li>
            <span class="map-key map-key--you" aria-hidden="true" />
            {t("legendYou")}
          </li>
          {props.routes.map((route, i) => (
            <li key={route.slug}>
              <span
                class={`map-key map-key--route map-route--${i % 6}`}
                aria-hidden="true"
              />
              {t("legendRoute", { name: route.name })}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function getLabels(
  t: ReturnType<typeof createTranslate>,
  person?: string,
): MapLabels {
  return {
    region: t("region"),
    zoomIn: t("zoomIn"),
    zoomOut: t("zoomOut"),
    closeBubble: t("closeBubble"),
    marked: (name) =>
      person ? t("visitedBy", { name, person }) : t("collected", { name }),
    markedWord: person ? t("visitedWord", { person }) : t("collectedWord"),
    here: (name) => t("here", { name }),
    openPlace: (name) => t("openPlace", { name }),
  };
}

/** Links Leaflet's stylesheet (once) and waits until it applies. */
function linkStylesheet(href: string): Promise<void> {
  const found = document.querySelector(`link[href="${href}"]`);
  if (found) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  return new Promise((resolve, reject) => {
    link.onload = () => resolve();
    link.onerror = () => reject(new Error(`${href} did not load`));
    document.head.append(link);
  });
}

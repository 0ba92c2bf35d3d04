/**
 * The map itself, drawn with Leaflet (`npm:leaflet`): one marker per
 * attraction, the routes as lines through their stops in order, and the
 * tourist's position when they share it. Loaded by the PlacesMap island only
 * when a page shows a map, as a chunk of its own (precached, like every
 * island: scripts/build.ts): Leaflet touches `window` when it is imported,
 * so the server never imports this module.
 *
 * Accessible by keyboard: each marker is a focusable button named after its
 * place (and its stamp), Enter opens its bubble and moves the focus to the
 * bubble's link, Escape closes it and gives the focus back to the marker.
 */
// @ts-types="@types/leaflet"
import L from "leaflet";

/** A place on the map. */
export interface MapPlace {
  slug: string;
  name: string;
  /** Its page, in the page's language. */
  href: string;
  lat: number;
  lng: number;
}

/** A route: its stops' positions in order. */
export interface MapRoute {
  slug: string;
  name: string;
  stops: [number, number][];
}

/** The words the map writes itself, in the page's language. */
export interface MapLabels {
  region: string;
  zoomIn: string;
  zoomOut: string;
  closeBubble: string;
  /** A marker's name when its place is marked: `{name}` replaced. */
  marked: (name: string) => string;
  /** The marked places' word in a bubble ("Sellado", "Visitado"). */
  markedWord: string;
  /** The current attraction's marker: `{name}` replaced. */
  here: (name: string) => string;
  /** The bubble's link to the place's page: `{name}` replaced. */
  openPlace: (name: string) => string;
}

/** What the island may change on a drawn map. */
export interface DrawnMap {
  /** The places to mark (a stamp collected, a visit on the route). */
  setMarked(slugs: ReadonlySet<string>): void;
  /** The tourist's position, or null to hide it. */
  setPosition(position: { lat: number; lng: number } | null): void;
  remove(): void;
}

/** The town's scale: streets readable, the centre's places apart. */
const PLACE_ZOOM = 16;

/** Draws the map in `container`; `onTiles` hears whether tiles load or fail. */
export function drawMap(
  container: HTMLElement,
  { places, routes, tileUrl, labels, focus, onTiles }: {
    places: MapPlace[];
    routes: MapRoute[];
    tileUrl: string;
    labels: MapLabels;
    /** The attraction whose page this is: centred and marked. */
    focus?: string;
    onTiles: (event: "load" | "error") => void;
  },
): DrawnMap {
  const map = L.map(container, {
    // The credit is written by the island under the map, as text.
    attributionControl: false,
    zoomControl: false,
    keyboard: true,
  });
  L.control.zoom({ zoomInTitle: labels.zoomIn, zoomOutTitle: labels.zoomOut })
    .addTo(map);
  L.tileLayer(tileUrl, { maxZoom: 19, detectRetina: false })
    .on("tileload", () => onTiles("load"))
    .on("tileerror", () => onTiles("error"))
    .addTo(map);

  routes.forEach((route, i) => {
    L.polyline(route.stops, {
      className: `map-route map-route--${i % ROUTE_STYLES}`,
      interactive: false,
    }).addTo(map);
  });

  const markers = new Map<string, L.Marker>();
  for (const place of places) {
    const marker = L.marker([place.lat, place.lng], {
      icon: L.divIcon({
        className: `map-marker${
          place.slug === focus ? " map-marker--here" : ""
        }`,
        iconSize: [28, 28],
        iconAnchor: [14, 14],
        popupAnchor: [0, -14],
      }),
      keyboard: true,
      riseOnHover: true,
      // The page's own attraction above the town centre's crowd.
      zIndexOffset: place.slug === focus ? 1000 : 0,
    });
    // Its element exists only once the map has a view (set below), so it is
    // named then: a marker is a button, never one without a name.
    marker.on("add", () =>
      nameMarker(marker, place, labels, {
        marked: (marker as L.Marker & { marked?: boolean }).marked ?? false,
        focus,
      }));
    marker.addTo(map);
    marker.bindPopup(() => describePlace(place, marker, labels), {
      closeButton: true,
    });
    markers.set(place.slug, marker);
  }

  // Keyboard: into the bubble on open, Escape closes it (Leaflet's own
  // Escape works only while the map itself has the focus), and the focus
  // goes back to the marker when it was in the bubble.
  const listening = new WeakSet<HTMLElement>();
  map.on("popupopen", (event) => {
    const popup = event.popup;
    const bubble = popup.getElement();
    if (!bubble) return;
    const close = bubble.querySelector<HTMLElement>(
      ".leaflet-popup-close-button",
    );
    close?.setAttribute("aria-label", labels.closeBubble);
    close?.setAttribute("title", labels.closeBubble);
    if (!listening.has(bubble)) {
      listening.add(bubble);
      bubble.addEventListener("keydown", (key) => {
        if (key.key !== "Escape") return;
        key.stopPropagation();
        map.closePopup(popup);
      });
    }
    if (document.activeElement?.classList.contains("map-marker")) {
      bubble.querySelector<HTMLElement>("a.map-bubble__link")?.focus();
    }
  });
  map.on("popupclose", (event) => {
    const source = (event.popup as unknown as { _source?: L.Marker })._source;
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (lost || bubbleHasFocus(event.popup)) source?.getElement()?.focus();
  });

  const focused = places.find((place) => place.slug === focus);
  if (focused) {
    map.setView([focused.lat, focused.lng], PLACE_ZOOM);
  } else {
    map.fitBounds(
      L.latLngBounds(places.map((place) => [place.lat, place.lng])),
      { padding: [24, 24] },
    );
  }

  let you: L.CircleMarker | null = null;
  return {
    setMarked(slugs) {
      for (const place of places) {
        const marker = markers.get(place.slug)!;
        const marked = slugs.has(place.slug);
        marker.getElement()?.classList.toggle("map-marker--marked", marked);
        // A stamp above the unstamped neighbours it may overlap.
        if (place.slug !== focus) marker.setZIndexOffset(marked ? 500 : 0);
        nameMarker(marker, place, labels, { marked, focus });
        (marker as L.Marker & { marked?: boolean }).marked = marked;
      }
    },
    setPosition(position) {
      you?.remove();
      you = null;
      if (!position) return;
      you = L.circleMarker([position.lat, position.lng], {
        className: "map-you",
        radius: 9,
        interactive: false,
      }).addTo(map);
      map.panTo([position.lat, position.lng]);
    },
    remove: () => map.remove(),
  };
}

/** How many line styles the stylesheet has for routes (`.map-route--0` …). */
export const ROUTE_STYLES = 6;

/** A marker's accessible name: its place, marked or not, "this one" or not. */
function nameMarker(
  marker: L.Marker,
  place: MapPlace,
  labels: MapLabels,
  { marked, focus }: { marked: boolean; focus?: string },
): void {
  const element = marker.getElement();
  if (!element) return;
  let name = marked ? labels.marked(place.name) : place.name;
  if (place.slug === focus) name = labels.here(name);
  element.setAttribute("aria-label", name);
  element.setAttribute("title", name);
}

/** A marker's bubble: the place's name, its mark, and a link to its page. */
function describePlace(
  place: MapPlace,
  marker: L.Marker,
  labels: MapLabels,
): HTMLElement {
  const bubble = document.createElement("div");
  bubble.className = "map-bubble";
  const name = document.createElement("p");
  name.className = "map-bubble__name";
  name.textContent = place.name;
  bubble.append(name);
  if ((marker as L.Marker & { marked?: boolean }).marked) {
    const mark = document.createElement("p");
    mark.className = "map-bubble__mark";
    mark.textContent = labels.markedWord;
    bubble.append(mark);
  }
  const link = document.createElement("a");
  link.className = "map-bubble__link";
  link.href = place.href;
  link.textContent = labels.openPlace(place.name);
  bubble.append(link);
  return bubble;
}

function bubbleHasFocus(popup: L.Popup): boolean {
  const element = popup.getElement();
  return element !== undefined && element.contains(document.activeElement);
}

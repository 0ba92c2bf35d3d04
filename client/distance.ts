/**
 * Distances in the browser, for the attraction list's "Ordenar por
 * cercanía": the server's `haversineKm` and `formatDistance` (lib/geo,
 * lib/format) live on the server side of the layers and read its
 * catalogues, so the page's few lines are repeated here, the same formula
 * and the same rounding.
 */

/** The mean Earth radius (IUGG), in km, as lib/geo uses. */
const EARTH_RADIUS_KM = 6371.0088;

/** A point on the map. */
export type LatLng = { lat: number; lng: number };

/** Great-circle distance in km (haversine), as lib/geo's `haversineKm`. */
export function getDistanceKm(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * `850 m`, `1.2 km`, `14 km` in `locale`, rounded as lib/format's
 * `formatDistance`: metres to the 10 below a kilometre, one decimal below
 * ten, whole kilometres beyond.
 */
export function formatDistance(km: number, locale: string): string {
  const [value, unit, digits] = km < 1
    ? [Math.max(10, Math.round(km * 100) * 10), "meter", 0]
    : km < 10
    ? [km, "kilometer", 1]
    : [Math.round(km), "kilometer", 0];
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit,
    unitDisplay: "short",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

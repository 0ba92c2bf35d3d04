import type { Attraction, LatLng } from "@/lib/data/tourism_data.ts";
import { DEFAULT_LANG, type Lang, t } from "@/lib/i18n/catalogue.ts";

/** The mean Earth radius (IUGG), in km: the usual constant for haversine. */
export const EARTH_RADIUS_KM = 6371.0088;

/**
 * Great-circle distance in km between two points (haversine formula). Good
 * to a few metres at a town's scale, which is all a "how far is it" needs:
 * the model is given these figures instead of guessing them.
 */
export function haversineKm(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A Google Maps directions link from `origin` to `destination` (no API key needed). */
export function getDirectionsUrl(origin: LatLng, destination: LatLng): string {
  return `https://www.google.com/maps/dir/?api=1&origin=${
    formatLatLng(origin)
  }&destination=${formatLatLng(destination)}`;
}

/** `lat,lng` with at most 6 decimals (about 10 cm), without trailing zeros. */
export function formatLatLng({ lat, lng }: LatLng): string {
  return `${Number(lat.toFixed(6))},${Number(lng.toFixed(6))}`;
}

/**
 * Kilometres with one decimal and a decimal point, as written in Mexico
 * (and read by the model in any language): `1.2 km`; below 0.05 km, `menos
 * de 0.1 km` (`less than 0.1 km` in English) rather than a puzzling `0.0 km`.
 */
export function formatKm(km: number, lang: Lang = DEFAULT_LANG): string {
  return km < 0.05 ? t(lang, "format.kmUnderTenth") : `${km.toFixed(1)} km`;
}

/**
 * The `limit` items nearest to `origin`, nearest first, each with its
 * distance in km.
 */
export function findNearest<T extends { location: LatLng }>(
  origin: LatLng,
  items: readonly T[],
  limit: number,
): { item: T; distanceKm: number }[] {
  return items
    .map((item) => ({ item, distanceKm: haversineKm(origin, item.location) }))
    .sort((a, b) => a.distanceKm - b.distanceKm)
    .slice(0, limit);
}

/**
 * A client-sent location when it is one: finite numbers within range.
 * Anything else gives `undefined`, so a bad location is ignored, never an
 * error (the visitor still gets an answer, without distances).
 */
export function parseLocation(value: unknown): LatLng | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { lat, lng } = value as Record<string, unknown>;
  if (typeof lat !== "number" || typeof lng !== "number") return undefined;
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return undefined;
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180) return undefined;
  return { lat, lng };
}

/** A Google Maps search for a point: opens the map app on phones, no API key. */
export function getMapsUrl(location: LatLng): string {
  return `https://www.google.com/maps/search/?api=1&query=${
    formatLatLng(location)
  }`;
}

/** The `limit` other attractions nearest to `attraction`, nearest first. */
export function findNearbyAttractions(
  attraction: Attraction,
  attractions: readonly Attraction[],
  limit: number,
): { attraction: Attraction; distanceKm: number }[] {
  return findNearest(
    attraction.location,
    attractions.filter((other) => other.slug !== attraction.slug),
    limit,
  ).map(({ item, distanceKm }) => ({ attraction: item, distanceKm }));
}

/**
 * The one rule for the order in which the portal presents hotels,
 * restaurants and guides, followed by the services directory and the chat's
 * prompt alike: never alphabetical (or file-order) favouritism.
 */
import { getLocalDayNumber } from "@/lib/calendar/mod.ts";
import type { LatLng, Provider } from "@/lib/data/tourism_data.ts";
import { haversineKm } from "@/lib/geo/geo.ts";

export type ProviderType = Provider["type"];

/** The kinds of provider, in the order their groups are shown. */
export const PROVIDER_TYPES: readonly ProviderType[] = [
  "hotel",
  "restaurante",
  "guia",
];

/**
 * `items` turned left by `day mod n`: over any n consecutive days each item
 * is first exactly once, and every item moves up one place a day.
 */
export function rotateByDay<T>(items: readonly T[], day: number): T[] {
  const n = items.length;
  if (n === 0) return [];
  const shift = ((day % n) + n) % n;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** A provider in presentation order; `distanceKm` when a location was given. */
export interface OrderedProvider {
  provider: Provider;
  distanceKm?: number;
}

/**
 * THE order of providers (the directory and the chat both use it):
 *
 * - with the visitor's `location`: nearest first (great-circle distance,
 *   ties in the data set's order), each with its distance;
 * - without: grouped by kind ({@linkcode PROVIDER_TYPES}), each kind's
 *   providers in the data set's order turned by the municipality's day
 *   number mod their count ({@linkcode rotateByDay}): the same order for
 *   every visitor on a given day, and each provider first one day in n.
 *
 * Taking the providers of one kind from the result keeps this order.
 */
export function orderProviders(
  providers: readonly Provider[],
  { now, timeZone, location }: {
    now: Date;
    /** The municipality's IANA time zone: the day turns at its midnight. */
    timeZone: string;
    location?: LatLng;
  },
): OrderedProvider[] {
  if (location) {
    return providers
      .map((provider) => ({
        provider,
        distanceKm: haversineKm(location, provider.location),
      }))
      .sort((a, b) => a.distanceKm - b.distanceKm); // Stable: ties keep file order.
  }
  const day = getLocalDayNumber(now, timeZone);
  return PROVIDER_TYPES.flatMap((type) =>
    rotateByDay(providers.filter((p) => p.type === type), day)
  ).map((provider) => ({ provider }));
}

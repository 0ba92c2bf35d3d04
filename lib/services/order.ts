/**
 * The one rule for the order in which the portal presents hotels,
 * restaurants and guides, followed by the services directory and the chat's
 * prompt alike: never alphabetical (or file-order) favouritism.
 */
import type { LatLng, Provider } from "@/lib/data/tourism_data.ts";
import { haversineKm } from "@/lib/geo/geo.ts";

export type ProviderType = Provider["type"];

/** The kinds of provider, in the order their groups are shown. */
export const PROVIDER_TYPES: readonly ProviderType[] = [
  "hotel",
  "restaurante",
  "guia",
];

const MS_PER_DAY = 86_400_000;

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day it is at `now` in `timeZone`, as a day number (days
 * since 1970-01-01): it changes at local midnight, the same for everyone.
 */
export function getLocalDayNumber(now: Date, timeZone: string): number {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    // en-CA writes dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat("en-CA", { timeZone });
    dayFormatters.set(timeZone, formatter);
  }
  const [year, month, day] = formatter.format(now).split("-").map(Number);
  return Math.round(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

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

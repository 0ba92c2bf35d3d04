/**
 * The services directory (`/turismo/servicios`) and a provider's page: what
 * they show, built from the data set. Route files parse the query with
 * {@linkcode parseProviderType} and {@linkcode parseNear}, then render what
 * {@linkcode buildDirectory} and {@linkcode getProviderPage} return.
 */
import type {
  Attraction,
  LatLng,
  Provider,
  TourismData,
} from "@/lib/data/tourism_data.ts";
import { findNearest, parseLocation } from "@/lib/geo/geo.ts";
import { getLocalDayNumber } from "@/lib/calendar/mod.ts";
import { orderProviders, PROVIDER_TYPES, type ProviderType } from "./order.ts";

/** How many nearest attractions a directory card and a provider page list. */
export const CARD_NEARBY = 2;
export const PAGE_NEARBY = 4;

/** `?tipo=`: a kind of provider, or `undefined` for all (anything else too). */
export function parseProviderType(
  value: string | undefined,
): ProviderType | undefined {
  return PROVIDER_TYPES.find((type) => type === value);
}

/** The longest `?cerca=` read: two coordinates with plenty of decimals. */
const MAX_NEAR_LENGTH = 48;
const NEAR_PATTERN =
  /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

/**
 * `?cerca=lat,lng`: the visitor's location when it is one (decimal degrees
 * within range, rounded to 5 decimals, about a metre). Absent is
 * `{}`; present but not a location is `{ invalid: true }`, which the page
 * mentions and otherwise ignores.
 */
export function parseNear(
  value: string | undefined,
): { location?: LatLng; invalid?: true } {
  if (value === undefined || value.trim() === "") return {};
  const match = value.length <= MAX_NEAR_LENGTH
    ? NEAR_PATTERN.exec(value)
    : null;
  const location = match
    ? parseLocation({ lat: Number(match[1]), lng: Number(match[2]) })
    : undefined;
  if (!location) return { invalid: true };
  const round = (n: number) => Math.round(n * 1e5) / 1e5 + 0; // + 0: no -0
  return { location: { lat: round(location.lat), lng: round(location.lng) } };
}

/** `lat,lng` as `?cerca=` takes it. */
export function formatNear({ lat, lng }: LatLng): string {
  return `${lat},${lng}`;
}

/** The directory's address for a kind and a location, as its links write it. */
export function getDirectoryUrl(
  { type, location }: { type?: ProviderType; location?: LatLng },
): string {
  const query = new URLSearchParams();
  if (type) query.set("tipo", type);
  if (location) query.set("cerca", formatNear(location));
  const search = query.toString().replaceAll("%2C", ",");
  return `/turismo/servicios${search ? `?${search}` : ""}`;
}

/** An attraction near a provider, with its distance in km. */
export interface NearbyAttraction {
  attraction: Attraction;
  distanceKm: number;
}

/** A provider as the directory shows it. */
export interface DirectoryEntry {
  provider: Provider;
  /** From the visitor, when a location was given. */
  distanceKm?: number;
  nearby: NearbyAttraction[];
}

/** The directory: its groups by kind, in {@linkcode orderProviders}'s order. */
export interface Directory {
  groups: { type: ProviderType; entries: DirectoryEntry[] }[];
  /** Providers of each kind in the whole data set (for the filters). */
  counts: Record<ProviderType, number>;
  total: number;
  /** The municipality's day number the order was made for. */
  day: number;
}

/**
 * The directory for `now`: every kind, or only `type`; ordered by the one
 * rule ({@linkcode orderProviders}), by distance when `location` is given.
 * Kinds with no provider are left out.
 */
export function buildDirectory(
  data: TourismData,
  { now, type, location }: {
    now: Date;
    type?: ProviderType;
    location?: LatLng;
  },
): Directory {
  const { timeZone } = data.municipality;
  const ordered = orderProviders(data.providers, { now, timeZone, location });
  const counts = Object.fromEntries(
    PROVIDER_TYPES.map((
      kind,
    ) => [kind, data.providers.filter((p) => p.type === kind).length]),
  ) as Record<ProviderType, number>;
  const groups = PROVIDER_TYPES
    .filter((kind) => (!type || kind === type) && counts[kind] > 0)
    .map((kind) => ({
      type: kind,
      entries: ordered.filter(({ provider }) => provider.type === kind)
        .map(({ provider, distanceKm }) => ({
          provider,
          distanceKm,
          nearby: findNearbyAttractions(provider, data, CARD_NEARBY),
        })),
    }));
  return {
    groups,
    counts,
    total: data.providers.length,
    day: getLocalDayNumber(now, timeZone),
  };
}

/** What a provider's page shows, or `undefined` for an unknown slug. */
export function getProviderPage(data: TourismData, slug: string):
  | {
    provider: Provider;
    nearby: NearbyAttraction[];
    /** Dishes the data set says to try here. */
    dishes: TourismData["gastronomy"];
    /** Packages this provider operates. */
    packages: TourismData["packages"];
  }
  | undefined {
  const provider = data.providers.find((p) => p.slug === slug);
  if (!provider) return undefined;
  return {
    provider,
    nearby: findNearbyAttractions(provider, data, PAGE_NEARBY),
    dishes: data.gastronomy.filter((dish) => dish.whereToTry === slug),
    packages: data.packages.filter((pkg) => pkg.provider === slug),
  };
}

function findNearbyAttractions(
  provider: Provider,
  data: TourismData,
  limit: number,
): NearbyAttraction[] {
  return findNearest(provider.location, data.attractions, limit)
    .map(({ item, distanceKm }) => ({ attraction: item, distanceKm }));
}

/** A `tel:` link for a phone number as written (`+52 374 000 0101`). */
export function getTelUrl(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** A WhatsApp chat link (`wa.me` wants the international number, digits only). */
export function getWhatsAppUrl(phone: string): string {
  return `https://wa.me/${phone.replace(/\D/g, "")}`;
}

/** A website as a visitor reads it: no scheme, no `www.`, no trailing slash. */
export function formatWebsite(url: string): string {
  return url.replace(/^https?:\/\/(?:www\.)?/, "").replace(/\/$/, "");
}

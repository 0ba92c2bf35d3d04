/**
 * schema.org descriptions of the public pages' subjects, for search engines
 * and assistants that read JSON-LD: an attraction (`TouristAttraction`),
 * the events still to come (`Event`) and the services' providers (`Hotel`,
 * `Restaurant`, `LocalBusiness`). Only what the data set says, nothing
 * guessed: a field the data lacks is left out. Built once per page render
 * (the page cache keeps the result), written by `components/JsonLd.tsx`.
 */
import { getLocalIsoDateTime } from "@/lib/calendar/mod.ts";
import type { Attraction, Provider, TourismData } from "@/lib/data/mod.ts";
import type { UpcomingEvent } from "@/lib/events/mod.ts";

/** A JSON-LD node: `@type` and its properties. */
export type JsonLdNode = { "@type": string } & Record<string, unknown>;

/** A document of one or more nodes, with its `@context`. */
export type JsonLdDocument =
  & { "@context": "https://schema.org" }
  & (
    | JsonLdNode
    | { "@graph": JsonLdNode[] }
  );

const CONTEXT = "https://schema.org" as const;

function geo(location: { lat: number; lng: number }): JsonLdNode {
  return {
    "@type": "GeoCoordinates",
    latitude: location.lat,
    longitude: location.lng,
  };
}

/**
 * Free when every price the data set gives is zero, paid when one is not;
 * said only then (the data always has the adult price).
 */
function isFree(cost: Attraction["cost"]): boolean {
  return Object.values(cost).every((price) =>
    typeof price !== "object" || price === null || !("amount" in price) ||
    price.amount === 0
  );
}

/**
 * An attraction's page: `TouristAttraction`. `url` is the page's absolute
 * address; `openingHours`, the days' `OpeningHoursSpecification` nodes
 * (lib/hours' `toOpeningHoursSpecification`), when it has hours.
 */
export function describeAttraction(
  attraction: Attraction,
  { url, openingHours }: { url: string; openingHours?: JsonLdNode[] },
): JsonLdDocument {
  return {
    "@context": CONTEXT,
    "@type": "TouristAttraction",
    name: attraction.name,
    description: attraction.description,
    url,
    geo: geo(attraction.location),
    ...(attraction.address && { address: attraction.address }),
    isAccessibleForFree: isFree(attraction.cost),
    ...(openingHours?.length && { openingHoursSpecification: openingHours }),
    ...(attraction.wheelchair && {
      amenityFeature: {
        "@type": "LocationFeatureSpecification",
        name: "wheelchair",
        value: attraction.wheelchair,
      },
    }),
  };
}

const SCHEMA_WEEKDAYS = {
  monday: "https://schema.org/Monday",
  tuesday: "https://schema.org/Tuesday",
  wednesday: "https://schema.org/Wednesday",
  thursday: "https://schema.org/Thursday",
  friday: "https://schema.org/Friday",
  saturday: "https://schema.org/Saturday",
  sunday: "https://schema.org/Sunday",
} as const;

const REPEAT_FREQUENCIES = { daily: "P1D", weekly: "P1W", monthly: "P1M" };

/**
 * A recurring event's rule as a schema.org `Schedule`: from its first day
 * to `until`, on the municipality's clock (`scheduleTimezone`).
 */
function describeSchedule(
  event: UpcomingEvent["event"],
  timeZone: string,
): JsonLdNode | undefined {
  const { recurrence } = event;
  if (!recurrence) return undefined;
  const { frequency, weekdays, monthDay, week, weekday, until } = recurrence;
  const byDay = weekdays?.map((d) => SCHEMA_WEEKDAYS[d]) ??
    (weekday ? [SCHEMA_WEEKDAYS[weekday]] : undefined);
  return {
    "@type": "Schedule",
    repeatFrequency: REPEAT_FREQUENCIES[frequency],
    ...(byDay && { byDay }),
    ...(monthDay !== undefined && { byMonthDay: monthDay }),
    ...(week !== undefined && { byMonthWeek: week }),
    startDate: event.startDate,
    ...(until && { endDate: until }),
    ...(event.startTime && { startTime: `${event.startTime}:00` }),
    ...(event.endTime && { endTime: `${event.endTime}:00` }),
    scheduleTimezone: timeZone,
  };
}

/**
 * The events still to come: one `Event` each, at a `Place` with its
 * attraction's coordinates and address when it names one. Its
 * `startDate` and `endDate` are its occurrence on now or next: days for an
 * all-day event (the first and the last), instants with the
 * municipality's offset for one with times; a recurring one adds its rule
 * (`eventSchedule`).
 */
export function describeEvents(
  /** The events still to come (lib/events' `getUpcomingEvents`). */
  events: readonly UpcomingEvent[],
  data: Pick<TourismData, "attractions" | "municipality">,
  { url }: { url: string },
): JsonLdDocument {
  const attractions = new Map(data.attractions.map((a) => [a.slug, a]));
  const { timeZone } = data.municipality;
  return {
    "@context": CONTEXT,
    "@graph": events.map(({ event, next }) => {
      const at = event.attraction
        ? attractions.get(event.attraction)
        : undefined;
      const timed = event.startTime !== undefined;
      const schedule = describeSchedule(event, timeZone);
      return {
        "@type": "Event",
        name: event.name,
        description: event.description,
        startDate: timed
          ? getLocalIsoDateTime(new Date(next.startMs), timeZone)
          : next.startDate,
        endDate: timed
          ? getLocalIsoDateTime(new Date(next.endMs), timeZone)
          : next.endDate,
        ...(schedule && { eventSchedule: schedule }),
        url: `${url}#evento-${event.slug}`,
        eventStatus: "https://schema.org/EventScheduled",
        eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
        location: {
          "@type": "Place",
          name: event.place,
          ...(at && { geo: geo(at.location) }),
          ...(at?.address && { address: at.address }),
        },
      };
    }),
  };
}

/** The schema.org type of each kind of provider the data set has. */
const PROVIDER_TYPES: Record<Provider["type"], string> = {
  hotel: "Hotel",
  restaurante: "Restaurant",
  // No narrower type says "tour guide" without guessing.
  guia: "LocalBusiness",
};

/**
 * The services' providers: a `LocalBusiness` (or `Hotel`, `Restaurant`)
 * each, with its page on the portal (`url`) and its own website (`sameAs`).
 */
export function describeProviders(
  providers: readonly Provider[],
  { pageUrl }: { pageUrl: (slug: string) => string },
): JsonLdDocument {
  return {
    "@context": CONTEXT,
    "@graph": providers.map((provider) => ({
      "@type": PROVIDER_TYPES[provider.type] ?? "LocalBusiness",
      name: provider.name,
      description: provider.description,
      url: pageUrl(provider.slug),
      ...(provider.contact.phone && { telephone: provider.contact.phone }),
      ...(provider.contact.email && { email: provider.contact.email }),
      ...(provider.contact.website && { sameAs: provider.contact.website }),
      ...(provider.address && { address: provider.address }),
      ...(provider.location && { geo: geo(provider.location) }),
      ...(provider.priceRange && { priceRange: provider.priceRange }),
    })),
  };
}

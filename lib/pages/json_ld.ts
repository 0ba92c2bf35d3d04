/**
 * schema.org descriptions of the public pages' subjects, for search engines
 * and assistants that read JSON-LD: an attraction (`TouristAttraction`),
 * the events still to come (`Event`) and the services' providers (`Hotel`,
 * `Restaurant`, `LocalBusiness`). Only what the data set says, nothing
 * guessed: a field the data lacks is left out. Built once per page render
 * (the page cache keeps the result), written by `components/JsonLd.tsx`.
 */
import type { Attraction, Provider, TourismData } from "@/lib/data/mod.ts";

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

/**
 * The events still to come: one `Event` each, all-day (`startDate` and
 * `endDate` are the first and last days), at a `Place` with its
 * attraction's coordinates and address when it names one.
 */
export function describeEvents(
  /** The events still to come (lib/events' `getUpcomingEvents`). */
  events: readonly { event: TourismData["events"][number] }[],
  data: Pick<TourismData, "attractions">,
  { url }: { url: string },
): JsonLdDocument {
  const attractions = new Map(data.attractions.map((a) => [a.slug, a]));
  return {
    "@context": CONTEXT,
    "@graph": events.map(({ event }) => {
      const at = event.attraction
        ? attractions.get(event.attraction)
        : undefined;
      return {
        "@type": "Event",
        name: event.name,
        description: event.description,
        startDate: event.startDate,
        endDate: event.endDate,
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

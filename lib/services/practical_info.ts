/**
 * What the "Información práctica" page shows, from the data set: weather
 * and packing, how to get there, food (with the place to try each dish),
 * culture and the emergency numbers with their `tel:` links.
 */
import type { TourismData } from "@/lib/data/tourism_data.ts";
import { getTelUrl } from "./directory.ts";

export interface PracticalInfo {
  weather: TourismData["weather"];
  directions: TourismData["directions"];
  dishes: {
    dish: string;
    description: string;
    /** The provider the data set names for it, when it names one. */
    place?: { name: string; slug: string };
  }[];
  culture: TourismData["culture"];
  emergency: {
    name: string;
    phone: string;
    notes?: string;
    telUrl: string;
  }[];
}

export function getPracticalInfo(data: TourismData): PracticalInfo {
  const providers = new Map(data.providers.map((p) => [p.slug, p]));
  return {
    weather: data.weather,
    directions: data.directions,
    dishes: data.gastronomy.map(({ dish, description, whereToTry }) => {
      const provider = whereToTry ? providers.get(whereToTry) : undefined;
      return {
        dish,
        description,
        place: provider && { name: provider.name, slug: provider.slug },
      };
    }),
    culture: data.culture,
    emergency: data.emergency.map((entry) => ({
      ...entry,
      telUrl: getTelUrl(entry.phone),
    })),
  };
}

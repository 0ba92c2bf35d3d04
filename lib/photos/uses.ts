/**
 * Where the data set shows a photo: every attraction, event, route and
 * provider whose `photos` list names it, with its public page. Read from
 * the data set in memory (no KV), for the console's library and the
 * deletion's confirmation ("these pages stop showing it").
 */
import type { TourismData } from "@/lib/data/mod.ts";

/** An item that shows a photo. */
export interface PhotoUse {
  kind: "attraction" | "event" | "route" | "provider";
  slug: string;
  /** In the data set's base language (the console is Spanish). */
  name: string;
  /** Its public page (Spanish): an event's or a route's section of the practical page. */
  path: string;
}

/** The items of `data` that show each photo, by photo id. */
export function findPhotoUses(data: TourismData): Map<string, PhotoUse[]> {
  const uses = new Map<string, PhotoUse[]>();
  const add = (photoIds: string[] | undefined, use: PhotoUse) => {
    for (const id of new Set(photoIds ?? [])) {
      uses.set(id, [...(uses.get(id) ?? []), use]);
    }
  };
  for (const a of data.attractions) {
    add(a.photos, {
      kind: "attraction",
      slug: a.slug,
      name: a.name,
      path: `/turismo/atractivos/${a.slug}`,
    });
  }
  for (const e of data.events) {
    add(e.photos, {
      kind: "event",
      slug: e.slug,
      name: e.name,
      path: `/turismo/informacion-practica#evento-${e.slug}`,
    });
  }
  for (const r of data.routes) {
    add(r.photos, {
      kind: "route",
      slug: r.slug,
      name: r.name,
      path: `/turismo/informacion-practica#ruta-${r.slug}`,
    });
  }
  for (const p of data.providers) {
    add(p.photos, {
      kind: "provider",
      slug: p.slug,
      name: p.name,
      path: `/turismo/servicios/${p.slug}`,
    });
  }
  return uses;
}

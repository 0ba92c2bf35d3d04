import type { AppDeps } from "./deps.ts";
import { getTicket } from "./db/tickets.ts";
import { NotFoundError } from "./errors.ts";
import { RenderCache } from "./og/cache.ts";
import { SHARE_CARD_VERSION } from "./og/card.ts";
// Rendered in a worker pool: a render never blocks other requests.
import { renderShareCard } from "./og/pool.ts";
import { getTouristRoute } from "./route.ts";

/** A rendered share card and the strong ETag of its bytes. */
export interface ShareCardImage {
  etag: string;
  /** `undefined` when only the ETag was needed (a conditional request that matched). */
  png?: Uint8Array;
}

const SHARE_CODE = /^[A-Za-z0-9_-]{4,64}$/;

/**
 * Builds the share-card service: PNGs cached in memory (bounded, one render
 * per card even under concurrent first requests) by everything the card
 * shows: code, name, visits, badges and the data-set version.
 */
export function createShareCards(
  { kv, data }: Pick<AppDeps, "kv" | "data">,
  cache = new RenderCache({ maxEntries: 512, maxBytes: 32 * 1024 * 1024 }),
) {
  return {
    cache,
    /**
     * Returns the card of a share code, or only its ETag when `ifNoneMatch`
     * already names it. Throws 404 for an unknown code.
     */
    async get(code: string, ifNoneMatch?: string): Promise<ShareCardImage> {
      const ticket = SHARE_CODE.test(code) ? await getTicket(kv, code) : null;
      if (!ticket) throw new NotFoundError("No hay una ruta con ese código");
      const loaded = data.current();
      const route = ticket.userId
        ? await getTouristRoute(kv, ticket.userId, loaded)
        : null;
      const card = {
        name: ticket.name,
        visitCount: route?.visitCount ?? 0,
        totalAttractions: loaded.totalAttractions,
        badges: route?.badges ?? [],
        branding: loaded.data.branding,
      };
      const key = [
        SHARE_CARD_VERSION,
        code,
        card.name,
        card.visitCount,
        card.badges.map((badge) => badge.id).join(","),
        loaded.version,
      ].join("\u0000");
      const etag = `"${await hash(key)}"`;
      if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) return { etag };
      return {
        etag,
        png: await cache.getOrRender(key, () => renderShareCard(card)),
      };
    },
  };
}

function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === "*" ||
    header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

async function hash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return Array.from(
    new Uint8Array(digest).slice(0, 16),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
}

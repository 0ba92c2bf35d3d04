import type { AppDeps } from "@/deps.ts";
import { getTicket } from "@/lib/db/tickets.ts";
import { NotFoundError } from "@/lib/http/errors.ts";
import { RenderCache } from "./cache.ts";
import { SHARE_CARD_VERSION, type ShareCard } from "./card.ts";
import { getTouristRoute } from "@/lib/passport/tourist_route.ts";

/** A rendered share card and the strong ETag of its bytes. */
export interface ShareCardImage {
  etag: string;
  /** `undefined` when only the ETag was needed (a conditional request that matched). */
  png?: Uint8Array;
}

const SHARE_CODE = /^[A-Za-z0-9_-]{4,64}$/;
/** The pages' card version: `<visitCount>-<badgeCount>`. */
const CARD_VERSION = /^\d{1,6}-\d{1,3}$/;

/** What one card URL answers: enough to answer it again without KV. */
interface MemoEntry {
  key: string;
  etag: string;
  renderKey: string;
  card: ShareCard;
  /** The PNG once rendered (the same bytes the render cache holds). */
  png?: Uint8Array;
}

/**
 * Builds the share-card service: PNGs cached in memory (bounded, one render
 * per card even under concurrent first requests) by everything the card
 * shows: code, name, visits, badges and the data-set version.
 *
 * The pages link the card as `/api/turismo/og/<code>?v=<visits>-<badges>`,
 * and (code, v, data version) identifies one card: a visit or a badge
 * changes `v`, the name never changes, and badges are only ever added. So
 * the answer for a `v` is memoised (at most `memoEntries` and `memoBytes`
 * of PNGs, which are mostly the render cache's own; least recently used
 * dropped first) and answered again without reading KV. Only the `v`
 * computed from KV is stored, never the one a request sent, so a made-up
 * `v` cannot pin a wrong card; a request without `v`, or with one not seen
 * yet, reads KV and answers the current card.
 */
export function createShareCards(
  { kv, data, renderPool }: Pick<AppDeps, "kv" | "data" | "renderPool">,
  cache = new RenderCache({ maxEntries: 512, maxBytes: 32 * 1024 * 1024 }),
  { memoEntries = 4_096, memoBytes = 32 * 1024 * 1024 }: {
    memoEntries?: number;
    memoBytes?: number;
  } = {},
) {
  const memo = new Map<string, MemoEntry>();
  /** Bytes of the PNGs the memo holds (mostly the render cache's own). */
  let heldBytes = 0;

  function remember(entry: MemoEntry): void {
    forget(entry.key);
    memo.set(entry.key, entry);
    heldBytes += entry.png?.byteLength ?? 0;
    trim();
  }

  function trim(): void {
    for (const oldest of memo.keys()) {
      if (memo.size <= memoEntries && heldBytes <= memoBytes) break;
      forget(oldest);
    }
  }

  function forget(key: string): void {
    const entry = memo.get(key);
    if (!entry) return;
    memo.delete(key);
    heldBytes -= entry.png?.byteLength ?? 0;
  }
  const memoKey = (code: string, v: string, version: string) =>
    `${code}\u0000${v}\u0000${version}`;

  async function answer(
    entry: MemoEntry,
    ifNoneMatch: string | undefined,
  ): Promise<ShareCardImage> {
    if (ifNoneMatch && matchesEtag(ifNoneMatch, entry.etag)) {
      return { etag: entry.etag };
    }
    const png = await cache.getOrRender(
      entry.renderKey,
      // In the worker pool: a render never blocks other requests.
      () => renderPool.render(entry.card),
    );
    if (!entry.png && memo.get(entry.key) === entry) {
      entry.png = png;
      heldBytes += png.byteLength;
      trim();
    }
    return { etag: entry.etag, png };
  }

  /** The memoised answer for (code, v), touched as recently used. */
  function recall(code: string, v: string | undefined): MemoEntry | undefined {
    if (v === undefined || !CARD_VERSION.test(v)) return undefined;
    const key = memoKey(code, v, data.current().version);
    const hit = memo.get(key);
    if (hit) {
      memo.delete(key);
      memo.set(key, hit);
    }
    return hit;
  }

  return {
    cache,
    /** Cards memoised by URL version (for tests and stats). */
    get memoSize(): number {
      return memo.size;
    },
    /**
     * Returns the card of a share code, or only its ETag when `ifNoneMatch`
     * already names it. `v` is the version the page linked; a memoised one
     * is answered without KV. Throws 404 for an unknown code.
     */
    /**
     * The memoised answer for a card URL when it needs no work at all (no
     * KV, no render), synchronously; `undefined` otherwise: then call
     * {@linkcode get}.
     */
    peek(
      code: string,
      { v, ifNoneMatch }: { v?: string; ifNoneMatch?: string } = {},
    ): ShareCardImage | undefined {
      const hit = recall(code, v);
      if (!hit) return undefined;
      if (ifNoneMatch && matchesEtag(ifNoneMatch, hit.etag)) {
        return { etag: hit.etag };
      }
      return hit.png && { etag: hit.etag, png: hit.png };
    },
    async get(
      code: string,
      { v, ifNoneMatch }: { v?: string; ifNoneMatch?: string } = {},
    ): Promise<ShareCardImage> {
      const loaded = data.current();
      const hit = recall(code, v);
      if (hit) return await answer(hit, ifNoneMatch);
      const ticket = SHARE_CODE.test(code) ? await getTicket(kv, code) : null;
      if (!ticket) throw new NotFoundError("No hay una ruta con ese código");
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
      const renderKey = [
        SHARE_CARD_VERSION,
        code,
        card.name,
        card.visitCount,
        card.badges.map((badge) => badge.id).join(","),
        loaded.version,
      ].join("\u0000");
      const entry: MemoEntry = {
        // Stored under the version read from KV, whatever the request said.
        key: memoKey(
          code,
          `${card.visitCount}-${card.badges.length}`,
          loaded.version,
        ),
        etag: `"${await hash(renderKey)}"`,
        renderKey,
        card,
      };
      remember(entry);
      return await answer(entry, ifNoneMatch);
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

/**
 * Share cards as drawn, kept in KV so every instance serves them at once,
 * from a cold start too: a route's card beside its ticket, a public page's
 * card (one the build did not draw) by language and page. Each is stored
 * with the hash of everything it shows (`renderKey`, lib/og/card_key.ts):
 * a reader compares it with the hash of what the card must show now and
 * serves the stored PNG only when they are equal, so a stored card is never
 * an outdated one.
 *
 * A route card's head also keeps the versionstamps it was drawn from (the
 * ticket's and the user's counters', which every visit and badge rewrites)
 * and the data and design versions: while they are unchanged, a reader
 * knows the card is current from two small reads, without listing the
 * route.
 *
 * A KV value holds at most 64 KiB and a card is about 46 KB: the PNG is
 * kept in parts of {@linkcode PART_BYTES} keyed by its `renderKey`, written
 * in the same commit as the head, which stays small.
 */
import { keys, LIFETIMES } from "./keys.ts";
import {
  commit,
  CONFLICT,
  MAX_GET_MANY_KEYS,
  runTransaction,
  TransactionConflictError,
} from "./kv.ts";
import { readTicketEntry, type Ticket } from "./tickets.ts";

/** Bytes of a PNG per KV value, with room under the 64 KiB limit. */
export const PART_BYTES = 60_000;

/**
 * What a route card was drawn from, beyond what it shows: while all of it
 * is unchanged, the card is current.
 */
export interface CardStamps {
  /** The ticket entry's versionstamp. */
  ticket: string;
  /** The user's counters' versionstamp (`null`: no counters, or no user). */
  stats: string | null;
  /** The data set's version. */
  data: string;
  /** The cards' design and words (lib/og). */
  design: string;
  /**
   * The `v` the pages link for this card (lib/og/card_url.ts: visits,
   * badges, name revision, language): a request for that very URL names
   * this card.
   */
  v?: string;
}

/** A stored card's head: what it shows and how many parts its PNG has. */
export interface CardHead {
  renderKey: string;
  /** Parts of the PNG. */
  parts: number;
  /** The PNG's length. */
  bytes: number;
  /** Route cards only. */
  stamps?: CardStamps;
  /** ISO 8601: when it was stored. */
  storedAt: string;
}

/** A card as stored: the hash of what it shows and its PNG. */
export interface StoredCard {
  renderKey: string;
  png: Uint8Array;
  stamps?: CardStamps;
}

/** Where one card lives: its head and the prefix of its further parts. */
interface CardSlot {
  head: Deno.KvKey;
  part: (renderKey: string, index: number) => Deno.KvKey;
  parts: Deno.KvKey;
}

function routeSlot(shareCode: string): CardSlot {
  return {
    head: keys.routeCard(shareCode),
    part: (renderKey, index) => keys.routeCardPart(shareCode, renderKey, index),
    parts: keys.routeCardParts(shareCode),
  };
}

function pageSlot(lang: string, page: string): CardSlot {
  return {
    head: keys.pageCard(lang, page),
    part: (renderKey, index) => keys.pageCardPart(lang, page, renderKey, index),
    parts: keys.pageCardParts(lang, page),
  };
}

/** A route's ticket and the head of its stored card. */
export interface RouteCardRead {
  /** `null` for an unknown code, or one being erased or erased. */
  ticket: { ticket: Ticket; versionstamp: string } | null;
  /** The stored card's head, `null` when none is stored. */
  head: CardHead | null;
  /** The stored card's `renderKey`, `null` when none is stored. */
  storedKey: string | null;
  /** The stored card's PNG, `null` if a part is missing. */
  readPng: () => Promise<Uint8Array | null>;
}

/**
 * A route's ticket (as `getTicketEntry` reads it: the tombstone in the same
 * round trip) and its stored card's head, in one round trip.
 */
export async function readRouteCard(
  kv: Deno.Kv,
  shareCode: string,
): Promise<RouteCardRead> {
  const slot = routeSlot(shareCode);
  const { erased, entry, other } = await readTicketEntry<CardHead>(
    kv,
    shareCode,
    { with: slot.head },
  );
  const head = toHead(other?.value);
  return {
    ticket: erased.value === null && entry.value
      ? { ticket: entry.value, versionstamp: entry.versionstamp }
      : null,
    head,
    storedKey: head?.renderKey ?? null,
    readPng: () => head ? readParts(kv, slot, head) : Promise.resolve(null),
  };
}

/**
 * The versionstamp of a user's counters, which every recorded visit and
 * badge (and a merge) rewrites: `null` when there are none.
 */
export async function readUserStatsStamp(
  kv: Deno.Kv,
  userId: string,
): Promise<string | null> {
  return (await kv.get(keys.userStats(userId))).versionstamp;
}

/**
 * Stores a route's card, unless its ticket is gone or being erased (the
 * tombstone is checked in the commit: a draw that ends after an erasure
 * began never stores the name again). A card of a state that changed since
 * it was drawn may be stored: readers serve a stored card only when its
 * `renderKey` is what the route shows now, and the draw for that change
 * replaces it. Returns whether the card is stored.
 */
export async function storeRouteCard(
  kv: Deno.Kv,
  shareCode: string,
  card: StoredCard,
): Promise<boolean> {
  const slot = routeSlot(shareCode);
  return await storeWith(kv, slot, card, async () => {
    const { erased, entry, other } = await readTicketEntry<CardHead>(
      kv,
      shareCode,
      { with: slot.head },
    );
    if (erased.value !== null || entry.value === null) return null;
    return { checks: [erased, entry], head: other! };
  });
}

/** A public page's stored card (`null` when none). */
export async function readPageCard(
  kv: Deno.Kv,
  lang: string,
  page: string,
): Promise<StoredCard | null> {
  const slot = pageSlot(lang, page);
  const head = toHead((await kv.get(slot.head)).value);
  if (!head) return null;
  const png = await readParts(kv, slot, head);
  return png && { renderKey: head.renderKey, png };
}

/** Stores a public page's card drawn at run time. Returns whether it is stored. */
export async function storePageCard(
  kv: Deno.Kv,
  lang: string,
  page: string,
  card: StoredCard,
): Promise<boolean> {
  const slot = pageSlot(lang, page);
  return await storeWith(kv, slot, card, async () => ({
    checks: [],
    head: await kv.get<CardHead>(slot.head),
  }));
}

/** Deletes a route's stored card, every part of it (erasure). */
export async function deleteRouteCard(
  kv: Deno.Kv,
  shareCode: string,
): Promise<void> {
  const slot = routeSlot(shareCode);
  await runTransaction(async () => {
    const head = await kv.get(slot.head);
    const operation = kv.atomic().check(head).delete(slot.head);
    for await (const part of kv.list({ prefix: slot.parts })) {
      operation.delete(part.key);
    }
    return (await commit(operation)).ok ? undefined : CONFLICT;
  });
}

/**
 * Writes `card` into `slot` in one commit (head, parts, the old card's
 * parts deleted), checking what `read` read. `read` returns `null` when
 * the card must not be stored. Losing a race to another writer of the same
 * card counts as stored.
 */
async function storeWith(
  kv: Deno.Kv,
  slot: CardSlot,
  { renderKey, png, stamps }: StoredCard,
  read: () => Promise<
    {
      checks: Deno.AtomicCheck[];
      head: Deno.KvEntryMaybe<CardHead>;
    } | null
  >,
): Promise<boolean> {
  const expireIn = LIFETIMES.storedCardMs;
  const parts = Math.max(1, Math.ceil(png.byteLength / PART_BYTES));
  try {
    return await runTransaction(async () => {
      const found = await read();
      if (!found) return false;
      const old = toHead(found.head.value);
      const head: CardHead = {
        renderKey,
        parts,
        bytes: png.byteLength,
        ...(stamps ? { stamps } : {}),
        storedAt: new Date().toISOString(),
      };
      const operation = kv.atomic().check(...found.checks, found.head)
        .set(slot.head, head, { expireIn });
      for (let index = 0; index < parts; index++) {
        // A copy, not a view: KV would store a view's whole buffer.
        const part = png.slice(index * PART_BYTES, (index + 1) * PART_BYTES);
        operation.set(slot.part(renderKey, index), part, { expireIn });
      }
      if (old && old.renderKey !== renderKey) {
        for (let index = 0; index < old.parts; index++) {
          operation.delete(slot.part(old.renderKey, index));
        }
      }
      return (await commit(operation)).ok ? true : CONFLICT;
    }, { maxAttempts: 5 });
  } catch (error) {
    // Other writers kept winning: they stored a card of this slot; the
    // next reader compares its key as always.
    if (error instanceof TransactionConflictError) return false;
    throw error;
  }
}

/** The whole PNG of a head, `null` if a part is missing. */
async function readParts(
  kv: Deno.Kv,
  slot: CardSlot,
  head: CardHead,
): Promise<Uint8Array | null> {
  const png = new Uint8Array(head.bytes);
  let offset = 0;
  for (let first = 0; first < head.parts; first += MAX_GET_MANY_KEYS) {
    const wanted: Deno.KvKey[] = [];
    for (
      let i = first;
      i < Math.min(head.parts, first + MAX_GET_MANY_KEYS);
      i++
    ) {
      wanted.push(slot.part(head.renderKey, i));
    }
    for (const { value } of await kv.getMany<Uint8Array[]>(wanted)) {
      if (!(value instanceof Uint8Array)) return null;
      if (offset + value.byteLength > head.bytes) return null;
      png.set(value, offset);
      offset += value.byteLength;
    }
  }
  return offset === head.bytes ? png : null;
}

function toHead(value: unknown): CardHead | null {
  const head = value as CardHead | null | undefined;
  return head && typeof head.renderKey === "string" &&
      Number.isInteger(head.parts) && head.parts >= 1 &&
      Number.isInteger(head.bytes)
    ? head
    : null;
}

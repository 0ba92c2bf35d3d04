import type { LRUCache } from "lru-cache";
import type { DataStore } from "@/lib/data/data_store.ts";
import type { DataChange } from "@/lib/db/changes.ts";
import { getTicketEntry, type Ticket } from "@/lib/db/tickets.ts";
import { localizeData } from "@/lib/data/translations.ts";
import { DEFAULT_LANG, isLang } from "@/lib/i18n/catalogue.ts";
import { apiMessage, NotFoundError } from "@/lib/errors/mod.ts";
import { getTouristRoute } from "@/lib/passport/tourist_route.ts";
import { isShareCode } from "@/lib/tickets/share_code.ts";
import { pageCardCacheKey, shareCardCacheKey } from "./card_key.ts";
import type { AnyCard, ShareCard } from "./card_types.ts";
import {
  getCardVersion,
  getPageCardBasePath,
  getPageCardVersion,
  isCardVersion,
  type PageCardId,
} from "./card_url.ts";
import { getPageCard } from "./page_cards.ts";
import type { RenderPool } from "./pool.ts";

/** A rendered share card and the strong ETag of its bytes. */
export interface ShareCardImage {
  etag: string;
  /** `undefined` when only the ETag was needed (a conditional request that matched). */
  png?: Uint8Array;
}

/** A page's card (home, attraction) and the version its URL should carry. */
export interface PageCardImage extends ShareCardImage {
  /** The current `v` of this card's URL (`<data version>-<design>`). */
  v: string;
}

/** What one card URL answers: enough to answer it again without rendering. */
interface CardAnswer {
  etag: string;
  /**
   * The versionstamp of the ticket it was drawn from (route cards only): it
   * is given again only while the ticket in KV still has this stamp, so a
   * rename or an erasure is never answered from memory.
   */
  ticketStamp?: string;
  /** The PNG's key: a hash of everything the card shows. */
  renderKey: string;
  card: AnyCard;
}

/** How often renders were started, joined or skipped (tests, benchmarks). */
export interface ShareCardStats {
  /** Answered from the PNG cache. */
  hits: number;
  /** A render started. */
  misses: number;
  /** Joined a render of the same card already running. */
  coalesced: number;
}

export interface ShareCardsOptions {
  /** Rendered PNGs kept (default 512)... */
  maxCards?: number;
  /** ...and at most these bytes of them (default 16 MiB: about 350 cards). */
  maxBytes?: number;
  /** Card URLs remembered (default 4,096): each a key into the PNGs. */
  maxUrls?: number;
}

/** Page cards' answers remembered: the home page and 17 attractions, per data version. */
const MAX_PAGE_ANSWERS = 256;

/**
 * How long a card URL without `v` (the spec's `/api/turismo/og/<code>`) may
 * show the visits and badges it was drawn with. This instance's writes drop
 * it at once ({@linkcode ShareCards.invalidate}); another instance's visits
 * show within this time, as on the route pages. A rename or an erasure is
 * never held: every answer is checked against the ticket in KV first.
 */
export const LATEST_CARD_TTL_MS = 2_000;

/** The answer of a card URL without `v`, and whose route it shows. */
interface LatestAnswer {
  answer: CardAnswer;
  userId: string | null;
}

/**
 * The share cards of tourists' routes: PNGs rendered in the worker pool and
 * kept in memory by everything the card shows (name, visits, badges,
 * branding), with one render per card even under concurrent first requests
 * (`lru-cache`'s fetch). A changed route is a new card, never a stale one.
 *
 * The pages link the card as `?v=<visits>-<badges>[-<name revision>]`, and
 * (code, v, data version) names one card: a visit, a badge or a rename
 * changes `v`, badges are only added. So the answer for a `v` is remembered
 * and given again without a render. Every request still reads the ticket
 * (one KV round trip): a remembered answer is given only while the ticket
 * has the versionstamp it was drawn from, so after a rename or an erasure
 * on any instance no URL, the old versioned ones included, shows the old
 * name (the current card, or a 404). Only the `v` computed from KV is
 * stored, never the one a request sent, so a made-up `v` cannot pin a
 * wrong card. A request without `v` (the spec's URL) is answered from a
 * short per-instance memory ({@linkcode LATEST_CARD_TTL_MS}) for its visits,
 * which this instance's writes drop.
 *
 * The public pages' cards (the home page, each attraction) show the data set
 * only: their answers are kept by path and data version, their PNGs in the
 * same bounded cache, rendered in the same pool. A new data set is a new
 * answer (and a new `v` in the pages' links); old PNGs age out of the LRU.
 */
export class ShareCards {
  readonly #kv: Deno.Kv;
  readonly #data: DataStore;
  /**
   * The caches, made with the first card asked for: importing lru-cache
   * starts Deno's Node layer, which a start that serves no card yet need
   * not pay. Before, there is nothing to peek at or drop.
   */
  #caches?: Caches;
  #creating?: Promise<Caches>;
  readonly #createCaches: () => Promise<Caches>;
  /** The share codes in the `latest` cache by the user whose route they show. */
  readonly #latestByUser = new Map<string, Set<string>>();
  /** Counts this instance's writes: a read that saw one happen is not kept in the `latest` cache. */
  #writes = 0;
  readonly #stats: ShareCardStats = { hits: 0, misses: 0, coalesced: 0 };

  constructor(
    { kv, data, renderPool, now = () => new Date() }: {
      kv: Deno.Kv;
      data: DataStore;
      renderPool: Pick<RenderPool, "render">;
      /** The clock of {@linkcode LATEST_CARD_TTL_MS} (the app's, so tests can move it). */
      now?: () => Date;
    },
    { maxCards = 512, maxBytes = 16 * 1024 * 1024, maxUrls = 4_096 }:
      ShareCardsOptions = {},
  ) {
    this.#kv = kv;
    this.#data = data;
    this.#createCaches = async () => {
      const { LRUCache } = await import("lru-cache");
      return this.#caches = {
        pngs: new LRUCache<string, Uint8Array, { card: AnyCard }>({
          max: maxCards,
          maxSize: maxBytes,
          sizeCalculation: (png) => png.byteLength,
          // In the worker pool: a render never blocks other requests.
          fetchMethod: (_key, _stale, { context }) =>
            renderPool.render(context.card),
        }),
        answers: new LRUCache<string, CardAnswer>({ max: maxUrls }),
        pageAnswers: new LRUCache<string, CardAnswer>({
          max: MAX_PAGE_ANSWERS,
        }),
        latest: new LRUCache<string, LatestAnswer>({
          max: maxUrls,
          // lru-cache keeps an entry while its age is at most `ttl`.
          ttl: LATEST_CARD_TTL_MS - 1,
          ttlResolution: 0,
          perf: { now: () => now().getTime() },
          dispose: ({ userId }, code) => {
            if (!userId) return;
            const codes = this.#latestByUser.get(userId);
            codes?.delete(code);
            if (codes?.size === 0) this.#latestByUser.delete(userId);
          },
        }),
      };
    };
  }

  /** The caches, made on first use. */
  #getCaches(): Caches | Promise<Caches> {
    return this.#caches ?? (this.#creating ??= this.#createCaches());
  }

  /**
   * Drops what a write on this instance made stale: the answers without `v`
   * of the routes it changed (answers with `v` name their card exactly and
   * stay right).
   */
  invalidate(change: DataChange): void {
    this.#writes++;
    const caches = this.#caches;
    if (!caches) return;
    const users = change.kind === "merge"
      ? [change.fromUserId, change.intoUserId]
      : change.userId
      ? [change.userId]
      : [];
    for (const userId of users) {
      for (const code of [...this.#latestByUser.get(userId) ?? []]) {
        caches.latest.delete(code);
      }
    }
    if (change.kind === "ticket") {
      caches.latest.delete(change.shareCode.toLowerCase());
    }
    if (change.kind === "erasure") {
      for (const code of change.shareCodes) {
        caches.latest.delete(code.toLowerCase());
      }
    }
  }

  get stats(): Readonly<ShareCardStats> {
    return { ...this.#stats };
  }

  /** Card URLs remembered. */
  get urlCount(): number {
    return this.#caches?.answers.size ?? 0;
  }

  /**
   * The card of a share code, or only its ETag when `ifNoneMatch` already
   * names it. Reads the ticket every time; a `v` seen before is answered
   * without a render while the ticket is unchanged. Throws 404 for an
   * unknown or erased code.
   */
  async get(
    code: string,
    { v, ifNoneMatch }: { v?: string; ifNoneMatch?: string } = {},
  ): Promise<ShareCardImage> {
    // A write from here on may make what the reads see stale.
    const writesBefore = this.#writes;
    const caches = this.#caches ?? await this.#getCaches();
    const key = code.toLowerCase();
    const read = isShareCode(code)
      ? await getTicketEntry(this.#kv, code)
      : null;
    if (!read) {
      caches.latest.delete(key);
      throw new NotFoundError(apiMessage("route.unknown"));
    }
    const remembered = this.#recall(caches, code, v) ??
      (v === undefined ? caches.latest.get(key)?.answer : undefined);
    const answer = remembered?.ticketStamp === read.versionstamp
      ? remembered
      : await this.#read(caches, code, read, writesBefore);
    return await this.#image(caches, answer, ifNoneMatch);
  }

  /**
   * A public page's card when it needs no work (its answer known for the
   * data set in force, its PNG cached), synchronously; `undefined`
   * otherwise: then call {@linkcode getPageCard}.
   */
  peekPageCard(
    id: PageCardId,
    { ifNoneMatch }: { ifNoneMatch?: string } = {},
  ): PageCardImage | undefined {
    const caches = this.#caches;
    if (!caches) return undefined;
    const loaded = this.#data.current();
    const answer = caches.pageAnswers.get(this.#pageKey(id, loaded.version));
    if (!answer) return undefined;
    const v = getPageCardVersion(loaded.version);
    if (ifNoneMatch && matchesEtag(ifNoneMatch, answer.etag)) {
      return { etag: answer.etag, v };
    }
    const png = caches.pngs.get(answer.renderKey);
    return png && { etag: answer.etag, png, v };
  }

  /**
   * A public page's card from the data set in force: the home page's, or an
   * attraction's (404 for a slug the data set does not have). Rendered in
   * the pool and kept in the same PNG cache as the route cards; the answer
   * is keyed by the data version, so a new data set is a new card.
   */
  async getPageCard(
    id: PageCardId,
    { ifNoneMatch }: { ifNoneMatch?: string } = {},
  ): Promise<PageCardImage> {
    const caches = this.#caches ?? await this.#getCaches();
    const loaded = this.#data.current();
    const key = this.#pageKey(id, loaded.version);
    let answer = caches.pageAnswers.get(key);
    if (!answer) {
      const card = getPageCard(loaded, id);
      if (!card) throw new NotFoundError(apiMessage("attraction.unknownName"));
      const renderKey = await pageCardCacheKey(card);
      answer = { etag: `"${renderKey.slice(8, 40)}"`, renderKey, card };
      caches.pageAnswers.set(key, answer);
    }
    const v = getPageCardVersion(loaded.version);
    return { ...await this.#image(caches, answer, ifNoneMatch), v };
  }

  /** The PNG of an answer (rendered once, then cached), or only its ETag. */
  async #image(
    { pngs }: Caches,
    answer: CardAnswer,
    ifNoneMatch: string | undefined,
  ): Promise<ShareCardImage> {
    if (ifNoneMatch && matchesEtag(ifNoneMatch, answer.etag)) {
      return { etag: answer.etag };
    }
    const status: LRUCache.Status<string, Uint8Array, { card: AnyCard }> = {};
    const png = await pngs.fetch(answer.renderKey, {
      context: { card: answer.card },
      status,
    });
    if (status.fetch === "hit") this.#stats.hits++;
    else if (status.fetch === "inflight") this.#stats.coalesced++;
    else this.#stats.misses++;
    return { etag: answer.etag, png: png! };
  }

  #pageKey(id: PageCardId, dataVersion: string): string {
    return `${id.lang ?? DEFAULT_LANG}\u0000${
      getPageCardBasePath(id)
    }\u0000${dataVersion}`;
  }

  #answerKey(code: string, v: string): string {
    return `${code.toLowerCase()}\u0000${v}\u0000${this.#data.current().version}`;
  }

  #recall(
    { answers }: Caches,
    code: string,
    v: string | undefined,
  ): CardAnswer | undefined {
    return isCardVersion(v) ? answers.get(this.#answerKey(code, v)) : undefined;
  }

  /**
   * Reads the route of a ticket just read from KV and remembers the answer
   * under the `v` read; not as the latest when this instance wrote since
   * `writesBefore`.
   */
  async #read(
    caches: Caches,
    code: string,
    { ticket, versionstamp }: { ticket: Ticket; versionstamp: string },
    writesBefore: number,
  ): Promise<CardAnswer> {
    const loaded = this.#data.current();
    const route = ticket.userId
      ? await getTouristRoute(this.#kv, ticket.userId, loaded)
      : null;
    const lang = ticket.lang && isLang(ticket.lang) ? ticket.lang : undefined;
    const card: ShareCard = {
      name: ticket.name,
      visitCount: route?.visitCount ?? 0,
      totalAttractions: loaded.totalAttractions,
      badges: route?.badges ?? [],
      // The card is drawn in the language the ticket was made in.
      branding: lang
        ? localizeData(loaded.data, lang).branding
        : loaded.data.branding,
      ...(lang && lang !== DEFAULT_LANG ? { lang } : {}),
    };
    const renderKey = await shareCardCacheKey(card);
    const answer: CardAnswer = {
      etag: `"${renderKey.slice(3, 35)}"`,
      ticketStamp: versionstamp,
      renderKey,
      card,
    };
    const v = getCardVersion({
      visitCount: card.visitCount,
      badgeCount: card.badges.length,
      nameRevision: ticket.nameRevision,
      lang: card.lang,
    });
    caches.answers.set(this.#answerKey(code, v), answer);
    if (this.#writes !== writesBefore) return answer; // Maybe stale already.
    const latestKey = code.toLowerCase();
    caches.latest.set(latestKey, { answer, userId: ticket.userId });
    if (ticket.userId) {
      let codes = this.#latestByUser.get(ticket.userId);
      if (!codes) this.#latestByUser.set(ticket.userId, codes = new Set());
      codes.add(latestKey);
    }
    return answer;
  }
}

function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === "*" ||
    header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** Every cache of {@linkcode ShareCards}; the context of `pngs` is a box: `lru-cache`'s option types distribute over a union. */
interface Caches {
  pngs: LRUCache<string, Uint8Array, { card: AnyCard }>;
  answers: LRUCache<string, CardAnswer>;
  /** Page cards' answers by path and data version: a new data set, new answers. */
  pageAnswers: LRUCache<string, CardAnswer>;
  /** Answers of card URLs without `v`, by share code, for a short time. */
  latest: LRUCache<string, LatestAnswer>;
}

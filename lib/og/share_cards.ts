import {
  type CardStamps,
  readPageCard,
  readRouteCard,
  readUserStatsStamp,
  type RouteCardRead,
  storePageCard,
  storeRouteCard,
} from "@/lib/db/card_images.ts";
import { BoundedMap } from "@/lib/cache/bounded_map.ts";
import type { DataChange } from "@/lib/db/changes.ts";
import { getShareCodeOfUser, type Ticket } from "@/lib/db/tickets.ts";
import type { DataStore } from "@/lib/data/data_store.ts";
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { localizeData } from "@/lib/data/translations.ts";
import { DEFAULT_LANG, isLang } from "@/lib/i18n/catalogue.ts";
import { apiMessage, NotFoundError } from "@/lib/errors/mod.ts";
import { getTouristRoute } from "@/lib/passport/tourist_route.ts";
import { isShareCode } from "@/lib/tickets/share_code.ts";
import {
  getBuiltPageCardName,
  getCardDesignVersion,
  pageCardCacheKey,
  shareCardCacheKey,
} from "./card_key.ts";
import {
  type AnyCard,
  isPageCard,
  type PageCard,
  type ShareCard,
} from "./card_types.ts";
import {
  getCardVersion,
  getPageCardBasePath,
  getPageCardVersion,
  type PageCardId,
} from "./card_url.ts";
import { ROUTE_CARD_ANSWER_MS, ROUTE_CARD_MEMORY_MS } from "./memory.ts";
import { getPageCard } from "./page_cards.ts";
import type { RenderPool } from "./pool.ts";

/** A share card's PNG and the strong ETag of its bytes. */
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

/** Where the cards served came from (tests, benchmarks). */
export interface ShareCardStats {
  /** Served as stored (KV, or the build's files for page cards): no render. */
  hits: number;
  /** A render started (on a write or for a request). */
  misses: number;
  /** Joined a render of the same card already running. */
  coalesced: number;
}

export interface ShareCardsOptions {
  /**
   * After a route's card is drawn for a write, further writes to that route
   * within this time are drawn once, when it has passed, with the latest
   * state (default 3 s).
   */
  cooldownMs?: number;
  /** The build's output (`static/build`), whose `og/` holds the page cards drawn at build. */
  buildDir?: string;
  /** The photo library (`deps.photos`): an attraction's card shows its first photo. */
  photos?: CardPhotos;
  /**
   * How long a route card's URL is answered from memory without a KV read
   * (default {@linkcode ROUTE_CARD_ANSWER_MS}; 0: every request reads KV).
   */
  rememberMs?: number;
  /** The clock of the photo checks, in ms (default `performance.now`). */
  now?: () => number;
}

/**
 * How often a page card kept in memory asks whether its photo is still in
 * the library: a deletion on another instance reaches this one's cards
 * within this time, as it reaches its photo files (`PHOTO_FILE_CHECK_MS`).
 */
export const PAGE_CARD_PHOTO_CHECK_MS = 30_000;

/** A card as it must be now: what it shows and the hash naming its PNG. */
/** What the page cards read of the photo library (lib/photos's `PhotoLibrary`). */
export interface CardPhotos {
  getPhotos(
    photoIds: readonly string[],
  ): Promise<{ id: string; renditions: { width: number }[] }[]>;
  readFile(name: string): Promise<{ bytes: Uint8Array } | null>;
}

/** The width of the photo a card shows: its narrowest rendition at least this wide. */
const CARD_PHOTO_WIDTH = 480;

interface CurrentCard {
  card: AnyCard;
  renderKey: string;
  etag: string;
  /** What a route card is drawn from (see `CardStamps`). */
  stamps?: CardStamps;
  /** A page card with a photo: when the library last said it holds it. */
  photoCheckedAt?: number;
}

/** Route cards' PNGs kept in memory at most, by count and by bytes (46 KB each, usually). */
const MAX_ROUTE_IMAGES = 128;
export const MAX_ROUTE_IMAGE_BYTES = 6 * 1024 * 1024;

/** Route card URLs answered from memory at most (their PNGs are mostly those of `#routeImages`). */
const MAX_ROUTE_ANSWERS = 128;
export const MAX_ROUTE_ANSWER_BYTES = 6 * 1024 * 1024;

/** Page cards' PNGs kept in memory (two languages, the home page and 17 attractions). */
const MAX_PAGE_IMAGES = 64;
export const MAX_PAGE_IMAGE_BYTES = 3 * 1024 * 1024;

/** The memory a PNG holds: its whole buffer (a view keeps all of it). */
function heldBytes(png: Uint8Array): number {
  return Math.max(png.byteLength, png.buffer.byteLength);
}

/**
 * The share cards: drawn when what they show changes, stored in KV (or, for
 * the public pages' cards, drawn by `deno task build`), served as stored.
 *
 * A route's card is drawn when its ticket, visits, badges or name change
 * ({@linkcode ShareCards.changed}, told of every write): at once, then at
 * most once per `cooldownMs` with the latest state, so a burst of check-ins
 * draws a handful of times. The PNG is stored with the hash of what it shows
 * (lib/db/card_images.ts), so every instance serves it, from a cold start
 * too, and the render pool stays unloaded.
 *
 * A request reads the ticket, the stored card's head and the route, and
 * hashes what the card must show now: the stored PNG is served only when it
 * was drawn from exactly that, so no URL (`?v=` or not) ever shows an
 * outdated name, and an erased route is a 404 (the tombstone is read with
 * the ticket). Otherwise, in the moment right after a write (or when no card
 * is stored yet), the request draws it, joining a render of the same card
 * already running, and stores it; a card stored for a state that changed
 * meanwhile is never served, and the draw for that change replaces it.
 *
 * A public page's card shows the data set only: the build draws every page's
 * card of the data set it checks, named by its hash; a data set changed
 * since is drawn once at run time and stored in KV. Page cards' PNGs are
 * kept in memory (a few dozen, 46 KB each; at most 3 MiB).
 *
 * A route card's URL (the spec's, or the `v` pages link now) is answered
 * again from memory, without a KV read, for `rememberMs`: this instance's
 * writes drop it at once ({@linkcode changed}), a rename or an erasure on
 * any instance within a second ({@linkcode forgetRoutes}, called by the
 * `route_changes` watcher in deps.ts).
 */
export class ShareCards {
  readonly #kv: Deno.Kv;
  readonly #data: DataStore;
  readonly #pool: Pick<RenderPool, "render">;
  readonly #cooldownMs: number;
  readonly #buildDir?: string;
  readonly #rememberMs: number;
  readonly #photos?: CardPhotos;
  /** Renders running, by slot and hash: a second ask for the same card joins. */
  readonly #drawing = new Map<string, Promise<Uint8Array>>();
  /** Routes drawn for a write, still in their cool-down; `again` once written to since. */
  readonly #cooling = new Map<string, Cooling>();
  /** Scheduling work not done yet (the lookups of a user's share code, the draws). */
  readonly #pending = new Set<Promise<unknown>>();
  /** The current page cards' hashes, for the data version in `#pageDataVersion`. */
  readonly #pageCards = new Map<string, CurrentCard>();
  #pageDataVersion?: string;
  /** Page cards' PNGs by hash, in insertion order (the oldest is dropped first). */
  readonly #pageImages = new BoundedMap<Uint8Array>(
    MAX_PAGE_IMAGES,
    MAX_PAGE_IMAGE_BYTES,
    heldBytes,
  );
  /** Route cards' PNGs by hash, with when they were read ({@linkcode ROUTE_CARD_MEMORY_MS}). */
  readonly #routeImages = new BoundedMap<{ png: Uint8Array; at: number }>(
    MAX_ROUTE_IMAGES,
    MAX_ROUTE_IMAGE_BYTES,
    ({ png }) => heldBytes(png),
  );
  /**
   * Route card URLs answered lately, by data version, code and `v`: served
   * again without a KV read for {@linkcode ROUTE_CARD_ANSWER_MS}, until a
   * write (here, or a rename or an erasure anywhere) drops them.
   */
  readonly #answers = new BoundedMap<RouteAnswer>(
    MAX_ROUTE_ANSWERS,
    MAX_ROUTE_ANSWER_BYTES,
    ({ png }) => heldBytes(png),
  );
  /** Moved by every drop: an answer read before it is not kept. */
  #generation = 0;
  readonly #stats: ShareCardStats = { hits: 0, misses: 0, coalesced: 0 };
  readonly #now: () => number;
  #closed = false;

  constructor(
    { kv, data, renderPool }: {
      kv: Deno.Kv;
      data: DataStore;
      renderPool: Pick<RenderPool, "render">;
    },
    {
      cooldownMs = 3_000,
      buildDir,
      rememberMs = ROUTE_CARD_ANSWER_MS,
      photos,
      now = () => performance.now(),
    }: ShareCardsOptions = {},
  ) {
    this.#kv = kv;
    this.#data = data;
    this.#pool = renderPool;
    this.#cooldownMs = cooldownMs;
    this.#buildDir = buildDir;
    this.#rememberMs = rememberMs;
    this.#photos = photos;
    this.#now = now;
  }

  get stats(): Readonly<ShareCardStats> {
    return { ...this.#stats };
  }

  /**
   * Told of every write (through `onChange`): draws the cards of the routes
   * it changed, coalesced per route. An erasure draws nothing (its cards
   * are deleted with its tickets).
   */
  changed(change: DataChange): void {
    if (this.#closed) return;
    switch (change.kind) {
      case "ticket":
        this.#forgetAnswers((a) =>
          a.code === change.shareCode.toLowerCase() ||
          (change.userId !== null && a.userId === change.userId)
        );
        this.#schedule(change.shareCode);
        return;
      case "visit":
        this.#forgetAnswers((a) => a.userId === change.userId);
        // The visit's own read gave the ticket's code: no read of it here.
        if (change.shareCode === undefined) this.#scheduleUser(change.userId);
        else if (change.shareCode) this.#schedule(change.shareCode);
        return;
      case "rating":
      case "note_visibility":
        this.#forgetAnswers((a) => a.userId === change.userId);
        this.#scheduleUser(change.userId);
        return;
      case "merge":
        this.#forgetAnswers((a) =>
          a.userId === change.fromUserId || a.userId === change.intoUserId
        );
        this.#scheduleUser(change.fromUserId);
        this.#scheduleUser(change.intoUserId);
        return;
      case "check_in_rule":
        // Not on any card.
        return;
      case "photo_deleted":
        // The page cards that showed it are worked out again, without it.
        for (const [slot, current] of this.#pageCards) {
          if (
            isPageCard(current.card) &&
            current.card.photo?.id === change.photoId
          ) this.#pageCards.delete(slot);
        }
        return;
      case "erasure":
        // Never served after the tombstone anyway; not kept either.
        this.forgetRoutes();
        return;
    }
  }

  /**
   * Drops every route card this instance answers from memory: a rename or
   * an erasure somewhere (the `route_changes` watcher, deps.ts). The next
   * request for each reads KV again.
   */
  forgetRoutes(): void {
    this.#forgetAnswers(() => true);
    this.#routeImages.clear();
  }

  #forgetAnswers(which: (answer: RouteAnswer) => boolean): void {
    this.#generation++;
    for (const [key, answer] of [...this.#answers.entries()]) {
      if (which(answer)) this.#answers.delete(key);
    }
  }

  /** Resolves once every card scheduled so far is drawn and stored (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) {
      await Promise.allSettled([...this.#pending]);
    }
  }

  /** Stops drawing for writes (the pool's close ends renders running). */
  close(): void {
    this.#closed = true;
    for (const cooling of this.#cooling.values()) {
      clearTimeout(cooling.timer);
      cooling.ended?.();
    }
    this.#cooling.clear();
  }

  /**
   * The card of a share code, or only its ETag when `ifNoneMatch` already
   * names it: the stored PNG when it shows what the route shows now, else
   * drawn now. Throws 404 for an unknown, malformed or erased code.
   */
  async get(
    code: string,
    { v, ifNoneMatch, onRemembered }: {
      v?: string;
      ifNoneMatch?: string;
      /**
       * Told, when the PNG answered is the one remembered for its URL, a
       * check that it still is (not expired, not dropped by a write).
       */
      onRemembered?: (isCurrent: () => boolean) => void;
    } = {},
  ): Promise<ShareCardImage> {
    const key =
      `${this.#data.current().version}\u0000${code.toLowerCase()}\u0000${
        v ?? ""
      }`;
    const known = this.#answers.get(key);
    if (known) {
      if (performance.now() - known.at < this.#rememberMs) {
        this.#stats.hits++;
        if (ifNoneMatch && matchesEtag(ifNoneMatch, known.etag)) {
          return { etag: known.etag };
        }
        onRemembered?.(this.#isRemembered(key, known));
        return { etag: known.etag, png: known.png };
      }
      this.#answers.delete(key);
    }
    const generation = this.#generation;
    const read = isShareCode(code) ? await readRouteCard(this.#kv, code) : null;
    if (!read?.ticket) throw new NotFoundError(apiMessage("route.unknown"));
    const { v: currentV, ...answer } = await this.#answer(
      code,
      { ...read, ticket: read.ticket },
      { v, ifNoneMatch },
    );
    // Remembered for the spec's URL and the one pages link now; a made-up
    // or outdated `v` is answered from KV each time and takes no room.
    if (
      answer.png && (v === undefined || v === currentV) &&
      this.#rememberMs > 0 && generation === this.#generation && !this.#closed
    ) {
      const remembered = {
        code: code.toLowerCase(),
        userId: read.ticket.ticket.userId,
        etag: answer.etag,
        png: answer.png,
        at: performance.now(),
      };
      this.#answers.set(key, remembered);
      if (this.#answers.get(key) === remembered) {
        onRemembered?.(this.#isRemembered(key, remembered));
      }
    }
    return answer;
  }

  /** Whether `answer` is still the one remembered for `key` and not expired. */
  #isRemembered(key: string, answer: RouteAnswer): () => boolean {
    const loaded = this.#data.current();
    return () =>
      this.#data.current() === loaded && this.#answers.get(key) === answer &&
      performance.now() - answer.at < this.#rememberMs;
  }

  /** {@linkcode get}'s answer from what it read. */
  async #answer(
    code: string,
    read: RouteCardRead & { ticket: NonNullable<RouteCardRead["ticket"]> },
    { v, ifNoneMatch }: { v?: string; ifNoneMatch?: string },
  ): Promise<ShareCardImage & { v?: string }> {
    const { head } = read;
    // The URL a page links names the stored card (`v` counts its visits,
    // badges and renames), drawn from this very ticket, data set and
    // design: no further read. Otherwise, drawn from these counters too:
    // current, known from one more small read.
    const stamps = head?.stamps;
    if (
      stamps &&
      (v !== undefined && stamps.v === v &&
          await this.#isCurrentTicket(stamps, read.ticket.versionstamp) ||
        await this.#isCurrent(stamps, read.ticket.ticket.userId, {
          ticket: read.ticket.versionstamp,
        }))
    ) {
      const etag = toRouteEtag(head.renderKey);
      if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) return { etag };
      const png = await this.#storedImage(head.renderKey, read.readPng);
      if (png) return { etag, png, v: stamps.v };
    }
    const current = await this.#currentRouteCard(read.ticket);
    if (ifNoneMatch && matchesEtag(ifNoneMatch, current.etag)) {
      return { etag: current.etag };
    }
    if (
      head?.renderKey === current.renderKey &&
      head.stamps?.design === current.stamps?.design
    ) {
      const png = await this.#storedImage(head.renderKey, read.readPng);
      if (png) return { etag: current.etag, png, v: current.stamps?.v };
    }
    const png = await this.#drawRouteCard(code, current);
    return { etag: current.etag, png, v: current.stamps?.v };
  }

  /**
   * A public page's card when it needs no work (its PNG in memory for the
   * data set in force), synchronously; `undefined` otherwise: then call
   * {@linkcode getPageCard}.
   */
  peekPageCard(
    id: PageCardId,
    { ifNoneMatch }: { ifNoneMatch?: string } = {},
  ): PageCardImage | undefined {
    const loaded = this.#data.current();
    if (this.#pageDataVersion !== loaded.version) return undefined;
    const current = this.#pageCards.get(pageSlotKey(id));
    if (!current || this.#isPhotoCheckDue(current)) return undefined;
    const v = getPageCardVersion(loaded.version);
    if (ifNoneMatch && matchesEtag(ifNoneMatch, current.etag)) {
      return { etag: current.etag, v };
    }
    const png = this.#pageImages.get(current.renderKey);
    if (!png) return undefined;
    this.#stats.hits++;
    return { etag: current.etag, png, v };
  }

  /**
   * A public page's card from the data set in force: the home page's, or an
   * attraction's (404 for a slug the data set does not have). Read from the
   * build's files, else from KV, else drawn and stored.
   */
  async getPageCard(
    id: PageCardId,
    { ifNoneMatch }: { ifNoneMatch?: string } = {},
  ): Promise<PageCardImage> {
    const loaded = this.#data.current();
    const v = getPageCardVersion(loaded.version);
    const current = await this.#currentPageCard(loaded, id);
    if (ifNoneMatch && matchesEtag(ifNoneMatch, current.etag)) {
      return { etag: current.etag, v };
    }
    let png = this.#pageImages.get(current.renderKey);
    if (png) {
      this.#stats.hits++;
      return { etag: current.etag, png, v };
    }
    const lang = id.lang ?? DEFAULT_LANG;
    const page = getPageCardBasePath(id);
    png = await this.#readBuiltPageCard(current.renderKey) ?? undefined;
    if (!png) {
      const stored = await readPageCard(this.#kv, lang, page);
      if (stored?.renderKey === current.renderKey) png = stored.png;
    }
    if (png) {
      this.#stats.hits++;
    } else {
      png = await this.#draw(
        `page\u0000${lang}\u0000${page}`,
        current,
        (png) =>
          storePageCard(this.#kv, lang, page, {
            renderKey: current.renderKey,
            png,
          }),
      );
    }
    this.#keepPageImage(current.renderKey, png);
    return { etag: current.etag, png, v };
  }

  /** Draws `code`'s card if what is stored is not what it shows now. */
  async #refresh(code: string): Promise<void> {
    const read = await readRouteCard(this.#kv, code);
    if (!read.ticket) return;
    const { head } = read;
    if (
      head?.stamps &&
      await this.#isCurrent(head.stamps, read.ticket.ticket.userId, {
        ticket: read.ticket.versionstamp,
      })
    ) return;
    const current = await this.#currentRouteCard(read.ticket);
    if (
      head?.renderKey === current.renderKey &&
      head.stamps?.design === current.stamps?.design
    ) {
      // The same picture from newer stamps: stored again with them, so
      // readers know it current from the small reads.
      const png = await read.readPng();
      if (png) {
        await storeRouteCard(this.#kv, code, {
          renderKey: current.renderKey,
          png,
          stamps: current.stamps,
        });
        return;
      }
    }
    await this.#drawRouteCard(code, current);
  }

  /** Whether `stamps` are those of the ticket just read, and of the data set and design now. */
  async #isCurrentTicket(
    stamps: CardStamps,
    ticket: string,
  ): Promise<boolean> {
    return stamps.ticket === ticket &&
      stamps.data === this.#data.current().version &&
      stamps.design === await getCardDesignVersion();
  }

  /** {@linkcode #isCurrentTicket}, and the user's counters unchanged too. */
  async #isCurrent(
    stamps: CardStamps,
    userId: string | null,
    { ticket }: { ticket: string },
  ): Promise<boolean> {
    if (!await this.#isCurrentTicket(stamps, ticket)) return false;
    const stats = userId ? await readUserStatsStamp(this.#kv, userId) : null;
    return stats === stamps.stats;
  }

  #recallRouteImage(renderKey: string): Uint8Array | undefined {
    const kept = this.#routeImages.get(renderKey);
    if (!kept) return undefined;
    if (performance.now() - kept.at > ROUTE_CARD_MEMORY_MS) {
      this.#routeImages.delete(renderKey);
      return undefined;
    }
    return kept.png;
  }

  /** A stored route card's PNG, from memory or else KV (kept then); `null` if a part is missing. */
  async #storedImage(
    renderKey: string,
    readPng: () => Promise<Uint8Array | null>,
  ): Promise<Uint8Array | null> {
    let png: Uint8Array | null = this.#recallRouteImage(renderKey) ?? null;
    if (!png) {
      png = await readPng();
      if (png) this.#keepRouteImage(renderKey, png);
    }
    if (png) this.#stats.hits++;
    return png;
  }

  #keepRouteImage(renderKey: string, png: Uint8Array): void {
    this.#routeImages.set(renderKey, { png, at: performance.now() });
  }

  #drawRouteCard(code: string, current: CurrentCard): Promise<Uint8Array> {
    return this.#draw(
      `route\u0000${code.toLowerCase()}`,
      current,
      (png) => {
        this.#keepRouteImage(current.renderKey, png);
        return storeRouteCard(this.#kv, code, {
          renderKey: current.renderKey,
          png,
          stamps: current.stamps,
        });
      },
    );
  }

  /**
   * Renders `current` in the pool, or joins the render of the same card
   * (slot and hash) already running, and stores it. A card not stored (its
   * route is being erased) still answers the request that asked, which
   * read the ticket before the erasure.
   */
  #draw(
    slot: string,
    current: CurrentCard,
    store: (png: Uint8Array) => Promise<boolean>,
  ): Promise<Uint8Array> {
    const key = `${slot}\u0000${current.renderKey}`;
    const running = this.#drawing.get(key);
    if (running) {
      this.#stats.coalesced++;
      return running;
    }
    this.#stats.misses++;
    const drawing = this.#withPhoto(current.card).then((card) =>
      this.#pool.render(card)
    ).then(async (png) => {
      await store(png);
      return png;
    }).finally(() => this.#drawing.delete(key));
    this.#drawing.set(key, drawing);
    return drawing;
  }

  #scheduleUser(userId: string): void {
    this.#track(
      getShareCodeOfUser(this.#kv, userId).then((code) => {
        if (code) this.#schedule(code);
      }),
    );
  }

  /**
   * Draws a route's card now unless it was drawn for a write within the
   * cool-down; then once more when that ends.
   */
  #schedule(shareCode: string): void {
    if (this.#closed) return;
    const code = shareCode.toLowerCase();
    const cooling = this.#cooling.get(code);
    if (cooling) {
      cooling.again = true;
      return;
    }
    const state: Cooling = { again: false };
    this.#cooling.set(code, state);
    this.#cycle(code, state);
  }

  #cycle(code: string, state: Cooling): void {
    const cycle = this.#refresh(code).catch((error) => {
      if (!this.#closed) {
        console.warn("Share card: drawing a changed route failed:", error);
      }
    }).then(() =>
      new Promise<void>((resolve) => {
        if (this.#closed) return resolve();
        state.ended = resolve;
        state.timer = setTimeout(() => {
          resolve();
          if (state.again && !this.#closed) {
            state.again = false;
            this.#cycle(code, state);
          } else {
            this.#cooling.delete(code);
          }
        }, this.#cooldownMs);
      })
    );
    this.#track(cycle);
  }

  /** Counts `work` in {@linkcode settled} until it ends. */
  #track(work: Promise<unknown>): void {
    const tracked = work.catch(() => {}).finally(() =>
      this.#pending.delete(tracked)
    );
    this.#pending.add(tracked);
  }

  /**
   * What a route's card must show now: its ticket and route, the data set in
   * force; and the stamps it is drawn from. The counters' stamp is read
   * before the route, so a visit between the two leaves an older stamp (the
   * next reader looks again), never a newer one.
   */
  async #currentRouteCard(
    { ticket, versionstamp }: { ticket: Ticket; versionstamp: string },
  ): Promise<CurrentCard> {
    const loaded = this.#data.current();
    const design = await getCardDesignVersion();
    const stats = ticket.userId
      ? await readUserStatsStamp(this.#kv, ticket.userId)
      : null;
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
    return {
      card,
      renderKey,
      etag: toRouteEtag(renderKey),
      stamps: {
        ticket: versionstamp,
        stats,
        data: loaded.version,
        design,
        v: getCardVersion({
          visitCount: card.visitCount,
          badgeCount: card.badges.length,
          nameRevision: ticket.nameRevision,
          lang: card.lang,
        }),
      },
    };
  }

  /** A page's card for the data set in force (404 for an attraction it lacks). */
  async #currentPageCard(
    loaded: LoadedData,
    id: PageCardId,
  ): Promise<CurrentCard> {
    if (this.#pageDataVersion !== loaded.version) {
      this.#pageCards.clear();
      this.#pageDataVersion = loaded.version;
    }
    const slot = pageSlotKey(id);
    const known = this.#pageCards.get(slot);
    if (known && !this.#isPhotoCheckDue(known)) return known;
    if (known) {
      // Deleted on another instance? Once per PAGE_CARD_PHOTO_CHECK_MS.
      const [photo] = await this.#photos!.getPhotos([
        (known.card as PageCard).photo!.id,
      ]);
      if (photo) {
        known.photoCheckedAt = this.#now();
        return known;
      }
      this.#pageCards.delete(slot);
    }
    let card: PageCard | undefined = getPageCard(loaded, id);
    if (!card) throw new NotFoundError(apiMessage("attraction.unknownName"));
    if (card.photo) {
      // Read once per data version and page (then kept in #pageCards), never per request.
      const [photo] = this.#photos
        ? await this.#photos.getPhotos([card.photo.id])
        : [];
      if (!photo) card = { ...card, photo: undefined };
    }
    const renderKey = await pageCardCacheKey(card);
    const current: CurrentCard = {
      card,
      renderKey,
      etag: `"${renderKey.slice(8, 40)}"`,
      ...(card.photo ? { photoCheckedAt: this.#now() } : {}),
    };
    if (this.#pageDataVersion === loaded.version) {
      this.#pageCards.set(slot, current);
    }
    return current;
  }

  /** Whether a page card kept in memory must ask the library for its photo before it is served. */
  #isPhotoCheckDue(current: CurrentCard): boolean {
    return current.photoCheckedAt !== undefined && this.#photos !== undefined &&
      this.#now() - current.photoCheckedAt >= PAGE_CARD_PHOTO_CHECK_MS;
  }

  /** A page card with its photo's JPEG as a data URI, to draw; any other card as it is. */
  async #withPhoto(card: AnyCard): Promise<AnyCard> {
    if (!isPageCard(card) || !card.photo || !this.#photos) return card;
    const { id } = card.photo;
    const [photo] = await this.#photos.getPhotos([id]);
    const widths = photo?.renditions.map((r) => r.width) ?? [];
    const width = widths.find((w) => w >= CARD_PHOTO_WIDTH) ?? widths.at(-1);
    const file = width && await this.#photos.readFile(`${id}-${width}.jpg`);
    if (!file) return { ...card, photo: undefined };
    return {
      ...card,
      photo: { id, dataUri: `data:image/jpeg;base64,${toBase64(file.bytes)}` },
    };
  }

  async #readBuiltPageCard(renderKey: string): Promise<Uint8Array | null> {
    if (!this.#buildDir) return null;
    try {
      return await Deno.readFile(
        `${this.#buildDir}/${getBuiltPageCardName(renderKey)}`,
      );
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }
  }

  #keepPageImage(renderKey: string, png: Uint8Array): void {
    this.#pageImages.set(renderKey, png);
  }
}

/** A route card's URL as last answered (see `ShareCards.#answers`). */
interface RouteAnswer {
  code: string;
  userId: string | null;
  etag: string;
  png: Uint8Array;
  at: number;
}

/** A route drawn for a write, in its cool-down. */
interface Cooling {
  /** Written to again since: drawn once more when the cool-down ends. */
  again: boolean;
  timer?: ReturnType<typeof setTimeout>;
  /** Ends the cool-down's wait in {@linkcode ShareCards.settled} (on close). */
  ended?: () => void;
}

function toRouteEtag(renderKey: string): string {
  return `"${renderKey.slice(3, 35)}"`;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

function pageSlotKey(id: PageCardId): string {
  return `${id.lang ?? DEFAULT_LANG}\u0000${getPageCardBasePath(id)}`;
}

function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === "*" ||
    header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

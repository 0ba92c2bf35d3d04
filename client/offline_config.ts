/**
 * What the service worker (client/service_worker.ts), the pages
 * (client/offline.ts) and the `/sw.js` route share: the caches' names and
 * the configuration `/sw.js` writes before the worker's code.
 */

/**
 * Sent (as "1") with every page the worker fetches ahead at install: the
 * server counts those in the address's budget, and only in its first half
 * (lib/limits/ip_budget.ts).
 */
export const WARM_UP_HEADER = "x-pasaporte-warm-up";

/** Public pages: home, attraction list, attraction pages. */
export const PAGES_CACHE = "pasaporte-paginas";
/** The tourist's own pages: deleted on sign-out and erasure. */
export const PERSONAL_CACHE = "pasaporte-personal";
/** The data set's theme and logo, and hashed files outside the precache. */
export const ASSETS_CACHE = "pasaporte-archivos";
/** The library's photos a page showed online, for that page offline. */
export const PHOTOS_CACHE = "pasaporte-fotos";

/** The worker's configuration, from the data set and the build in force. */
export interface OfflineConfig {
  /** The build's and the data set's versions: a change is a new worker. */
  version: string;
  /** Every language, the default first, with its path prefix ("" or "/en"). */
  langs: { lang: string; prefix: string }[];
  /** Default-language paths of the public pages fetched at install. */
  pages: string[];
  /** The passport's default-language path. */
  passportPath: string;
  /**
   * How long a personal page is kept without an online visit: an account's
   * session's life, so a session that ended without a sign-out leaves
   * nothing readable on a shared phone for longer than it lasted.
   */
  personalMaxAgeSeconds: number;
  /** The offline page's default-language path. */
  offlinePath: string;
  /** The data set's theme and logo URLs (with `?v=`), fetched at install. */
  assets: string[];
  /** More precache entries: each language's offline page, with its revision. */
  precache: { url: string; revision: string }[];
}

/** What a page may say to the worker. */
export type WorkerMessage =
  /** "Keep this language's pages": sent by every page after load. */
  | { type: "warm"; lang: string }
  /** "Which worker are you?": answered on the message's port. */
  | { type: "version" }
  /**
   * "Forget the personal pages, and any still on their way": sent before a
   * sign-out or an erasure, answered on the message's port once done.
   */
  | { type: "forget-personal" };

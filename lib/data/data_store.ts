import { getLangs } from "@/lib/i18n/catalogue.ts";
import {
  DataError,
  type LoadedData,
  loadTourismData,
  type TourismData,
} from "./tourism_data.ts";
import {
  BASE_LANG,
  listDataLanguages,
  listMissingTranslations,
} from "./translations.ts";

/** How often the data set file is checked for changes, by default. */
export const DATA_POLL_INTERVAL_MS = 1_000;

/** What the health check says about the data set. */
export interface DataStatus {
  version: string;
  /** Why the last reload was refused (the last good version stays), or `undefined`. */
  reloadError?: string;
}

/**
 * Holds the current data set and reloads it when its file changes. A broken
 * new version is refused (logged) and the last good one stays. Anything
 * derived from the data should be keyed on `current().version`.
 *
 * Changes are found by polling the file's metadata, never by watching its
 * folder: Deno's watcher opens every changed file of a watched folder, and
 * closing that descriptor drops the process's SQLite locks on a KV file
 * there (POSIX record locks belong to the process, not the descriptor), so
 * another process that then closes the same KV file deletes the live WAL and
 * acknowledged writes are lost. A `stat` touches nothing, works on every
 * file system, and costs one syscall a second.
 */
export class DataStore {
  #current: LoadedData;
  #path?: string;
  #reloadError?: string;
  #timer?: ReturnType<typeof setInterval>;
  #onError: (error: Error) => void;
  #onWarning: (message: string) => void;
  #check?: (next: LoadedData) => Promise<void> | void;

  /**
   * Takes `initial` as the version in force and logs, through `onWarning`
   * (default `console.warn`), the texts it lacks in each of its languages.
   */
  constructor(
    initial: LoadedData,
    options: {
      path?: string;
      onError?: (error: Error) => void;
      onWarning?: (message: string) => void;
    } = {},
  ) {
    this.#current = initial;
    this.#path = options.path;
    this.#onError = options.onError ??
      ((error) => console.error(error.message));
    this.#onWarning = options.onWarning ?? console.warn;
    this.#warnMissingTranslations();
  }

  /** Loads the file at `path` and returns a store for it. */
  static async open(
    path: string,
    options: {
      onError?: (error: Error) => void;
      onWarning?: (message: string) => void;
    } = {},
  ) {
    return new DataStore(await loadTourismData(path), { path, ...options });
  }

  /** Returns the data set in force now. */
  current(): LoadedData {
    return this.#current;
  }

  /** The version in force and, when the last reload was refused, why. */
  status(): DataStatus {
    return { version: this.#current.version, reloadError: this.#reloadError };
  }

  /** Re-reads the file; returns whether a new version was taken. */
  async reload(): Promise<boolean> {
    const path = this.#path;
    if (!path) return false;
    return await this.#take(() => loadTourismData(path));
  }

  /**
   * Takes the version `load` gives (the content published in KV, read by
   * lib/content), checked as a reload is; returns whether it was taken.
   */
  async adopt(load: () => Promise<LoadedData>): Promise<boolean> {
    return await this.#take(load);
  }

  /** Makes `check` refuse a new version by throwing (see {@linkcode watch}). */
  setCheck(check: (next: LoadedData) => Promise<void> | void): void {
    this.#check = check;
  }

  async #take(load: () => Promise<LoadedData>): Promise<boolean> {
    try {
      const next = await load();
      if (next.version === this.#current.version) {
        this.#reloadError = undefined;
        return false;
      }
      await this.#check?.(next);
      this.#reloadError = undefined;
      this.#current = next;
      console.info(`Tourism data reloaded: version ${next.version}`);
      this.#warnMissingTranslations();
      return true;
    } catch (error) {
      this.#reloadError = (error as Error).message;
      this.#onError(
        new DataError(
          `Kept data version ${this.#current.version}: ${
            (error as Error).message
          }`,
        ),
      );
      return false;
    }
  }

  /**
   * Checks the file every `intervalMs` and reloads it when its size,
   * modification time or inode changed (editors replace files rather than
   * write them in place). The timer never keeps the process alive.
   * `check` may refuse a new version by throwing (a guide code the staff
   * console already gave another attraction): the last good one stays.
   */
  watch(
    { intervalMs = DATA_POLL_INTERVAL_MS, check }: {
      intervalMs?: number;
      check?: (next: LoadedData) => Promise<void> | void;
    } = {},
  ): void {
    this.#check = check;
    if (!this.#path || this.#timer) return;
    const path = this.#path;
    let last = describeFile(path);
    let checking = false;
    const poll = async () => {
      if (checking) return;
      checking = true;
      try {
        const next = describeFile(path);
        if (next !== last) await this.reload();
        last = next;
      } finally {
        checking = false;
      }
    };
    this.#timer = setInterval(poll, intervalMs);
    Deno.unrefTimer(this.#timer);
  }

  /** Stops watching. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One line per language with texts that show in Spanish for want of a translation. */
  #warnMissingTranslations(): void {
    for (const line of describeMissingTranslations(this.#current.data)) {
      this.#onWarning(line);
    }
  }
}

/** How many paths of each language the log line names before "…". */
const MISSING_PATHS_SHOWN = 3;

/**
 * `Data set: 3 texts have no English translation (attractions[volcan].tips,
 * …); they show in Spanish.`: one line per language the portal speaks (or
 * the data set adds) that the data set does not cover fully, for the
 * operator.
 */
function describeMissingTranslations(data: TourismData): string[] {
  // The portal's languages (its catalogues) and any the data set adds.
  const languages = [...new Set([...getLangs(), ...listDataLanguages(data)])];
  const missing = listMissingTranslations(data, languages);
  if (missing.length === 0) return [];
  // Made only when needed: its ICU data costs a start about 10 ms.
  const names = new Intl.DisplayNames("en", { type: "language" });
  const base = names.of(BASE_LANG);
  return languages.flatMap((lang) => {
    const paths = missing.filter((m) => m.lang === lang).map((m) => m.path);
    if (paths.length === 0) return [];
    const shown = paths.slice(0, MISSING_PATHS_SHOWN).join(", ") +
      (paths.length > MISSING_PATHS_SHOWN ? ", …" : "");
    const count = paths.length === 1
      ? "1 text has"
      : `${paths.length} texts have`;
    const verb = paths.length === 1 ? "it shows" : "they show";
    return [
      `Data set: ${count} no ${
        names.of(lang) ?? lang
      } translation (${shown}); ${verb} in ${base}.`,
    ];
  });
}

/** What changes when a file is written or replaced; a missing file is a state too. */
function describeFile(path: string): string {
  try {
    const info = Deno.statSync(path);
    return `${info.size}:${info.mtime?.getTime()}:${info.ino}`;
  } catch (error) {
    return `missing:${(error as Error).name}`;
  }
}

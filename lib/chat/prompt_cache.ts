/**
 * The stable prompt, memoised by data version, language and day. Apart
 * from the prompt's builder (lib/chat/prompt.ts), which it imports on the
 * first chat request: the builder reads the places' opening hours through
 * lib/hours and its library, which a start need not load.
 */
import type { LoadedData, TourismData } from "@/lib/data/tourism_data.ts";
import { localizeData } from "@/lib/data/translations.ts";
import { getLocalDayNumber } from "@/lib/calendar/mod.ts";
import { DEFAULT_LANG, type Lang } from "@/lib/i18n/catalogue.ts";

/** Builds the stable prompt of a data set (as seen in `lang`) at `now`. */
export type BuildPrompt = (data: TourismData, now: Date, lang: Lang) => string;

/** Memoises the stable prompt by data version and day. */
export interface PromptCache {
  /**
   * The stable prompt of `loaded` at `now` in `lang` (Spanish by default),
   * built once per data version, language and municipality's day (its
   * providers are in the day's order).
   */
  get(loaded: LoadedData, now: Date, lang?: Lang): Promise<string>;
  /** How many times a prompt was built (for tests and logs). */
  readonly builds: number;
}

/**
 * A {@linkcode PromptCache} holding, per language, the prompt of the latest
 * data version and day: a changed data set (reloaded while running) or a
 * new day in the municipality gets a new prompt on the next request;
 * otherwise the string it has is reused. Each language's prompt is built
 * from the data set as seen in that language ({@linkcode localizeData}).
 */
export function createPromptCache(build?: BuildPrompt): PromptCache {
  const cached = new Map<Lang, { key: string; prompt: string }>();
  let builds = 0;
  return {
    async get(loaded, now, lang = DEFAULT_LANG) {
      const day = getLocalDayNumber(now, loaded.data.municipality.timeZone);
      const key = `${loaded.version}:${day}`;
      let entry = cached.get(lang);
      if (entry?.key !== key) {
        build ??= (await import("./prompt.ts")).buildStablePrompt;
        entry = {
          key,
          prompt: build(localizeData(loaded.data, lang), now, lang),
        };
        cached.set(lang, entry);
        builds++;
      }
      return entry.prompt;
    },
    get builds() {
      return builds;
    },
  };
}

import { CHAT_DAILY_LIMIT_REPLY } from "@/lib/chat/replies.ts";
import { keys } from "@/lib/db/keys.ts";
import { commit } from "@/lib/db/kv.ts";
import { apiMessage, HttpError } from "@/lib/errors/mod.ts";

/**
 * The operator's ceiling on what one day of chat may cost
 * (`CHAT_DAILY_LIMIT` model calls, counted in KV across all instances, per
 * calendar day of the municipality). Each call adds one with a
 * conflict-free `sum`, then reads the total: under a burst at the ceiling a
 * few requests more than the limit may be counted (each refused), never
 * answered. Past it the chat answers 503 with its own Spanish reply; the
 * first refusal of a day is logged once per instance.
 */
export class ChatDailyLimit {
  readonly limit: number;
  readonly #kv: Deno.Kv;
  readonly #now: () => Date;
  readonly #days: Intl.DateTimeFormat;
  #loggedDay: string | undefined;

  constructor(
    { kv, now, limit, timeZone }: {
      kv: Deno.Kv;
      now: () => Date;
      limit: number;
      /** Whose midnight starts a new day: the municipality's time zone. */
      timeZone: string;
    },
  ) {
    this.#kv = kv;
    this.#now = now;
    this.limit = limit;
    // en-CA writes dates as YYYY-MM-DD.
    this.#days = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
  }

  /** Counts one model call today; throws the 503 when the ceiling is passed. */
  async count(): Promise<void> {
    const day = this.#days.format(this.#now());
    const key = keys.chatRequestsOfDay(day);
    await commit(this.#kv.atomic().sum(key, 1n));
    const total = (await this.#kv.get<Deno.KvU64>(key)).value?.value ?? 0n;
    if (total <= BigInt(this.limit)) return;
    if (this.#loggedDay !== day) {
      this.#loggedDay = day;
      console.warn(
        `Chat: the daily limit of ${this.limit} model calls is reached for ${day}; the chat answers 503 until midnight`,
      );
    }
    throw new HttpError(
      503,
      apiMessage("error.503"),
      apiMessage("limit.chatDaily"),
      { reply: CHAT_DAILY_LIMIT_REPLY },
    );
  }
}

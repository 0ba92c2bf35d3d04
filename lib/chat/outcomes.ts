import type { MiddlewareHandler } from "hono";
import type { DataStore } from "@/lib/data/data_store.ts";
import { getChatOutcome, recordChatOutcome } from "@/lib/db/stats.ts";

/**
 * Counts every chat request for the staff dashboard, by what became of it:
 * answered (200), refused (429), failed (502), on the municipality's day.
 * It runs first, so the rate limit's refusals and the error funnel's
 * answers are counted too. A stream that fails after its first words is
 * counted as answered: its status was sent before the failure. A counter
 * that cannot be written is logged, never the visitor's problem.
 */
export function countChatOutcomes(
  { kv, data, now }: {
    kv: Deno.Kv;
    data: Pick<DataStore, "current">;
    now: () => Date;
  },
): MiddlewareHandler {
  return async function countChatOutcomes(c, next) {
    await next();
    try {
      await recordChatOutcome(kv, {
        outcome: getChatOutcome(c.res.status),
        at: now(),
        timeZone: data.current().data.municipality.timeZone,
      });
    } catch (error) {
      // A counter is not worth the visitor's answer.
      console.error("Chat: the dashboard's counters were not written:", error);
    }
  };
}

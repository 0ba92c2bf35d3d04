/**
 * When each passport was last used, for the retention rule: an unused
 * guest passport is erased after `GUEST_PASSPORT_RETENTION_MONTHS`. The day
 * of use is written at most once a day per session (the session remembers
 * the day it last wrote), so a page view costs no extra write; guest
 * passports are also indexed by that day, so the daily job lists only the
 * expired ones instead of scanning every passport.
 */
import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";

/** What recording a use needs of a session (`Session` in lib/db/sessions.ts). */
interface UsedSession {
  handle: string;
  userId: string;
  /** ISO 8601. */
  expiresAt: string;
  guest?: boolean;
  lastSeenDay?: string;
}

/** A passport's last use, as stored. */
export interface PassportLastSeen {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  /** A guest passport: the retention rule applies to it. */
  guest: boolean;
}

/** The day of an instant, as the last-use index keeps it (UTC: months of retention make a time zone moot). */
export function getUseDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Records that `session` was used at `now`: nothing when it already did
 * today; otherwise, in one atomic, the session's `lastSeenDay` (keeping its
 * expiry), the passport's last-use day and, for a guest, its entry in the
 * day index (moved from the previous day). Returns the session as stored.
 */
export async function recordSessionUse<T extends UsedSession>(
  kv: Deno.Kv,
  session: T,
  now: Date,
): Promise<T> {
  const day = getUseDay(now);
  if (session.lastSeenDay === day) return session;
  const expireIn = Date.parse(session.expiresAt) - now.getTime();
  if (expireIn <= 0) return session;
  const guest = session.guest === true;
  return await runTransaction(async () => {
    const [sessionEntry, seenEntry] = await kv.getMany<[T, PassportLastSeen]>(
      [keys.session(session.handle), keys.passportLastSeen(session.userId)],
    );
    if (!sessionEntry.value) return session; // Signed out meanwhile.
    const updated: T = { ...sessionEntry.value, lastSeenDay: day };
    const operation = kv.atomic().check(sessionEntry, seenEntry).set(
      sessionEntry.key,
      updated,
      { expireIn },
    );
    const previous = seenEntry.value;
    if (!previous || previous.day < day) {
      operation.set(
        keys.passportLastSeen(session.userId),
        { day, guest } satisfies PassportLastSeen,
      );
      if (previous?.guest) {
        operation.delete(keys.passportByLastSeen(previous.day, session.userId));
      }
      if (guest) operation.set(keys.passportByLastSeen(day, session.userId), 1);
    }
    return (await commit(operation)).ok ? updated : CONFLICT;
  });
}

/**
 * Adds a new session's first use to its atomic: the day on the session
 * (the caller stores `lastSeenDay` itself) and the passport's last use and,
 * for a guest, its day index entry. A new guest passport is a new user id,
 * so there is no earlier entry to move; an account's replaces its own.
 */
export function addFirstUseTo(
  operation: Deno.AtomicOperation,
  { userId, guest, day }: { userId: string; guest: boolean; day: string },
): Deno.AtomicOperation {
  operation.set(
    keys.passportLastSeen(userId),
    { day, guest } satisfies PassportLastSeen,
  );
  if (guest) operation.set(keys.passportByLastSeen(day, userId), 1);
  return operation;
}

/** A passport's last use, or null when none was recorded. */
export async function getPassportLastSeen(
  kv: Deno.Kv,
  userId: string,
): Promise<PassportLastSeen | null> {
  return (await kv.get<PassportLastSeen>(keys.passportLastSeen(userId))).value;
}

/**
 * Records a last use only where none is (the backfill of passports of
 * earlier versions); returns whether it wrote.
 */
export async function setPassportLastSeenIfAbsent(
  kv: Deno.Kv,
  userId: string,
  seen: PassportLastSeen,
): Promise<boolean> {
  const key = keys.passportLastSeen(userId);
  const operation = kv.atomic().check({ key, versionstamp: null }).set(
    key,
    seen,
  );
  if (seen.guest) operation.set(keys.passportByLastSeen(seen.day, userId), 1);
  return (await commit(operation)).ok;
}

/**
 * Guest passports last used before `beforeDay` (`YYYY-MM-DD`), oldest
 * first, at most `limit`: the retention job's work.
 */
export async function listGuestPassportsUnusedSince(
  kv: Deno.Kv,
  beforeDay: string,
  { limit = 100 }: { limit?: number } = {},
): Promise<{ userId: string; day: string }[]> {
  const found: { userId: string; day: string }[] = [];
  for await (
    const entry of kv.list({
      start: keys.passportsByLastSeen(),
      end: [...keys.passportsByLastSeen(), beforeDay],
    }, { limit })
  ) {
    found.push({
      day: entry.key[1] as string,
      userId: entry.key[2] as string,
    });
  }
  return found;
}

/** Deletes a passport's last-use records (erasure). */
export async function deletePassportActivity(
  kv: Deno.Kv,
  userId: string,
): Promise<void> {
  await runTransaction(async () => {
    const seen = await kv.get<PassportLastSeen>(keys.passportLastSeen(userId));
    const operation = kv.atomic().check(seen).delete(
      keys.passportLastSeen(userId),
    );
    if (seen.value) {
      operation.delete(keys.passportByLastSeen(seen.value.day, userId));
    }
    return (await commit(operation)).ok ? undefined : CONFLICT;
  });
}

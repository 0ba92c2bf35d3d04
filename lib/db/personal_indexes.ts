/**
 * The one-time backfill of the indexes that export, erasure and retention
 * read, for records of versions that did not write them: each session by
 * its user, each identity link by its user, each ticket by its e-mail
 * address, and a last-use day for every passport (a guest's from its
 * latest session or visit, so an old unused passport falls under the
 * retention rule too). Every write is idempotent, so instances that run it
 * at once, or a run cut short and started again, agree; a marker ends it
 * for good.
 */
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";
import {
  getUseDay,
  type PassportLastSeen,
  setPassportLastSeenIfAbsent,
} from "./passport_activity.ts";
import type { IdentityUser, Session } from "./sessions.ts";
import type { Ticket } from "./tickets.ts";
import { listVisits } from "./visits.ts";

/** Whether the backfill has run to its end (the panel's e-mail search then trusts the index). */
export async function isPersonalIndexBackfilled(kv: Deno.Kv): Promise<boolean> {
  return (await kv.get(keys.personalIndexesBackfill())).value !== null;
}

/**
 * Runs the backfill unless it is done; stops between records when
 * `signal` aborts (the next start goes on). Returns whether it ran.
 */
export async function backfillPersonalIndexes(
  kv: Deno.Kv,
  { now, signal }: { now: () => Date; signal?: AbortSignal },
): Promise<boolean> {
  if (await isPersonalIndexBackfilled(kv)) return false;
  const accounts = new Map<string, string>(); // userId -> first link's day
  const guests = new Map<string, string>(); // userId -> latest session day

  for await (const entry of kv.list<Session>({ prefix: keys.sessions() })) {
    if (signal?.aborted) return false;
    const session = entry.value;
    if (!session?.userId) continue;
    const expireIn = Date.parse(session.expiresAt) - now().getTime();
    if (expireIn > 0) {
      await commit(
        kv.atomic().set(
          keys.sessionByUser(session.userId, session.handle),
          session.handle,
          { expireIn },
        ),
      );
    }
    if (session.guest) {
      const day = session.lastSeenDay ?? getUseDay(new Date(session.createdAt));
      const known = guests.get(session.userId);
      if (!known || known < day) guests.set(session.userId, day);
    }
  }

  for await (
    const entry of kv.list<IdentityUser>({ prefix: keys.usersByIdentity() })
  ) {
    if (signal?.aborted) return false;
    const [, issuer, subject] = entry.key as unknown as [
      string,
      string,
      string,
    ];
    const user = entry.value;
    if (!user?.userId) continue;
    await commit(
      kv.atomic().set(keys.identityOfUser(user.userId, issuer, subject), {
        issuer,
        subject,
        createdAt: user.createdAt,
      }),
    );
    accounts.set(user.userId, getUseDay(new Date(user.createdAt)));
  }

  for await (const entry of kv.list<Ticket>({ prefix: keys.tickets() })) {
    if (signal?.aborted) return false;
    const ticket = entry.value;
    if (!ticket?.email || !ticket.shareCode) continue;
    await commit(
      kv.atomic().set(
        keys.ticketByEmail(ticket.email, ticket.shareCode),
        ticket.shareCode.toLowerCase(),
      ),
    );
  }

  // Passports with visits: a guest's last use is its latest session or
  // visit, whichever is later.
  for await (const entry of kv.list({ prefix: keys.userStatsAll() })) {
    if (signal?.aborted) return false;
    const userId = entry.key[1] as string;
    if (accounts.has(userId)) continue;
    let day = guests.get(userId) ?? "";
    for (const visit of await listVisits(kv, userId)) {
      const latest = getUseDay(new Date(visit.ratedAt ?? visit.visitedAt));
      if (latest > day) day = latest;
    }
    if (day) guests.set(userId, day);
  }
  for (const [userId, day] of guests) {
    if (signal?.aborted) return false;
    if (accounts.has(userId)) continue;
    await setPassportLastSeenIfAbsent(
      kv,
      userId,
      { day, guest: true } satisfies PassportLastSeen,
    );
  }
  for (const [userId, day] of accounts) {
    if (signal?.aborted) return false;
    await setPassportLastSeenIfAbsent(kv, userId, { day, guest: false });
  }
  await kv.set(keys.personalIndexesBackfill(), { doneAt: now().toISOString() });
  return true;
}

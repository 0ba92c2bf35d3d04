/**
 * The questions the chat could not answer, grouped by their normalised text
 * (`normalizeQuestion` in lib/chat/unanswered.ts): one record per group
 * with its count, the last question as asked (masked, at most 200
 * characters), and when it was first and last asked. Nothing else of the
 * visitor: no IP, no user id. A group is kept 90 days after its last
 * question (`expireIn`), then KV drops it. The console lists the groups
 * through an index in its order (`unanswered_questions_by_rank`), written
 * in the same atomic as the group, a page at a time; a per-day counter
 * bounds how many groups a day can open.
 */
import { addStaffActionTo } from "./audit.ts";
import { keys, LIFETIMES } from "./keys.ts";
import { commit, CONFLICT, listFromCursor, runTransaction } from "./kv.ts";
import type { StaffMember } from "@/lib/types/staff.ts";

/** How long a question is kept after it was last asked: 90 days. */
export const QUESTION_RETENTION_MS = LIFETIMES.unansweredQuestionMs;

/** How long a day's count of opened groups is kept: the day, and a margin. */
export const OPENED_COUNT_TTL_MS = LIFETIMES.unansweredOpenedCountMs;

/**
 * The most new groups opened on one UTC day: past it, that day's new
 * questions are not kept (those of groups already open still count), so a
 * flood of distinct junk on one day stays within 200 groups and cannot
 * push out other days' questions. At most 90 × 200 = 18,000 groups in all.
 */
export const MAX_NEW_GROUPS_PER_DAY = 200;

/** The most characters of a group's key (its normalised question). */
export const MAX_GROUP_KEY_LENGTH = 200;

/** How many groups one page of the console lists. */
export const QUESTION_PAGE_SIZE = 50;

/** Whether a group still waits for the data set (`open`) or was `resolved`. */
export type QuestionStatus = "open" | "resolved";

/** A group of similar unanswered questions, as stored. */
export interface QuestionGroup {
  /** The normalised text: the group's key. */
  key: string;
  /** The latest question of the group as asked, masked and cut. */
  text: string;
  /** Questions asked since the group was opened (or reopened). */
  count: number;
  /** ISO 8601. */
  firstAskedAt: string;
  /** ISO 8601. */
  lastAskedAt: string;
  /** When an admin marked it resolved (ISO 8601), or null while open. */
  resolvedAt: string | null;
  /** The staff member who resolved it (their id), or null. */
  resolvedBy: string | null;
}

/** Where a group sits in its list: open by count then recency, resolved by date. */
function getRankKey(group: QuestionGroup) {
  return group.resolvedAt
    ? keys.unansweredQuestionByRank("resolved", [
      -Date.parse(group.resolvedAt),
    ], group.key)
    : keys.unansweredQuestionByRank("open", [
      -group.count,
      -Date.parse(group.lastAskedAt),
    ], group.key);
}

/**
 * Counts one unanswered question in its group. A question of a resolved
 * group opens it again (the data set still does not answer it), counted
 * from one. A question that would open a new group once the day's
 * {@linkcode MAX_NEW_GROUPS_PER_DAY} are open is not kept: null.
 */
export async function recordUnansweredQuestion(
  kv: Deno.Kv,
  { key, text, now }: { key: string; text: string; now: Date },
): Promise<QuestionGroup | null> {
  const groupKey = keys.unansweredQuestion(key);
  const openedKey = keys.unansweredQuestionsOpened(
    now.toISOString().slice(0, 10),
  );
  return await runTransaction(async () => {
    const [entry, opened] = await kv.getMany<[QuestionGroup, Deno.KvU64]>([
      groupKey,
      openedKey,
    ]);
    const openedToday = opened.value?.value ?? 0n;
    if (!entry.value && openedToday >= MAX_NEW_GROUPS_PER_DAY) return null;
    const old = entry.value?.resolvedAt ? null : entry.value;
    const at = now.toISOString();
    const group: QuestionGroup = {
      key,
      text,
      count: (old?.count ?? 0) + 1,
      firstAskedAt: old?.firstAskedAt ?? at,
      lastAskedAt: at,
      resolvedAt: null,
      resolvedBy: null,
    };
    const operation = kv.atomic().check(entry)
      .set(groupKey, group, { expireIn: QUESTION_RETENTION_MS })
      .set(getRankKey(group), group, { expireIn: QUESTION_RETENTION_MS });
    if (entry.value) operation.delete(getRankKey(entry.value));
    else {
      // Only a new group takes one of the day's places.
      operation.check(opened).set(
        openedKey,
        new Deno.KvU64(openedToday + 1n),
        { expireIn: OPENED_COUNT_TTL_MS },
      );
    }
    return (await commit(operation)).ok ? group : CONFLICT;
  });
}

/**
 * One page of the open groups (most asked first, then most recent) or of
 * the resolved ones (most recently resolved first); `cursor` (from the
 * previous page) goes on, and is empty on the last page, so paging reaches
 * every kept group. Groups past their 90 days are left out even before KV
 * drops them. A cursor KV does not recognise starts from the first page.
 */
export async function listQuestionGroups(
  kv: Deno.Kv,
  { status, now, cursor, limit = QUESTION_PAGE_SIZE }: {
    status: QuestionStatus;
    now: Date;
    cursor?: string;
    limit?: number;
  },
): Promise<{ values: QuestionGroup[]; cursor: string }> {
  await indexEarlierGroups(kv, now);
  const prefix = keys.unansweredQuestionsByRank(status);
  const oldest = now.getTime() - QUESTION_RETENTION_MS;
  const page = await listFromCursor<QuestionGroup>(kv, { prefix }, {
    limit: Math.max(1, Math.trunc(limit) || 1),
    cursor: cursor || undefined,
  });
  const values = page.entries.map((entry) => entry.value)
    .filter((group) => Date.parse(group.lastAskedAt) > oldest);
  // KV hands out a cursor after a full page even when nothing follows.
  let next = page.cursor;
  if (next) {
    const ahead = kv.list({ prefix }, { limit: 1, cursor: next });
    if ((await ahead.next()).done) next = "";
  }
  return { values, cursor: next };
}

/**
 * Puts the groups kept before the ranked index existed into it, once (a
 * marker says it is done): until then the console would not see them. A
 * group written meanwhile was indexed by its writer: its check fails and
 * it is left alone.
 */
async function indexEarlierGroups(kv: Deno.Kv, now: Date): Promise<void> {
  const marker = keys.unansweredQuestionsIndexed();
  if ((await kv.get(marker)).value) return;
  for await (
    const entry of kv.list<QuestionGroup>({
      prefix: keys.unansweredQuestions(),
    })
  ) {
    const group = entry.value;
    if (typeof group?.text !== "string") continue;
    const expireIn = Date.parse(group.lastAskedAt) + QUESTION_RETENTION_MS -
      now.getTime();
    if (!(expireIn > 0)) continue;
    await kv.atomic().check(entry)
      .set(getRankKey(group), group, { expireIn })
      .commit();
  }
  await kv.set(marker, true);
}

/**
 * Marks a group resolved (the data set covers it now) and records it in
 * the audit log, in one atomic. Returns false when there is no such group
 * (or it was resolved already): nothing written.
 */
export async function resolveQuestionGroup(
  kv: Deno.Kv,
  { key, staff, now }: { key: string; staff: StaffMember; now: Date },
): Promise<boolean> {
  // A group's key is at most 200 characters; a longer one (a form edited
  // by hand) is no group, and KV would refuse to read it.
  if ([...key].length > MAX_GROUP_KEY_LENGTH) return false;
  const groupKey = keys.unansweredQuestion(key);
  return await runTransaction(async () => {
    const entry = await kv.get<QuestionGroup>(groupKey);
    if (!entry.value || entry.value.resolvedAt) return false;
    const group: QuestionGroup = {
      ...entry.value,
      resolvedAt: now.toISOString(),
      resolvedBy: staff.id,
    };
    // Still dropped 90 days after its last question.
    const expireIn = Math.max(
      1,
      Date.parse(group.lastAskedAt) + QUESTION_RETENTION_MS - now.getTime(),
    );
    const operation = kv.atomic().check(entry)
      .set(groupKey, group, { expireIn })
      .delete(getRankKey(entry.value))
      .set(getRankKey(group), group, { expireIn });
    addStaffActionTo(operation, {
      staff,
      action: "question_resolved",
      // The normalised words, not the question as asked.
      target: key,
      at: now,
    });
    return (await commit(operation)).ok ? true : CONFLICT;
  });
}

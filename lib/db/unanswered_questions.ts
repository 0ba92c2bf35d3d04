/**
 * The questions the chat could not answer, grouped by their normalised text
 * (`normalizeQuestion` in lib/chat/unanswered.ts): one record per group
 * with its count, the last question as asked (masked, at most 200
 * characters), and when it was first and last asked. Nothing else of the
 * visitor: no IP, no user id. A group is kept 90 days after its last
 * question (`expireIn`), then KV drops it.
 */
import { addStaffActionTo } from "./audit.ts";
import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import type { StaffMember } from "@/lib/staff/types.ts";

/** How long a question is kept after it was last asked: 90 days. */
export const QUESTION_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** The most groups the console reads at once. */
export const MAX_QUESTION_GROUPS = 1000;

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

/**
 * Counts one unanswered question in its group. A question of a resolved
 * group opens it again (the data set still does not answer it), counted
 * from one.
 */
export async function recordUnansweredQuestion(
  kv: Deno.Kv,
  { key, text, now }: { key: string; text: string; now: Date },
): Promise<QuestionGroup> {
  const groupKey = keys.unansweredQuestion(key);
  return await runTransaction(async () => {
    const entry = await kv.get<QuestionGroup>(groupKey);
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
    const result = await commit(
      kv.atomic().check(entry).set(groupKey, group, {
        expireIn: QUESTION_RETENTION_MS,
      }),
    );
    return result.ok ? group : CONFLICT;
  });
}

/**
 * The groups (at most {@linkcode MAX_QUESTION_GROUPS}), split into open and
 * resolved; open ones most asked first (then most recent), resolved ones
 * most recently resolved first. Groups past their 90 days are left out
 * even before KV drops them.
 */
export async function listQuestionGroups(
  kv: Deno.Kv,
  now: Date,
): Promise<{ open: QuestionGroup[]; resolved: QuestionGroup[] }> {
  const open: QuestionGroup[] = [];
  const resolved: QuestionGroup[] = [];
  const oldest = now.getTime() - QUESTION_RETENTION_MS;
  for await (
    const entry of kv.list<QuestionGroup>(
      { prefix: keys.unansweredQuestions() },
      { limit: MAX_QUESTION_GROUPS },
    )
  ) {
    const group = entry.value;
    if (typeof group?.text !== "string") continue;
    if (Date.parse(group.lastAskedAt) <= oldest) continue;
    (group.resolvedAt ? resolved : open).push(group);
  }
  open.sort((a, b) =>
    b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt)
  );
  resolved.sort((a, b) => b.resolvedAt!.localeCompare(a.resolvedAt!));
  return { open, resolved };
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
  const groupKey = keys.unansweredQuestion(key);
  return await runTransaction(async () => {
    const entry = await kv.get<QuestionGroup>(groupKey);
    if (!entry.value || entry.value.resolvedAt) return false;
    const operation = kv.atomic().check(entry).set(
      groupKey,
      {
        ...entry.value,
        resolvedAt: now.toISOString(),
        resolvedBy: staff.id,
      } satisfies QuestionGroup,
      {
        // Still dropped 90 days after its last question.
        expireIn: Math.max(
          1,
          Date.parse(entry.value.lastAskedAt) + QUESTION_RETENTION_MS -
            now.getTime(),
        ),
      },
    );
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

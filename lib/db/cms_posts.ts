import type { CmsTicket, TicketInput } from "@/lib/types/cms.ts";
import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";

/** Reads a post of the embedded CMS. */
export async function getCmsPost(
  kv: Deno.Kv,
  shareCode: string,
): Promise<CmsTicket | null> {
  return (await kv.get<CmsTicket>(keys.cmsPost(shareCode))).value;
}

/**
 * Creates a post of the embedded CMS with the next id from a counter, in one
 * transaction, so ids increase and never repeat under concurrency. Returns
 * the existing post when the share code is taken.
 */
export async function createCmsPost(
  kv: Deno.Kv,
  input: TicketInput,
): Promise<{ post: CmsTicket; created: boolean }> {
  return await runTransaction(async () => {
    const [existing, counter] = await kv.getMany<[CmsTicket, bigint]>([
      keys.cmsPost(input.shareCode),
      keys.cmsPostCounter(),
    ]);
    if (existing.value) return { post: existing.value, created: false };
    const wpId = Number((counter.value ?? 0n) + 1n);
    const post: CmsTicket = { ...input, wpId };
    const result = await commit(
      kv.atomic()
        .check(existing, counter)
        .set(keys.cmsPost(input.shareCode), post)
        .set(keys.cmsPostCounter(), BigInt(wpId)),
    );
    return result.ok ? { post, created: true } : CONFLICT;
  });
}

/** Changes the name of a post of the embedded CMS; null when there is none. */
export async function renameCmsPost(
  kv: Deno.Kv,
  shareCode: string,
  name: string,
): Promise<CmsTicket | null> {
  return await runTransaction(async () => {
    const entry = await kv.get<CmsTicket>(keys.cmsPost(shareCode));
    if (!entry.value) return null;
    const post: CmsTicket = { ...entry.value, name };
    const result = await commit(
      kv.atomic().check(entry).set(keys.cmsPost(shareCode), post),
    );
    return result.ok ? post : CONFLICT;
  });
}

/** Deletes a post of the embedded CMS; deleting one that is gone is a no-op. */
export async function deleteCmsPost(
  kv: Deno.Kv,
  shareCode: string,
): Promise<void> {
  await kv.delete(keys.cmsPost(shareCode));
}

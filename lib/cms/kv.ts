import {
  createCmsPost,
  deleteCmsPost,
  getCmsPost,
  renameCmsPost,
} from "@/lib/db/cms_posts.ts";
import type { TicketCms } from "@/lib/types/cms.ts";

/** The embedded CMS: ticket posts in Deno KV, numbered from a KV counter. */
export function createKvCms(kv: Deno.Kv): TicketCms {
  return {
    kind: "kv",
    findTicket: (shareCode) => getCmsPost(kv, shareCode),
    createTicket: async (input) => (await createCmsPost(kv, input)).post,
    renameTicket: (shareCode, name) => renameCmsPost(kv, shareCode, name),
    deleteTicket: (shareCode) => deleteCmsPost(kv, shareCode),
  };
}

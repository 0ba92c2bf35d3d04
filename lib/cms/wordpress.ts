import { z } from "zod";
import {
  type ApiMessage,
  apiMessage,
  BadGatewayError,
} from "@/lib/errors/mod.ts";
import type { CmsTicket, TicketCms, TicketInput } from "@/lib/types/cms.ts";

export interface WordPressOptions {
  url: string;
  user: string;
  appPassword: string;
  /** The REST base of the ticket post type: `posts`, or `turismo-tickets` with the plugin. */
  postType: string;
  /** Per request; WordPress gets 10 s. */
  timeoutMs?: number;
}

const postSchema = z.object({
  id: z.number().int().positive(),
  slug: z.string(),
  title: z.object({
    raw: z.string().optional(),
    rendered: z.string().optional(),
  }).optional(),
  meta: z.object({
    turismo_name: z.string().optional(),
    turismo_email: z.string().optional(),
    turismo_phone: z.string().optional(),
    turismo_share_code: z.string().optional(),
    turismo_user_id: z.string().optional(),
  }).optional(),
});
type Post = z.infer<typeof postSchema>;

/**
 * The WordPress driver: a ticket is a private post of `postType` whose slug is
 * the share code (core REST cannot filter by meta, but it can by slug) and
 * whose meta holds the visitor's fields. The meta keys must be registered
 * with `show_in_rest`, which `wordpress/turismo-tickets.php` does; WordPress
 * drops unregistered keys silently.
 */
export function createWordPressCms(options: WordPressOptions): TicketCms {
  const endpoint = `${options.url}/wp-json/wp/v2/${options.postType}`;
  const authorization = `Basic ${
    toBase64(`${options.user}:${options.appPassword}`)
  }`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(
    method: string,
    url: string,
    body?: unknown,
    { acceptStatus = [] }: {
      /** Error statuses that count as done (a DELETE of a post already gone). */
      acceptStatus?: number[];
    } = {},
  ): Promise<unknown> {
    let res: Response;
    // One deadline for the call, retries included.
    const signal = AbortSignal.timeout(timeoutMs);
    const send = () =>
      fetch(url, {
        method,
        headers: {
          authorization,
          accept: "application/json",
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal,
      });
    // A timeout (the signal's deadline) or a broken connection, said once.
    const fail = (error: unknown, step: string, broken: ApiMessage) => {
      const timedOut = signal.aborted ||
        (error instanceof DOMException && error.name === "TimeoutError");
      console.error(
        `WordPress ${method} ${options.postType}: ${
          timedOut ? "timed out" : `${step}: ${String(error)}`
        }`,
      );
      return new BadGatewayError(timedOut ? apiMessage("cms.timeout") : broken);
    };
    try {
      try {
        res = await send();
      } catch (error) {
        // A reused connection the server had closed fails before any
        // answer: a read is safe to send once more.
        if (method !== "GET" || signal.aborted) throw error;
        res = await send();
      }
    } catch (error) {
      throw fail(error, "no answer", apiMessage("cms.unreachable"));
    }
    // The body is read under the same deadline: one that stalls is a
    // timeout, one that breaks off is no valid answer.
    let bodyError: unknown;
    const text = await res.text().catch((error) => {
      bodyError = error;
      return "";
    });
    if (acceptStatus.includes(res.status)) return null;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const code = (json as { code?: unknown })?.code;
      console.error(
        `WordPress ${method} ${options.postType}: HTTP ${res.status} ${
          typeof code === "string" ? code : ""
        }`,
      );
      throw new BadGatewayError(
        apiMessage("cms.status", { status: String(res.status) }),
      );
    }
    if (bodyError !== undefined) {
      throw fail(bodyError, "the answer broke off", apiMessage("cms.invalid"));
    }
    if (json === undefined) {
      console.error(
        `WordPress ${method} ${options.postType}: the answer is not JSON`,
      );
      throw new BadGatewayError(apiMessage("cms.invalid"));
    }
    return json;
  }

  function parse<T>(schema: z.ZodType<T>, value: unknown): T {
    const result = schema.safeParse(value);
    if (!result.success) {
      console.error(`WordPress ${options.postType}: unexpected answer shape`);
      throw new BadGatewayError(apiMessage("cms.invalid"));
    }
    return result.data;
  }

  async function findPost(shareCode: string): Promise<Post | null> {
    const query = new URLSearchParams({
      slug: toSlug(shareCode),
      status: "any",
      context: "edit",
      _fields: "id,slug,title,meta",
    });
    const posts = parse(
      z.array(postSchema),
      await call("GET", `${endpoint}?${query}`),
    );
    return posts.find((post) => post.slug === toSlug(shareCode)) ?? null;
  }

  return {
    kind: "wordpress",

    async findTicket(shareCode) {
      const post = await findPost(shareCode);
      return post ? toTicket(post, shareCode) : null;
    },

    async createTicket(input) {
      const created = parse(
        postSchema,
        await call("POST", `${endpoint}?_fields=id,slug,title,meta`, {
          title: input.name,
          slug: toSlug(input.shareCode),
          status: "private",
          meta: {
            turismo_name: input.name,
            turismo_email: input.email,
            turismo_phone: input.phone ?? "",
            turismo_share_code: input.shareCode,
            turismo_user_id: input.userId ?? "",
          },
        }),
      );
      if (created.slug === toSlug(input.shareCode)) {
        return toTicket(created, input.shareCode);
      }
      // WordPress renamed the slug (`code-2`): another post took it first. Keep that one.
      await call("DELETE", `${endpoint}/${created.id}?force=true`).catch(
        () => {},
      );
      const existing = await findPost(input.shareCode);
      if (!existing) {
        throw new BadGatewayError(apiMessage("cms.invalid"));
      }
      return toTicket(existing, input.shareCode);
    },

    async renameTicket(shareCode, name) {
      const post = await findPost(shareCode);
      if (!post) return null;
      const updated = parse(
        postSchema,
        await call(
          "POST",
          `${endpoint}/${post.id}?_fields=id,slug,title,meta`,
          { title: name, meta: { turismo_name: name } },
        ),
      );
      return toTicket(updated, shareCode);
    },

    async deleteTicket(shareCode) {
      // Found by slug, not by a stored id: a post created by a request
      // whose answer was lost is found (and deleted) too.
      const post = await findPost(shareCode);
      if (!post) return;
      await call("DELETE", `${endpoint}/${post.id}?force=true`, undefined, {
        // Deleted meanwhile (another instance's retry): done all the same.
        acceptStatus: [404, 410],
      });
    },
  };
}

/** WordPress lowercases slugs, so the share code's slug is its lowercase form. */
function toSlug(shareCode: string): string {
  return shareCode.toLowerCase();
}

function toTicket(post: Post, shareCode: string): CmsTicket {
  const meta = post.meta ?? {};
  const ticket: TicketInput = {
    shareCode: meta.turismo_share_code || shareCode,
    name: meta.turismo_name || post.title?.raw || "",
    email: meta.turismo_email ?? "",
    phone: meta.turismo_phone || undefined,
    userId: meta.turismo_user_id || undefined,
  };
  return { ...ticket, wpId: post.id };
}

function toBase64(text: string): string {
  return btoa(
    Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b))
      .join(""),
  );
}

import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import type { PageCardId, PageCardImage } from "@/lib/og/mod.ts";

/**
 * A page card whose URL carries the current `v` (data set and design
 * version): the bytes behind that URL never change, so browsers and proxies
 * keep it a year without asking again.
 */
export const PAGE_CARD_IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Any other `v`, or none: the current card, briefly. A `v` this instance
 * does not know yet (another instance already on a newer data set, or an
 * old link) must not pin this card under that URL. As `/logo.svg` does.
 */
export const PAGE_CARD_SHORT = "public, max-age=60";

/**
 * Answers a public page's share card (`/og/inicio.png`,
 * `/og/atractivos/<slug>.png`) from the share-card cache: a strong ETag
 * (`If-None-Match` gets a 304), `Content-Type: image/png`, and the cache
 * policy above. HEAD is answered by the router from GET, without the body.
 * An attraction the data set lacks is a plain 404.
 */
export function servePageCard(
  c: Context,
  { shareCards: cards }: Pick<AppDeps, "shareCards">,
  id: PageCardId | undefined,
): Response | Promise<Response> {
  if (!id) return notFound();
  const options = { ifNoneMatch: c.req.header("if-none-match") };
  const v = c.req.query("v");
  // Known answer and cached PNG: no await.
  const known = cards.peekPageCard(id, options);
  if (known) return respond(known, v);
  return cards.getPageCard(id, options).then(
    (image) => respond(image, v),
    (error) => {
      if (error instanceof NotFoundError) return notFound();
      throw error;
    },
  );
}

function respond({ etag, png, v }: PageCardImage, requested?: string) {
  const headers: [string, string][] = [
    ["Cache-Control", requested === v ? PAGE_CARD_IMMUTABLE : PAGE_CARD_SHORT],
    ["ETag", etag],
  ];
  if (!png) return new Response(null, { status: 304, headers });
  headers.push(["Content-Type", "image/png"]);
  return new Response(png as Uint8Array<ArrayBuffer>, { headers });
}

function notFound(): Response {
  return new Response("No existe esa imagen.", {
    status: 404,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-cache",
    },
  });
}

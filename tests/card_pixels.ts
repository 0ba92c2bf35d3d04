/**
 * Reads a page's share card as a tourist's phone or a chat app fetches
 * it: the `og:image` the page names, decoded to pixels, to tell whether the
 * card draws a photo in its photo box (right of the text).
 */
import assert from "node:assert/strict";
import { decodePixels } from "@/lib/photos/codecs.ts";

/** Inside the photo's box (right of the text), where a card without one is plain background. */
const IN_PHOTO = { x: 956, y: 420 };
/** Background on every card, right of the text, below the photo. */
const BACKGROUND = { x: 1100, y: 500 };

/**
 * How far the photo box's point is from the card's background colour, on
 * the card the page at `page` names (`fetchPath`: a path and query, as
 * the service is asked). A drawn photo gives well over 150, none under 10.
 */
export async function readCardPhotoContrast(
  fetchPath: (path: string) => Response | Promise<Response>,
  page: string,
): Promise<number> {
  const html = await (await fetchPath(page)).text();
  const url = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  assert.ok(url, `${page} names its card`);
  const res = await fetchPath(new URL(url).pathname + new URL(url).search);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/png");
  const pixels = await decodePixels(
    new Uint8Array(await res.arrayBuffer()),
    "png",
  );
  assert.deepEqual([pixels.width, pixels.height], [1200, 630]);
  const at = ({ x, y }: { x: number; y: number }) => {
    const i = (y * pixels.width + x) * 4;
    return [...pixels.data.slice(i, i + 3)];
  };
  const [photo, background] = [at(IN_PHOTO), at(BACKGROUND)];
  return photo.reduce((sum, v, i) => sum + Math.abs(v - background[i]), 0);
}

/**
 * The preview of a draft: the public page as it would be published, drawn
 * by the very app the portal runs (the route builds it on a data set with
 * the draft in place and no cache of any kind), answered `no-store`,
 * `noindex`, with a band that says it is a preview, so that a preview is
 * never mistaken for the portal or kept by anyone.
 */
import { sha256Hex } from "@/lib/crypto/mod.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import { type RawTourismData, toLoadedData } from "@/lib/data/tourism_data.ts";

/**
 * `page` as a preview: never cached, never indexed, and (an HTML page) a
 * band at the top of its body saying `band` (the catalogue's words).
 */
export async function markAsPreview(
  page: Response,
  band: string,
): Promise<Response> {
  const headers = new Headers(page.headers);
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Robots-Tag", "noindex, nofollow");
  headers.delete("ETag");
  headers.delete("Content-Length");
  if (!(page.headers.get("content-type") ?? "").startsWith("text/html")) {
    return new Response(page.body, { status: page.status, headers });
  }
  const html = (await page.text()).replace(
    /<body([^>]*)>/,
    `<body$1><p class="preview-band" role="status">${band}</p>`,
  );
  return new Response(html, { status: page.status, headers });
}

/** A data store holding `data` alone (a draft's preview): never reloaded, no warnings logged. */
export async function previewDataStore(
  data: RawTourismData,
): Promise<DataStore> {
  return new DataStore(
    toLoadedData(data, await sha256Hex(JSON.stringify(data))),
    { onWarning: () => {} },
  );
}

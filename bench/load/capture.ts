/**
 * The reads' bytes: each read path asked of the service once, its body and
 * headers saved in the run's temp dir with a manifest, which the baseline
 * server (bench/baseline_server.ts) then answers with.
 */
import { ROUTE_CODE } from "./config.ts";

export interface ReadPaths {
  healthz: string;
  ruta: string;
  atractivo: string;
  og: string;
  ogPlain: string;
  logo: string;
}

export interface Captured {
  paths: ReadPaths;
  /** Response sizes in bytes, by read. */
  sizes: Record<string, number>;
  manifestPath: string;
}

/** The paths of the reads; the card's as the route page links it. */
export async function findReadPaths(
  serviceUrl: string,
  firstSlug: string,
): Promise<ReadPaths> {
  const attractionPath = `/turismo/atractivos/${firstSlug}`;
  // The card as the route page links it (`?v=<visits>-<badges>`), and the
  // same card without the version (which reads KV every time).
  const routePage = await (await fetch(`${serviceUrl}/ruta/${ROUTE_CODE}`))
    .text();
  const linkedCard = /<meta property="og:image" content="([^"]+)"/.exec(
    routePage,
  )?.[1];
  if (!linkedCard) throw new Error("the route page links no og:image");
  const linkedCardUrl = new URL(linkedCard.replaceAll("&amp;", "&"));
  return {
    healthz: "/healthz",
    ruta: `/ruta/${ROUTE_CODE}`,
    atractivo: attractionPath,
    og: `${linkedCardUrl.pathname}${linkedCardUrl.search}`,
    ogPlain: `/api/turismo/og/${ROUTE_CODE}`,
    logo: "/logo.svg",
  };
}

/** Captures every read of `serviceUrl` into `dir` and writes the manifest. */
export async function captureReads(
  serviceUrl: string,
  firstSlug: string,
  dir: string,
): Promise<Captured> {
  const paths = await findReadPaths(serviceUrl, firstSlug);
  const manifest: Record<
    string,
    { file: string; headers: Record<string, string> }
  > = {};
  const sizes: Record<string, number> = {};
  for (const [key, path] of Object.entries(paths)) {
    const res = await fetch(`${serviceUrl}${path}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) {
      throw new Error(`${path} answered ${res.status}: cannot capture it`);
    }
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!["date", "content-length", "transfer-encoding"].includes(name)) {
        headers[name] = value;
      }
    });
    const file = `${dir}/capture-${key}`;
    await Deno.writeFile(file, bytes);
    manifest[path] = { file, headers };
    sizes[key] = bytes.length;
  }
  const manifestPath = `${dir}/manifest.json`;
  await Deno.writeTextFile(manifestPath, JSON.stringify(manifest));
  return { paths, sizes, manifestPath };
}

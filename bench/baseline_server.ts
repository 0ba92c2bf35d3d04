/**
 * The physical limit of a read: a plain `Deno.serve` answering, for each
 * path, the very bytes and headers the service answered (captured once by
 * bench/load.ts). Whatever the service does beyond this is its own cost.
 *
 *   deno run -A bench/baseline_server.ts <port> <manifest.json>
 *
 * The manifest maps a path (with its query, when it has one) to `{file,
 * headers}`.
 */
interface Captured {
  file: string;
  headers: Record<string, string>;
}

if (import.meta.main) {
  const port = Number(Deno.args[0]);
  const manifest: Record<string, Captured> = JSON.parse(
    await Deno.readTextFile(Deno.args[1]),
  );
  const routes = new Map<
    string,
    { bytes: Uint8Array<ArrayBuffer>; headers: Headers }
  >();
  for (const [path, { file, headers }] of Object.entries(manifest)) {
    routes.set(path, {
      bytes: await Deno.readFile(file),
      headers: new Headers(headers),
    });
  }
  Deno.serve({ hostname: "127.0.0.1", port }, (request) => {
    const url = new URL(request.url);
    const route = routes.get(`${url.pathname}${url.search}`) ??
      routes.get(url.pathname);
    if (!route) return new Response(null, { status: 404 });
    return new Response(route.bytes, { headers: route.headers });
  });
}

/**
 * The floor of a cold start: a bare `Deno.serve` that answers "ok" to every
 * request, started by the load harness's cold-start phase beside the
 * service so both are measured in the same run.
 *
 *   deno run -A bench/bare_server.ts <port>
 */
if (import.meta.main) {
  Deno.serve(
    {
      hostname: "127.0.0.1",
      port: Number(Deno.args[0] ?? Deno.env.get("PORT")),
    },
    () => new Response("ok"),
  );
}

/**
 * The real share-card worker, except that it cannot start while the file
 * named by `RENDER_TEST_WORKERS_BROKEN` exists: workers that fail for a
 * while (a machine too busy, a bad moment), then start again.
 */
function failsForNow(): boolean {
  const flag = Deno.env.get("RENDER_TEST_WORKERS_BROKEN");
  if (!flag) return false;
  try {
    Deno.statSync(flag);
    return true;
  } catch {
    return false;
  }
}

if (failsForNow()) throw new Error("workers fail for now");
await import("@/lib/og/worker.ts");

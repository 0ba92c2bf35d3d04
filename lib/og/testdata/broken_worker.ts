/** A worker that cannot start, as where a platform forbids what it loads. */
/// <reference lib="deno.worker" />
throw new Error("this worker cannot start");

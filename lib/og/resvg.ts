/**
 * resvg-wasm, initialised once per process (or worker). Its wasm is a
 * `bytes` import, part of the module graph: nothing is read from disk or
 * the network at run time.
 */
import { initWasm } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "bytes" };

let ready: Promise<void> | undefined;

/**
 * Resolves once `Resvg` can be used. Safe under concurrent first calls (they
 * share one initialisation); a failed one is retried by the next call.
 */
export function initResvg(): Promise<void> {
  ready ??= initWasm(resvgWasm).catch((err) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

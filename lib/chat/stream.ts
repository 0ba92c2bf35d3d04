import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { HttpError } from "@/lib/errors/mod.ts";
import { DEFAULT_LANG, type Lang } from "@/lib/i18n/catalogue.ts";
import { getChatReply } from "./replies.ts";

/** Whether the client asked for the reply as server-sent events. */
export function wantsEventStream(accept: string | undefined): boolean {
  return /\btext\/event-stream\b/i.test(accept ?? "");
}

/**
 * Starts the model's stream and sends its deltas as server-sent events:
 * `data: {"delta": "..."}` per chunk, then `event: done`. The first delta is
 * awaited before the response starts, so a provider that fails at once still
 * gets its status code (502) from the error funnel; a failure after that can
 * only be told in the stream, as `event: error` with the chat's `{reply}` (no
 * internals) in `lang`.
 */
export async function respondWithEventStream(
  c: Context,
  start: (
    signal: AbortSignal,
  ) => Promise<AsyncGenerator<string, void, undefined>>,
  lang: Lang = DEFAULT_LANG,
): Promise<Response> {
  // Cancels the provider call when the visitor goes away mid-stream.
  const cancel = new AbortController();
  const deltas = await start(cancel.signal);
  const first = await deltas.next();
  // Asks nginx-style proxies not to buffer the events.
  c.header("X-Accel-Buffering", "no");
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => cancel.abort());
    const send = (delta: string) =>
      stream.writeSSE({ data: JSON.stringify({ delta }) });
    try {
      if (!first.done) await send(first.value);
      for await (const delta of deltas) await send(delta);
      await stream.writeSSE({ event: "done", data: "{}" });
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) {
        console.error(
          `Unhandled error in chat stream on ${c.req.path}:`,
          error,
        );
      }
      await stream.writeSSE({
        event: "error",
        data: JSON.stringify({
          reply: getChatReply(status, lang),
        }),
      });
    }
  });
}

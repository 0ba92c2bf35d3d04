/** One server-sent event: its name (`message` when unnamed) and data. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads server-sent events from a fetch body (the chat streams its reply
 * this way). EventSource cannot POST, hence this small parser of the
 * `text/event-stream` format: `event:`/`data:` lines, events ended by a blank
 * line, comments (`:`) ignored, CRLF accepted.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  function* take(final: boolean): Generator<ServerSentEvent> {
    let match: RegExpExecArray | null;
    while ((match = /\r\n|\r|\n/.exec(buffer)) !== null) {
      // A lone "\r" at the end may be half of a "\r\n" split across chunks.
      if (!final && match[0] === "\r" && match.index === buffer.length - 1) {
        return;
      }
      const line = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      if (line === "") {
        if (data.length > 0 || event) {
          yield { event: event || "message", data: data.join("\n") };
        }
        event = "";
        data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
  }
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      yield* take(false);
    }
    buffer += decoder.decode() + "\n";
    yield* take(true);
    if (data.length > 0) {
      yield { event: event || "message", data: data.join("\n") };
    }
  } finally {
    // Stops the download when the reader stops early (a `done` event).
    await reader.cancel().catch(() => {});
  }
}

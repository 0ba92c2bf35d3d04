import assert from "node:assert/strict";
import { readServerSentEvents, type ServerSentEvent } from "./sse.ts";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(streamOf(chunks))) {
    events.push(event);
  }
  return events;
}

const STREAM = 'data: {"delta":"Ho"}\n\ndata: {"delta":"la"}\n\n' +
  ": keep-alive\n\nevent: done\ndata: {}\n\n";
const EXPECTED = [
  { event: "message", data: '{"delta":"Ho"}' },
  { event: "message", data: '{"delta":"la"}' },
  { event: "done", data: "{}" },
];

Deno.test("readServerSentEvents", async (t) => {
  await t.step(
    "reads named and unnamed events and skips comments",
    async () => {
      assert.deepEqual(await collect([STREAM]), EXPECTED);
    },
  );

  await t.step(
    "gives the same events however the bytes are split",
    async () => {
      for (let size = 1; size <= 9; size++) {
        const chunks = STREAM.match(new RegExp(`[\\s\\S]{1,${size}}`, "g"))!;
        assert.deepEqual(await collect(chunks), EXPECTED, `chunks of ${size}`);
      }
    },
  );

  await t.step(
    "accepts CRLF, a CRLF split across chunks, and multi-line data",
    async () => {
      assert.deepEqual(
        await collect(["event: error\r", "\ndata: a\r\ndata: b\r\n\r", "\n"]),
        [{ event: "error", data: "a\nb" }],
      );
    },
  );

  await t.step("splits UTF-8 characters across chunks correctly", async () => {
    const bytes = new TextEncoder().encode('data: {"delta":"¿Qué?"}\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: ServerSentEvent[] = [];
    for await (const event of readServerSentEvents(stream)) events.push(event);
    assert.deepEqual(events, [{ event: "message", data: '{"delta":"¿Qué?"}' }]);
  });
});

/**
 * A loopback stand-in for an OpenAI-compatible chat completions server, for
 * tests that drive the real `openai` SDK. It answers `POST
 * /v1/chat/completions` the way OpenAI does (a JSON completion, or SSE chunks
 * ending with `data: [DONE]`), records every request it receives, and can be
 * told to fail in the ways a hosted model fails.
 */
import OpenAI, { type ClientOptions } from "openai";

/** How the server answers the next requests (until told otherwise). */
export type FakeBehaviour =
  /**
   * A normal completion with this text (streamed in a few chunks when
   * asked), after `delayMs` when given (a slow model).
   */
  | { type: "reply"; content: string; delayMs?: number }
  /** An OpenAI-style error body with this status (e.g. 401, 429, 500). */
  | { type: "status"; status: number; message?: string }
  /** Never answer: the client's timeout has to fire. */
  | { type: "hang" }
  /** 200 with a body that is not a completion. */
  | { type: "garbage" }
  /** Stream some content, then an error event, as OpenAI does mid-stream. */
  | { type: "stream-error"; content: string }
  /** Stream some content, then go silent. */
  | { type: "stream-hang"; content: string }
  /** Stream some content, then drop the connection (no error event, no end). */
  | { type: "stream-drop"; content: string };

/** A request as the server received it. */
export interface RecordedRequest {
  path: string;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

export interface FakeOpenAI extends AsyncDisposable {
  /** The base URL to give the SDK, ending in `/v1`. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The last request received. */
  lastRequest(): RecordedRequest;
  /** Sets how the server answers from now on. */
  respondWith(behaviour: FakeBehaviour): void;
  /** An SDK client of this server, with the API key `test-key` and `options`. */
  client(options?: ClientOptions): OpenAI;
}

export const DEFAULT_REPLY =
  "¡Hola! Te recomiendo la **Plaza Principal de Tequila**: " +
  "[ver atractivo](/turismo/atractivos/plaza-principal). 🌵";

/** Starts the stand-in on 127.0.0.1 and a free port. Use with `await using`. */
export function startFakeOpenAI(): FakeOpenAI {
  const requests: RecordedRequest[] = [];
  let behaviour: FakeBehaviour = { type: "reply", content: DEFAULT_REPLY };
  // Hanging handlers, released when the client gives up or the server stops.
  const pending = new Set<() => void>();
  let sequence = 0;

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method !== "POST" || path !== "/v1/chat/completions") {
        return errorResponse(404, `Unknown path ${path}`);
      }
      const body = await request.json();
      requests.push({ path, headers: request.headers, body });
      const id = `chatcmpl-fake${++sequence}`;
      const current = behaviour;
      switch (current.type) {
        case "status":
          return errorResponse(
            current.status,
            current.message ?? `Fake error ${current.status}`,
          );
        case "hang":
          await new Promise<void>((resolve) => {
            pending.add(resolve);
            request.signal.addEventListener("abort", () => resolve(), {
              once: true,
            });
          });
          return new Response(null, { status: 499 });
        case "garbage":
          return new Response("<html>upstream proxy says hello</html>", {
            headers: { "content-type": "text/html" },
          });
        case "reply":
          if (current.delayMs) {
            await new Promise((resolve) =>
              setTimeout(resolve, current.delayMs)
            );
          }
          return body.stream
            ? streamResponse(id, body, current.content, "done", pending)
            : completionResponse(id, body, current.content);
        case "stream-error":
          return streamResponse(id, body, current.content, "error", pending);
        case "stream-hang":
          return streamResponse(id, body, current.content, "hang", pending);
        case "stream-drop":
          return streamResponse(id, body, current.content, "drop", pending);
      }
    },
  );

  const url = `http://127.0.0.1:${server.addr.port}/v1`;
  return {
    url,
    requests,
    lastRequest() {
      const last = requests.at(-1);
      if (!last) throw new Error("The fake OpenAI server got no request");
      return last;
    },
    respondWith(next) {
      behaviour = next;
    },
    client(options) {
      return new OpenAI({ apiKey: "test-key", baseURL: url, ...options });
    },
    async [Symbol.asyncDispose]() {
      for (const release of pending) release();
      await server.shutdown();
    },
  };
}

const CREATED = 1_790_000_000;

function commonHeaders(id: string): Record<string, string> {
  return { "x-request-id": `req_${id}`, "openai-processing-ms": "12" };
}

// deno-lint-ignore no-explicit-any
function completionResponse(id: string, body: any, content: string) {
  const promptTokens = JSON.stringify(body.messages).length >> 2;
  const completionTokens = content.length >> 2;
  return Response.json({
    id,
    object: "chat.completion",
    created: CREATED,
    model: body.model,
    choices: [{
      index: 0,
      message: { role: "assistant", content, refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: "stop",
    }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: "default",
    system_fingerprint: "fp_fake",
  }, { headers: commonHeaders(id) });
}

function streamResponse(
  id: string,
  // deno-lint-ignore no-explicit-any
  body: any,
  content: string,
  ending: "done" | "error" | "hang" | "drop",
  pending: Set<() => void>,
): Response {
  const chunk = (
    delta: Record<string, unknown>,
    finishReason: string | null = null,
  ) => ({
    id,
    object: "chat.completion.chunk",
    created: CREATED,
    model: body.model,
    service_tier: "default",
    system_fingerprint: "fp_fake",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  // Split like a tokenizer would: a few characters per chunk.
  const pieces = content.match(/[\s\S]{1,7}/g) ?? [];
  const events = [
    chunk({ role: "assistant", content: "", refusal: null }),
    ...pieces.map((piece) => chunk({ content: piece })),
  ];
  const encoder = new TextEncoder();
  let release: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (data: unknown) =>
        controller.enqueue(
          encoder.encode(
            `data: ${
              typeof data === "string" ? data : JSON.stringify(data)
            }\n\n`,
          ),
        );
      for (const event of events) send(event);
      if (ending === "done") {
        send(chunk({}, "stop"));
        send("[DONE]");
      } else if (ending === "error") {
        send({
          error: {
            message: "The server had an error while processing your request.",
            type: "server_error",
            param: null,
            code: null,
          },
        });
      } else if (ending === "drop") {
        // Let the chunks go out, then break the connection mid-stream.
        await new Promise((resolve) => setTimeout(resolve, 20));
        controller.error(new Error("connection reset by the fake provider"));
        return;
      } else {
        await new Promise<void>((resolve) => {
          release = resolve;
          pending.add(resolve);
        });
      }
      try {
        controller.close();
      } catch {
        // Already cancelled by the client.
      }
    },
    cancel() {
      release?.();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      ...commonHeaders(id),
    },
  });
}

function errorResponse(status: number, message: string): Response {
  const type = status === 429
    ? "rate_limit_exceeded"
    : status === 401
    ? "invalid_request_error"
    : "server_error";
  return Response.json({
    error: {
      message,
      type,
      param: null,
      code: status === 401 ? "invalid_api_key" : null,
    },
  }, {
    status,
    // Lets the SDK's one retry happen at once instead of after its back-off.
    headers: { "retry-after-ms": "5", "x-request-id": "req_fake_error" },
  });
}

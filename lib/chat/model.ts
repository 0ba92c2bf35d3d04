import OpenAI, {
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "openai";
import { apiMessage, BadGatewayError, HttpError } from "@/lib/errors/mod.ts";

/** The model runs at temperature 0.7 (docs/API.md, chat) ... */
export const CHAT_TEMPERATURE = 0.7;
/** ... with at most 800 output tokens. */
export const CHAT_MAX_OUTPUT_TOKENS = 800;

/** A message as the chat completions API takes it. */
export interface ModelMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What one model call needs. */
export interface ChatRequest {
  model: string;
  messages: ModelMessage[];
}

/**
 * The name of the output-token cap for `baseURL`. OpenAI's own API has
 * deprecated `max_tokens` for `max_completion_tokens` (the only one its
 * reasoning models take), so it gets that. OpenAI-compatible servers all
 * understand `max_tokens`, while several (Ollama, LM Studio, older vLLM and
 * llama.cpp) silently ignore `max_completion_tokens`, which would leave the
 * reply uncapped; sending both is refused by OpenAI. So: exactly one, chosen
 * by host.
 */
export function getMaxTokensField(
  baseURL: string,
): "max_tokens" | "max_completion_tokens" {
  try {
    return new URL(baseURL).hostname === "api.openai.com"
      ? "max_completion_tokens"
      : "max_tokens";
  } catch {
    return "max_tokens";
  }
}

/**
 * A deadline for one model call, retries included: the client's `timeout`
 * (30 s) in all, so a provider that hangs keeps a visitor waiting that long
 * and no longer (the SDK alone would wait its timeout once per attempt).
 */
function startDeadline(openai: OpenAI, visitor?: AbortSignal) {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new APIConnectionTimeoutError()),
    openai.timeout,
  );
  return {
    signal: visitor
      ? AbortSignal.any([deadline.signal, visitor])
      : deadline.signal,
    /** Whether the deadline (not the visitor) ended the call. */
    get expired() {
      return deadline.signal.aborted;
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * Asks the model for a whole reply, within one deadline for all attempts.
 * Provider failures (an error status, no connection, the deadline, a
 * response that is not a completion) become a 502
 * {@linkcode BadGatewayError}; anything else propagates (500).
 */
export async function completeChat(
  openai: OpenAI,
  { model, messages }: ChatRequest,
): Promise<string> {
  let completion: unknown;
  const deadline = startDeadline(openai);
  try {
    completion = await openai.chat.completions.create({
      ...createParams(openai, model, messages),
      stream: false,
    }, { signal: deadline.signal });
  } catch (error) {
    throw toProviderError(deadline.expired ? timedOut() : error, openai);
  } finally {
    deadline.stop();
  }
  // A server that is not really OpenAI-compatible can answer 200 with
  // anything (the SDK then hands back text or other JSON): check the shape.
  const message = (completion as OpenAI.Chat.ChatCompletion | undefined)
    ?.choices?.[0]?.message;
  const reply = message?.content || message?.refusal;
  if (typeof reply !== "string" || !reply.trim()) {
    throw toProviderError(
      new SyntaxError("the response is not a chat completion with content"),
      openai,
    );
  }
  return reply;
}

/**
 * Asks the model for a streamed reply. Resolves once the provider has
 * answered with a stream, within one deadline for all attempts (so an error
 * status is still a 502 before anything is sent), to the text deltas.
 * Reading them throws 502s for any failure of the provider's stream (an
 * error event, a dropped connection); a stream silent for longer than the
 * client's timeout is aborted as a timeout (the SDK's own timeout only
 * covers the response headers).
 */
export async function streamChat(
  openai: OpenAI,
  { model, messages, signal }: ChatRequest & {
    /** Cancels the provider call, e.g. when the visitor goes away. */
    signal?: AbortSignal;
  },
): Promise<AsyncGenerator<string, void, undefined>> {
  let stream;
  const deadline = startDeadline(openai, signal);
  try {
    stream = await openai.chat.completions.create({
      ...createParams(openai, model, messages),
      stream: true,
    }, { signal: deadline.signal });
  } catch (error) {
    throw toProviderError(deadline.expired ? timedOut() : error, openai);
  } finally {
    // Streaming now: each chunk has the idle timeout instead.
    deadline.stop();
  }
  signal?.addEventListener("abort", () => stream.controller.abort(), {
    once: true,
  });
  return readDeltas(stream, openai);
}

async function* readDeltas(
  stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk> & {
    controller: AbortController;
  },
  openai: OpenAI,
): AsyncGenerator<string, void, undefined> {
  const iterator = stream[Symbol.asyncIterator]();
  let isEmpty = true;
  try {
    while (true) {
      const next = await withIdleTimeout(
        iterator.next(),
        openai.timeout,
        () => stream.controller.abort(),
      );
      if (next.done) break;
      const delta = (next.value as Partial<OpenAI.Chat.ChatCompletionChunk>)
        ?.choices?.[0]?.delta?.content;
      if (typeof delta === "string" && delta !== "") {
        isEmpty = false;
        yield delta;
      }
    }
  } catch (error) {
    // Only the provider's stream is read here: whatever fails is its fault.
    throw toProviderError(error, openai, { always: true });
  } finally {
    stream.controller.abort();
  }
  if (isEmpty) {
    throw toProviderError(
      new SyntaxError("the stream ended without any content"),
      openai,
    );
  }
}

function createParams(
  openai: OpenAI,
  model: string,
  messages: ModelMessage[],
) {
  return {
    model,
    messages,
    temperature: CHAT_TEMPERATURE,
    [getMaxTokensField(openai.baseURL)]: CHAT_MAX_OUTPUT_TOKENS,
  };
}

async function withIdleTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => void,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new APIConnectionTimeoutError());
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(): APIConnectionTimeoutError {
  return new APIConnectionTimeoutError({
    message: "Request timed out (deadline)",
  });
}

/**
 * Maps a failure of the provider call to a 502 and logs it in one line
 * (class, status, message, with the API key redacted). Other errors stay as
 * they are, for the funnel's 500, unless `always` (reading the provider's
 * stream, where every error is the provider's).
 */
function toProviderError(
  error: unknown,
  openai: OpenAI,
  { always = false }: { always?: boolean } = {},
): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof APIUserAbortError) {
    // The visitor went away: nobody reads this answer, nothing to log.
    return new BadGatewayError(apiMessage("model.cancelled"));
  }
  if (
    always || error instanceof APIError || error instanceof SyntaxError
  ) {
    const status = error instanceof APIError && error.status
      ? ` ${error.status}`
      : "";
    const { name, message } = error instanceof Error
      ? { name: error.constructor.name, message: error.message }
      : { name: "Error", message: String(error) };
    let line = `${name}${status}: ${message}`.slice(0, 300);
    if (openai.apiKey) line = line.replaceAll(openai.apiKey, "***");
    console.warn(`Chat model provider failed: ${line}`);
    return new BadGatewayError(apiMessage("model.failed"));
  }
  return error;
}

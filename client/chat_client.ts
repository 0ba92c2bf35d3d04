/**
 * The chat island's conversation with `POST /api/chat`, browser-side and
 * free of UI so it is tested in Deno: the request (last 8 messages of
 * history, optional location), the reply streamed as server-sent events or
 * answered as JSON, and Spanish messages for every failure.
 */
import { readServerSentEvents } from "./sse.ts";

/** A message as the chat shows it and the API reads it (docs/API.md, chat). */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
  /** A failure shown in the conversation; never sent back as history. */
  error?: boolean;
}

/** Whether a value (e.g. read back from storage) is a message the chat can show. */
export function isChatMessage(value: unknown): value is ChatMessage {
  const m = value as ChatMessage | null;
  return typeof m === "object" && m !== null &&
    (m.role === "user" || m.role === "assistant") &&
    typeof m.content === "string";
}

/** The chat's limits (docs/API.md, chat): the server truncates the same way. */
export const MAX_MESSAGE_CHARS = 500;
export const MAX_HISTORY = 8;

export const OFFLINE_REPLY =
  "No pude conectar con el asistente. Revisa tu conexión e inténtalo de nuevo.";
const BROKEN_REPLY =
  "Ocurrió un error de conexión. Por favor, inténtalo más tarde.";

/** The history to send with a new message: the last 8 real exchanges, trimmed. */
export function buildHistory(
  messages: readonly ChatMessage[],
): { role: "user" | "assistant"; content: string }[] {
  return messages
    .filter((m) => !m.error && m.content.trim() !== "")
    .slice(-MAX_HISTORY)
    .map(({ role, content }) => ({
      role,
      content: content.slice(0, MAX_MESSAGE_CHARS),
    }));
}

/**
 * Asks the assistant. Streams when the server streams (`onDelta` gets the
 * text so far), and resolves with the whole reply either way; `ok` is false
 * when the reply is an error message to show as such.
 */
export async function askAssistant(
  { message, history, location, onText, signal, fetchFn = fetch }: {
    message: string;
    history: { role: string; content: string }[];
    location?: { lat: number; lng: number } | null;
    onText?: (textSoFar: string) => void;
    signal?: AbortSignal;
    fetchFn?: typeof fetch;
  },
): Promise<{ ok: boolean; reply: string }> {
  let res: Response;
  try {
    res = await fetchFn("/api/chat", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream, application/json",
      },
      body: JSON.stringify({
        message: message.slice(0, MAX_MESSAGE_CHARS),
        history,
        ...(location ? { location } : {}),
      }),
      signal,
    });
  } catch {
    return { ok: false, reply: OFFLINE_REPLY };
  }
  const type = res.headers.get("content-type") ?? "";
  if (res.ok && type.includes("text/event-stream") && res.body) {
    let text = "";
    try {
      for await (const event of readServerSentEvents(res.body)) {
        const data = parseJson(event.data);
        if (event.event === "error") {
          return { ok: false, reply: readReply(data) ?? BROKEN_REPLY };
        }
        if (event.event === "done") {
          // A final reply, when the server sends one, is authoritative.
          return { ok: true, reply: readReply(data) ?? text };
        }
        const delta = (data as { delta?: unknown } | null)?.delta;
        if (typeof delta === "string") {
          text += delta;
          onText?.(text);
        }
      }
    } catch {
      return text
        ? { ok: false, reply: `${text}\n\n_(${OFFLINE_REPLY})_` }
        : { ok: false, reply: OFFLINE_REPLY };
    }
    // The stream ended without `done`: keep what arrived, if anything.
    return text
      ? { ok: true, reply: text }
      : { ok: false, reply: BROKEN_REPLY };
  }
  const reply = readReply(await res.json().catch(() => null));
  if (res.ok && reply !== undefined) return { ok: true, reply };
  return { ok: false, reply: reply ?? BROKEN_REPLY };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function readReply(data: unknown): string | undefined {
  const reply = (data as { reply?: unknown } | null)?.reply;
  return typeof reply === "string" ? reply : undefined;
}

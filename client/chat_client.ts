/**
 * The chat island's conversation with `POST /api/chat`, browser-side and
 * free of UI so it is tested in Deno: the request (last 8 messages of
 * history, optional location), the reply streamed as server-sent events or
 * answered as JSON, and a message for every failure in the page's language
 * (the `chat` namespace). The question says its language (`Accept-Language`,
 * and `lang` in the body when not Spanish, the default), so the assistant
 * answers in it.
 */
import type { Translate } from "./messages.ts";
import { DEFAULT_LANG } from "./paths.ts";
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
 * when the reply is an error message to show as such. `t` words the
 * failures of the connection itself (`offline`, `broken`); the server's
 * own error replies are shown as they come.
 */
export async function askAssistant(
  { message, history, location, lang, t, onText, signal, fetchFn = fetch }: {
    message: string;
    history: { role: string; content: string }[];
    location?: { lat: number; lng: number } | null;
    /** The page's language: the assistant answers in it (none: Spanish). */
    lang?: string;
    t: Translate;
    onText?: (textSoFar: string) => void;
    signal?: AbortSignal;
    fetchFn?: typeof fetch;
  },
): Promise<{ ok: boolean; reply: string }> {
  const offline = t("offline");
  const broken = t("broken");
  let res: Response;
  try {
    res = await fetchFn("/api/chat", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream, application/json",
        ...(lang ? { "accept-language": lang } : {}),
      },
      body: JSON.stringify({
        message: message.slice(0, MAX_MESSAGE_CHARS),
        history,
        ...(location ? { location } : {}),
        // Spanish is the API's default: its body stays as the contract shows it.
        ...(lang && lang !== DEFAULT_LANG ? { lang } : {}),
      }),
      signal,
    });
  } catch {
    return { ok: false, reply: offline };
  }
  const type = res.headers.get("content-type") ?? "";
  if (res.ok && type.includes("text/event-stream") && res.body) {
    let text = "";
    try {
      for await (const event of readServerSentEvents(res.body)) {
        const data = parseJson(event.data);
        if (event.event === "error") {
          return { ok: false, reply: readReply(data) ?? broken };
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
        ? { ok: false, reply: `${text}\n\n_(${offline})_` }
        : { ok: false, reply: offline };
    }
    // The stream ended without `done`: keep what arrived, if anything.
    return text ? { ok: true, reply: text } : { ok: false, reply: broken };
  }
  const reply = readReply(await res.json().catch(() => null));
  if (res.ok && reply !== undefined) return { ok: true, reply };
  return { ok: false, reply: reply ?? broken };
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

import type { LatLng } from "@/lib/data/tourism_data.ts";
import { BadRequestError } from "@/lib/errors/mod.ts";
import { getIssueMessage } from "@/lib/http/validation_messages.ts";
import { parseLocation } from "@/lib/geo/geo.ts";

/** A message (and each history entry) is cut at 500 characters (docs/API.md, chat). */
export const MAX_MESSAGE_CHARS = 500;
/** Only the last 8 valid history entries are used (docs/API.md, chat). */
export const MAX_HISTORY_ENTRIES = 8;

/** A chat message: `{role: "user" | "assistant", content}` (docs/API.md, chat). */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

/**
 * A chat request after the chat's lenient input rules (docs/API.md, chat):
 * bad history entries and a bad location are dropped, not refused.
 */
export interface ChatInput {
  message: string;
  history: ChatMessage[];
  location?: LatLng;
}

/**
 * Applies the chat's input rules: `message` trimmed (empty is a 400) and cut;
 * `history` filtered (entries with another role or a non-string content are
 * dropped, a non-array is ignored), then its last entries kept, each cut;
 * `location` kept only when valid. Only `message` can fail: a bad history or
 * location still gets an answer.
 */
export function parseChatInput(
  body: { message: unknown; history?: unknown; location?: unknown },
): ChatInput {
  if (typeof body.message !== "string") {
    throw invalidMessage({ code: "invalid_type", expected: "string" }, body);
  }
  const message = truncateChars(body.message.trim(), MAX_MESSAGE_CHARS);
  if (!message) {
    throw invalidMessage(
      { code: "too_small", origin: "string", minimum: 1 },
      { message },
    );
  }
  const history = (Array.isArray(body.history) ? body.history : [])
    .filter(isChatMessage)
    .map(({ role, content }) => ({
      role,
      content: truncateChars(content.trim(), MAX_MESSAGE_CHARS),
    }))
    .filter(({ content }) => content !== "")
    .slice(-MAX_HISTORY_ENTRIES);
  return { message, history, location: parseLocation(body.location) };
}

/** A 400 about `message`, worded as the API's other validation errors. */
function invalidMessage(
  issue: { code: string; expected?: string; origin?: string; minimum?: number },
  body: unknown,
): BadRequestError {
  const { field, message } = getIssueMessage(
    { ...issue, path: ["message"] },
    body,
  );
  return new BadRequestError(message, { field });
}

/**
 * The first `max` characters of `text`, counted in code points so that an
 * emoji is never split into a lone surrogate (which some model servers'
 * JSON parsers refuse).
 */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  let count = 0;
  for (const char of text) {
    if (count++ === max) break;
    out += char;
  }
  return out;
}

function isChatMessage(value: unknown): value is ChatMessage {
  if (typeof value !== "object" || value === null) return false;
  const { role, content } = value as Record<string, unknown>;
  return (role === "user" || role === "assistant") &&
    typeof content === "string";
}

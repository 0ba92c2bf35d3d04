/**
 * The chat endpoint's own replies: its errors are `{reply}` bodies, said in
 * the language the widget asked in (`assistant.reply.*` in the catalogue),
 * Spanish by default as the contract says.
 */
import { DEFAULT_LANG, type Lang, t } from "@/lib/i18n/catalogue.ts";
import type { ApiMessage } from "@/lib/errors/mod.ts";
import type { ErrorBodies } from "@/lib/http/error_handler.ts";

/** The statuses with a reply of their own; any other is said as a 500. */
const STATUSES = [400, 408, 413, 415, 429, 500, 502, 503];

/** The chat's `{reply}` for an error `status`, in `lang`. */
export function getChatReply(
  status: number,
  lang: Lang = DEFAULT_LANG,
): string {
  const known = STATUSES.includes(status) ? status : 500;
  return t(lang, `assistant.reply.${known}`);
}

/** When the operator's daily ceiling on chat requests is reached (`CHAT_DAILY_LIMIT`). */
export const CHAT_DAILY_LIMIT_REPLY: ApiMessage = {
  key: "assistant.reply.dailyLimit",
};

/** Paths whose errors are `{reply}` bodies (docs/API.md, chat). */
export function isChatPath(path: string): boolean {
  return path === "/api/chat" || path.startsWith("/api/chat/");
}

/**
 * The chat's errors as the app's error funnel answers them: `{reply}`, the
 * error's own reply or the one for its status. Registered in app.ts.
 */
export const chatErrorBodies: ErrorBodies = {
  matches: isChatPath,
  body: (status, lang, reply) => ({
    reply: reply ?? getChatReply(status, lang),
  }),
};

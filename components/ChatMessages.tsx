import type { ChatMessage } from "@/client/chat_client.ts";
import type { Translate } from "@/client/messages.ts";

/** The suggested questions' keys in the `chat` namespace. */
const SUGGESTIONS = ["suggestion1", "suggestion2", "suggestion3"];

/**
 * The chat's conversation: a welcome with suggested questions, then the
 * messages. Assistant replies are rendered with `renderMarkdown` (safe
 * Markdown, lib/pages/markdown.ts) once it has loaded, as plain text before.
 * Worded by `t`, the chat island's messages.
 */
export function ChatMessages(
  { messages, renderMarkdown, pending, onSuggest, t }: {
    messages: ChatMessage[];
    renderMarkdown: ((source: string) => string) | null;
    pending: boolean;
    onSuggest: (question: string) => void;
    t: Translate;
  },
) {
  return (
    <>
      {messages.length === 0 && (
        <div class="chat__welcome">
          <p>{t("welcome")}</p>
          <ul class="chat__suggestions" aria-label={t("suggestionsLabel")}>
            {SUGGESTIONS.map((key) => (
              <li key={key}>
                <button type="button" onClick={() => onSuggest(t(key))}>
                  {t(key)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {messages.map((m, i) => (
        <div
          key={i}
          class={`chat-msg chat-msg--${m.role}${
            m.error ? " chat-msg--error" : ""
          }`}
        >
          <span class="sr-only">
            {t(m.role === "user" ? "you" : "assistant")}
          </span>
          {m.role === "assistant" && renderMarkdown && !m.error
            ? (
              <div
                class="chat-msg__body"
                // Safe: markdown-it with html:false and a link allow-list.
                dangerouslySetInnerHTML={{ __html: renderMarkdown(m.content) }}
              />
            )
            : (
              <div class="chat-msg__body chat-msg__body--plain">
                {m.content}
              </div>
            )}
        </div>
      ))}
      {pending && messages.at(-1)?.role === "user" && (
        <p class="chat__typing">{t("typing")}</p>
      )}
    </>
  );
}

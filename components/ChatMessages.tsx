import type { ChatMessage } from "@/client/chat_client.ts";

const SUGGESTIONS = [
  "¿Qué puedo visitar en un día?",
  "¿Cómo llego desde Guadalajara?",
  "¿Dónde como birria cerca del centro?",
];

/**
 * The chat's conversation: a welcome with suggested questions, then the
 * messages. Assistant replies are rendered with `renderMarkdown` (safe
 * Markdown, lib/pages/markdown.ts) once it has loaded, as plain text before.
 */
export function ChatMessages(
  { messages, renderMarkdown, pending, onSuggest }: {
    messages: ChatMessage[];
    renderMarkdown: ((source: string) => string) | null;
    pending: boolean;
    onSuggest: (question: string) => void;
  },
) {
  return (
    <>
      {messages.length === 0 && (
        <div class="chat__welcome">
          <p>
            ¡Hola! Soy el asistente turístico. Pregúntame por atractivos, rutas,
            hoteles, restaurantes o cómo llegar.
          </p>
          <ul class="chat__suggestions" aria-label="Preguntas sugeridas">
            {SUGGESTIONS.map((s) => (
              <li key={s}>
                <button type="button" onClick={() => onSuggest(s)}>{s}</button>
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
            {m.role === "user" ? "Tú:" : "Asistente:"}
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
        <p class="chat__typing">El asistente está escribiendo…</p>
      )}
    </>
  );
}

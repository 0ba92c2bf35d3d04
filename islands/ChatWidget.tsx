import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ChatMessages } from "@/components/ChatMessages.tsx";
import { Icon } from "@/components/Icon.tsx";
import {
  askAssistant,
  buildHistory,
  type ChatMessage,
  isChatMessage,
  MAX_MESSAGE_CHARS,
} from "@/client/chat_client.ts";
import { describeLocation, useGeolocation } from "@/client/use_geolocation.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";

type Markdown = (source: string) => string;

const STORAGE_KEY = "turismo-chat";

/**
 * The tourism assistant: a button in the page header (an icon on a phone,
 * floating at the corner on wider screens) that opens a chat panel. The
 * conversation lives in this tab only (sessionStorage) and its last 8
 * messages go with each question. Replies stream in and are rendered as safe
 * Markdown (lib/pages/markdown.ts, loaded on first open). Hidden until
 * hydrated: without JavaScript it could not work. The layout renders it only
 * when a model is configured. It asks and answers in the page's language;
 * its messages: `chat`, with the shared `location`.
 */
export default function ChatWidget(
  { brandName, lang, locale, messages: catalogue }: IslandLanguage & {
    brandName: string;
  },
) {
  const t = useMemo(() => createTranslate(catalogue, locale), [
    catalogue,
    locale,
  ]);
  const [ready, setReady] = useState(false);
  const [open, setOpen] = useState(false);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState("");
  const [pending, setPending] = useState(false);
  const geo = useGeolocation();
  const [markdown, setMarkdown] = useState<{ render: Markdown } | null>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  // Focus moves only on the visitor's own open/close, never on page load.
  const moveFocus = useRef(false);

  useEffect(() => {
    try {
      const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null");
      if (Array.isArray(saved?.messages)) {
        setMessages(saved.messages.filter(isChatMessage));
      }
      if (saved?.open) setOpen(true);
    } catch { /* storage off or corrupt: start empty */ }
    setReady(true);
  }, []);

  useEffect(() => {
    if (!ready) return;
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ messages, open }));
    } catch { /* private mode: the chat still works for this page */ }
  }, [ready, messages, open]);

  useEffect(() => {
    const focus = moveFocus.current;
    moveFocus.current = false;
    if (!open) {
      // Back to the button that opened the panel, once it is shown again.
      if (focus) launcher.current?.focus();
      return;
    }
    if (focus) field.current?.focus();
    if (!markdown) {
      import("@/client/markdown.ts").then(({ renderMarkdown }) =>
        setMarkdown({ render: renderMarkdown })
      ).catch(() => {/* plain text still shows */});
    }
  }, [open]);

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [messages, open]);

  function close() {
    moveFocus.current = true;
    setOpen(false);
  }

  /**
   * A link in an answer opens its page in this tab: the panel is closed
   * there (saved closed now, before the page goes), so the page the visitor
   * asked for is what they see. A link to another tab or window keeps it open.
   */
  function followLink(event: MouseEvent) {
    const link = (event.target as Element | null)?.closest?.("a[href]");
    if (
      !link || event.defaultPrevented || event.button !== 0 ||
      event.metaKey || event.ctrlKey || event.shiftKey || event.altKey ||
      (link.getAttribute("target") ?? "_self") !== "_self"
    ) return;
    try {
      sessionStorage.setItem(
        STORAGE_KEY,
        JSON.stringify({ messages, open: false }),
      );
    } catch { /* private mode: nothing kept, so nothing reopens */ }
    setOpen(false);
  }

  const privacyLink = (text: ComponentChildren[]) => (
    <a href={localizePath(lang, "/aviso-de-privacidad#asistente")}>{text}</a>
  );

  async function send(text: string) {
    const message = text.trim().slice(0, MAX_MESSAGE_CHARS);
    if (!message || pending) return;
    const history = buildHistory(messages);
    const asked: ChatMessage[] = [...messages, {
      role: "user",
      content: message,
    }];
    const show = (content: string, error?: boolean) =>
      setMessages([...asked, { role: "assistant", content, error }]);
    setMessages(asked);
    setInput("");
    setPending(true);
    const { ok, reply } = await askAssistant({
      message,
      history,
      location: geo.location,
      lang,
      t,
      onText: (soFar) => show(soFar),
    });
    show(reply, !ok);
    setPending(false);
  }

  return (
    <div class="chat" hidden={!ready}>
      <button
        ref={launcher}
        type="button"
        class="chat__launcher"
        aria-expanded={open ? "true" : "false"}
        aria-controls="chat-panel"
        hidden={open}
        onClick={() => {
          moveFocus.current = true;
          setOpen(true);
        }}
      >
        <Icon name="chat" />
        {/* Visually hidden on a phone, where the button is an icon in the header. */}
        <span class="chat__launcher-label">{t("launcher")}</span>
      </button>
      <section
        id="chat-panel"
        class="chat__panel"
        role="dialog"
        aria-labelledby="chat-title"
        hidden={!open}
        onKeyDown={(e) => e.key === "Escape" && close()}
      >
        {/* A div, not <header>: a second banner landmark when open. */}
        <div class="chat__header">
          <h2 id="chat-title" class="chat__title">
            <Icon name="chat" /> {t("title", { brand: brandName })}
          </h2>
          <button type="button" class="chat__icon-button" onClick={close}>
            <Icon name="close" label={t("close")} />
          </button>
        </div>
        <div
          ref={log}
          class="chat__log"
          role="log"
          aria-live="polite"
          aria-busy={pending ? "true" : "false"}
          aria-label={t("log")}
          onClick={followLink}
        >
          <ChatMessages
            messages={messages}
            renderMarkdown={markdown?.render ?? null}
            pending={pending}
            onSuggest={send}
            t={t}
          />
        </div>
        {messages.length === 0 && (
          <p class="chat__privacy">
            {t.rich("privacy", { link: privacyLink })}
          </p>
        )}
        <form
          class="chat__form"
          onSubmit={(e) => {
            e.preventDefault();
            send(input);
          }}
        >
          <label for="chat-input" class="sr-only">{t("inputLabel")}</label>
          <textarea
            id="chat-input"
            ref={field}
            rows={2}
            maxLength={MAX_MESSAGE_CHARS}
            placeholder={t("placeholder")}
            value={input}
            onInput={(e) => setInput(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) {
                e.preventDefault();
                send(input);
              }
            }}
          />
          <button
            type="submit"
            class="chat__send"
            disabled={pending || !input.trim()}
          >
            <Icon name="send" label={t("send")} />
          </button>
        </form>
        <div class="chat__tools">
          <button
            type="button"
            class="chat__tool"
            aria-pressed={geo.location ? "true" : "false"}
            aria-describedby={geo.state === "off"
              ? "chat-ubicacion-aviso"
              : undefined}
            onClick={geo.toggle}
          >
            <Icon name="locate" />
            {t("location.use")}
          </button>
          {messages.length > 0 && (
            <button
              type="button"
              class="chat__tool"
              onClick={() => setMessages([])}
              disabled={pending}
            >
              {t("newConversation")}
            </button>
          )}
        </div>
        <p class="chat__status" role="status">
          {describeLocation(geo.state, t)}
        </p>
        {geo.state === "off" && (
          <p class="chat__hint" id="chat-ubicacion-aviso">
            {t.rich("locationHint", { link: privacyLink })}
          </p>
        )}
        <p class="chat__note">{t("note")}</p>
      </section>
    </div>
  );
}

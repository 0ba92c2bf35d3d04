import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { BrandIcon, Icon } from "@/components/Icon.tsx";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";

/**
 * Share links for a route page (WhatsApp, Facebook, X), which work without
 * JavaScript, and a copy-link button that uses the Clipboard API and falls
 * back to selecting the link in its field for a manual copy. `text` is the
 * page's share sentence, already in its language; its messages: `share`.
 */
export default function ShareButtons(
  { url, text, locale, messages }: IslandLanguage & {
    url: string;
    text: string;
  },
) {
  const t = useMemo(() => createTranslate(messages, locale), [
    messages,
    locale,
  ]);
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setReady(true), []);

  const targets = [
    {
      brand: "whatsapp" as const,
      label: "WhatsApp",
      href: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`,
    },
    {
      brand: "facebook" as const,
      label: "Facebook",
      href: `https://www.facebook.com/sharer/sharer.php?u=${
        encodeURIComponent(url)
      }`,
    },
    {
      brand: "x" as const,
      label: "X",
      href: `https://x.com/intent/post?text=${encodeURIComponent(text)}&url=${
        encodeURIComponent(url)
      }`,
    },
  ];

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setStatus(t("copied"));
    } catch {
      input.current?.focus();
      input.current?.select();
      setStatus(t("selected"));
    }
  }

  return (
    <div class="share">
      <ul class="share__list">
        {targets.map((target) => (
          <li key={target.brand}>
            <a
              class={`share__button share__button--${target.brand}`}
              href={target.href}
              target="_blank"
              rel="noopener noreferrer"
            >
              <BrandIcon name={target.brand} />
              <span>
                {target.label}
                <span class="sr-only">{t("newWindow")}</span>
              </span>
            </a>
          </li>
        ))}
        <li hidden={!ready}>
          <button
            type="button"
            class="share__button share__button--copy"
            onClick={copy}
          >
            <Icon name="copy" />
            <span>{t("copy")}</span>
          </button>
        </li>
      </ul>
      <label class="share__url">
        <span>{t("url")}</span>
        <input
          ref={input}
          type="url"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <p class="share__status" role="status">{status}</p>
    </div>
  );
}

import { useEffect, useRef, useState } from "preact/hooks";
import { BrandIcon, Icon } from "@/components/Icon.tsx";

/**
 * Share links for a route page (WhatsApp, Facebook, X), which work without
 * JavaScript, and a copy-link button that uses the Clipboard API and falls
 * back to selecting the link in its field for a manual copy.
 */
export default function ShareButtons(
  { url, text }: { url: string; text: string },
) {
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
      setStatus("¡Enlace copiado!");
    } catch {
      input.current?.focus();
      input.current?.select();
      setStatus("Enlace seleccionado: cópialo con Ctrl+C o mantén pulsado.");
    }
  }

  return (
    <div class="share">
      <ul class="share__list">
        {targets.map((t) => (
          <li key={t.brand}>
            <a
              class={`share__button share__button--${t.brand}`}
              href={t.href}
              target="_blank"
              rel="noopener noreferrer"
            >
              <BrandIcon name={t.brand} />
              <span>
                {t.label}
                <span class="sr-only">(se abre en una ventana nueva)</span>
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
            <span>Copiar enlace</span>
          </button>
        </li>
      </ul>
      <label class="share__url">
        <span>Enlace de tu ruta</span>
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

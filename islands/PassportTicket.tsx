import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { createSessionApi, describeFailure } from "@/client/session_client.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";
import { createShareCode } from "./TicketForm.tsx";

/** Its messages: `ticket`, with the shared `session`. */
export type PassportTicketProps = IslandLanguage & {
  /** The passport's ticket, when it has one. */
  shareCode: string | null;
};

/**
 * "Mi boleto" on the passport: the link to the passport's one ticket and
 * route page, or a short form that creates it linked to the passport
 * (`POST /api/turismo/ticket` with the passport's bearer token and a share
 * code made in the browser). The ticket is made in the page's language, so
 * its route page and share card speak it.
 */
export default function PassportTicket(
  { shareCode: initial, lang, locale, messages }: PassportTicketProps,
) {
  const t = useMemo(() => createTranslate(messages, locale), [
    messages,
    locale,
  ]);
  const api = useMemo(() => createSessionApi({ guest: true, lang }), []);
  const [shareCode, setShareCode] = useState(initial);
  const [busy, setBusy] = useState(false);
  // Rendered disabled on the server: a click before hydration would submit
  // the form natively (the guide code into the address bar).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  // Kept across retries with the request's Idempotency-Key: the API
  // answers a retry with the same ticket.
  const pending = useRef<string | null>(null);
  const requestKey = useRef<string | null>(null);

  // Said once on the passport: what the ticket is, next to the passport.
  const explain = <p class="muted">{t("explain")}</p>;
  if (shareCode) {
    return (
      <>
        {explain}
        <p>
          <a
            class="button"
            href={localizePath(lang, `/ruta/${encodeURIComponent(shareCode)}`)}
          >
            {t("seeTicket")}
          </a>
        </p>
      </>
    );
  }

  async function submit(event: Event) {
    event.preventDefault();
    const data = new FormData(form.current!);
    const name = String(data.get("name") ?? "").trim();
    const email = String(data.get("email") ?? "").trim();
    if (!name || !email) {
      setError(t("nameAndEmailMissing"));
      return;
    }
    pending.current ??= createShareCode();
    requestKey.current ??= crypto.randomUUID();
    setBusy(true);
    try {
      const result = await api.post("/api/turismo/ticket", {
        name,
        email,
        shareCode: pending.current,
        lang,
      }, { headers: { "idempotency-key": requestKey.current } });
      const own = typeof result.body.shareCode === "string"
        ? result.body.shareCode
        : null;
      if (result.status === 200 || (result.status === 409 && own)) {
        // A 409 naming a code: this passport's ticket, made in another tab.
        setShareCode(own ?? pending.current);
      } else {
        if (result.status === 409) pending.current = requestKey.current = null;
        const details = typeof result.body.details === "string"
          ? result.body.details
          : "";
        setError(
          result.status === 400 && details ? details : t("failedShort"),
        );
      }
    } catch (caught) {
      setError(describeFailure(caught, t));
    }
    setBusy(false);
  }

  return (
    <>
      {explain}
      <form class="ticket-form" ref={form} onSubmit={submit} noValidate>
        <div class="field">
          <label for="pasaporte-nombre">{t("name")}</label>
          <input
            id="pasaporte-nombre"
            name="name"
            autoComplete="name"
            maxLength={120}
            required
          />
        </div>
        <div class="field">
          <label for="pasaporte-correo">{t("email")}</label>
          <input
            id="pasaporte-correo"
            name="email"
            type="email"
            autoComplete="email"
            maxLength={254}
            required
          />
        </div>
        {error && <p class="form-error" role="alert">{error}</p>}
        <button
          class="button button--accent"
          type="submit"
          disabled={!ready || busy}
        >
          {busy ? t("submitting") : t("create")}
        </button>
      </form>
    </>
  );
}

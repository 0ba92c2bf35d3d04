import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { createSessionApi } from "@/client/session_client.ts";
import {
  createTranslate,
  type IslandLanguage,
  type Translate,
} from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";

type Field = "name" | "email" | "phone";
type Errors = Partial<Record<Field | "form", string>>;

/** Lower case only (share codes are case-insensitive), without look-alikes (0/o, 1/l/i). */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/**
 * A share code from the browser's CSPRNG: 12 characters of
 * {@linkcode ALPHABET}, about 59 bits. Rejection sampling keeps every
 * character equally likely.
 */
export function createShareCode(length = 12): string {
  const limit = 256 - (256 % ALPHABET.length);
  let code = "";
  while (code.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && code.length < length) {
        code += ALPHABET[byte % ALPHABET.length];
      }
    }
  }
  return code;
}

/** Its messages: `ticket`, with the shared `session`. */
export type TicketFormProps = IslandLanguage & {
  /** The passport's ticket, when it has one: a link to it instead of the form. */
  shareCode?: string | null;
};

/**
 * The one ticket form, on the passport page: creates the visitor's ticket
 * through the JSON API (name, e-mail and an optional phone), linked to
 * their passport (a guest passport when they have none), and takes them to
 * their route page; a passport that has a ticket already is taken to that
 * one, and one the server knows has it gets the link instead of the form.
 * The server renders it with the button disabled (it needs JavaScript; the
 * page says so in a `<noscript>`), and hydration enables it. The ticket is
 * made in the page's language (`lang`), so its route page and share card
 * speak it.
 */
export default function TicketForm(
  { lang, locale, messages, shareCode: existing = null }: TicketFormProps,
) {
  const t = useMemo(() => createTranslate(messages, locale), [
    messages,
    locale,
  ]);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const api = useMemo(() => createSessionApi({ guest: true, lang }), []);
  const form = useRef<HTMLFormElement>(null);
  // One code and one Idempotency-Key per visitor and form: a retry after a
  // network error reuses both, which the API answers with the same ticket.
  const shareCode = useRef<string | null>(null);
  const requestKey = useRef<string | null>(null);

  useEffect(() => setReady(true), []);

  function focusField(field: string) {
    form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    const data = new FormData(form.current!);
    const value = (field: Field) => String(data.get(field) ?? "").trim();
    const missing: Errors = {};
    if (!value("name")) missing.name = t("nameMissing");
    if (!value("email")) missing.email = t("emailMissing");
    setErrors(missing);
    if (Object.keys(missing).length > 0) {
      focusField(Object.keys(missing)[0]);
      return;
    }
    shareCode.current ??= createShareCode();
    requestKey.current ??= crypto.randomUUID();
    setBusy(true);
    try {
      // Linked to the visitor's passport (a guest one when they have none),
      // so the route page shows the visits they register.
      const result = await api.post("/api/turismo/ticket", {
        name: value("name"),
        email: value("email"),
        shareCode: shareCode.current,
        lang,
        ...(value("phone") ? { phone: value("phone") } : {}),
      }, { headers: { "idempotency-key": requestKey.current } });
      const body = result.body;
      const mine = typeof body.shareCode === "string" ? body.shareCode : null;
      if (result.status === 200 || (result.status === 409 && mine)) {
        location.assign(localizePath(
          lang,
          `/ruta/${encodeURIComponent(mine ?? shareCode.current)}`,
        ));
        return;
      }
      if (result.status === 409) shareCode.current = requestKey.current = null;
      const field = typeof body.field === "string" ? body.field : "";
      const message = describeError(result.status, body, t);
      if (field === "name" || field === "email" || field === "phone") {
        setErrors({ [field]: message });
        focusField(field);
      } else {
        setErrors({ form: message });
      }
    } catch {
      setErrors({ form: t("session.offline") });
    }
    setBusy(false);
  }

  if (existing) {
    return (
      <p>
        <a
          class="button"
          href={localizePath(lang, `/ruta/${encodeURIComponent(existing)}`)}
        >
          {t("seeTicket")}
        </a>
      </p>
    );
  }

  return (
    <form
      class="ticket-form"
      ref={form}
      onSubmit={submit}
      noValidate
      aria-describedby={errors.form ? "boleto-error" : undefined}
    >
      <Field id="name" label={t("name")} error={errors.name}>
        <input
          id="boleto-name"
          name="name"
          type="text"
          autoComplete="name"
          maxLength={120}
          required
          {...invalid(errors.name, "name")}
        />
      </Field>
      <Field id="email" label={t("email")} error={errors.email}>
        <input
          id="boleto-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={254}
          required
          {...invalid(errors.email, "email")}
        />
      </Field>
      <Field id="phone" label={t("phone")} error={errors.phone}>
        <input
          id="boleto-phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={32}
          {...invalid(errors.phone, "phone")}
        />
      </Field>
      {errors.form && (
        <p class="form-error" id="boleto-error" role="alert">{errors.form}</p>
      )}
      <button
        class="button button--accent"
        type="submit"
        disabled={!ready || busy}
      >
        {busy ? t("submitting") : t("submit")}
      </button>
      <p class="field__hint privacy-hint">
        {t.rich("privacy", {
          link: (text) => (
            <a href={localizePath(lang, "/aviso-de-privacidad#boleto")}>
              {text}
            </a>
          ),
        })}
      </p>
    </form>
  );
}

/** A labelled field with its error message under it. */
function Field(
  { id, label, error, children }: {
    id: Field;
    label: string;
    error?: string;
    children: ComponentChildren;
  },
) {
  return (
    <div class="field">
      <label for={`boleto-${id}`}>{label}</label>
      {children}
      {error && <p class="field__error" id={`boleto-${id}-error`}>{error}</p>}
    </div>
  );
}

/** The ARIA attributes of a field with an error. */
function invalid(error: string | undefined, id: Field) {
  return error
    ? { "aria-invalid": true, "aria-describedby": `boleto-${id}-error` }
    : {};
}

function describeError(
  status: number,
  body: Record<string, unknown>,
  t: Translate,
): string {
  const details = typeof body.details === "string" ? body.details : "";
  // A 400's details is a whole sentence naming the field, in the language
  // the request asked for (lib/http/validation_messages.ts), shown as it is.
  if (status === 400 && details) return details;
  if (status === 409) return t("codeTaken");
  if (status === 429) return t("tooMany");
  return details || t("failed");
}

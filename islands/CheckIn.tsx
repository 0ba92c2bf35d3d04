import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { VisitRating } from "@/components/VisitRating.tsx";
import { createSessionApi } from "@/client/session_client.ts";
import {
  type CheckInResult,
  normalizeCode,
  sayBadgeName,
  submitCheckIn,
} from "@/client/check_in.ts";
import { forgetLinkedCode, takeLinkedCode } from "@/client/linked_code.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";

/** Its messages: `checkin`, with the shared `session`, `rating` and `badges`. */
export type CheckInProps = IslandLanguage & {
  /** The attraction of the page. */
  slug: string;
  name: string;
  /** Every attraction's name by slug: a code may belong to another one. */
  attractionNames: Record<string, string>;
};

/**
 * "Registrar mi visita" on an attraction's page: the guide code shown at
 * the place, typed (any case, spaces ignored) or filled in from a QR link
 * (`?codigo=...`, one tap to confirm); the answer in place, then the rating
 * and notes for that visit. A visitor without a passport gets a guest
 * passport at the first code: no account, no set-up.
 */
export default function CheckIn(
  { slug, name, attractionNames, lang, locale, messages }: CheckInProps,
) {
  const t = useMemo(() => createTranslate(messages, locale), [
    messages,
    locale,
  ]);
  const api = useMemo(() => createSessionApi({ guest: true, lang }), []);
  const [code, setCode] = useState("");
  const [fromLink, setFromLink] = useState(false);
  const [busy, setBusy] = useState(false);
  // Rendered disabled on the server: a click before hydration would submit
  // the form natively (the guide code into the address bar).
  const [ready, setReady] = useState(false);
  const [outcome, setOutcome] = useState<CheckInResult | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setReady(true);
    // Read in the browser: the page itself is the same for everyone.
    const linked = takeLinkedCode(slug);
    if (linked) {
      setCode(normalizeCode(linked).slice(0, 64));
      setFromLink(true);
    } else if (input.current?.value) {
      // Typed before hydration (a slow phone): the field holds it, the
      // state does not yet, and the next render would clear the field.
      setCode(input.current.value);
    }
  }, []);

  // From a poster's QR code: the confirm button in view, one tap away.
  useEffect(() => {
    if (fromLink) {
      confirm.current?.scrollIntoView({
        block: "center",
        behavior: "instant",
      });
    }
  }, [fromLink]);

  async function submit(event: Event) {
    event.preventDefault();
    const result = await submitCheckIn(api, {
      code,
      t,
      onSending: () => setBusy(true),
    });
    setBusy(false);
    if (result.kind === "ok" || result.kind === "already") {
      forgetLinkedCode(slug);
    }
    if (result.kind === "ok") setFromLink(false);
    setOutcome(result);
    if (result.kind === "error" && result.isEmpty) input.current?.focus();
  }

  const visited = outcome?.kind === "ok" || outcome?.kind === "already"
    ? outcome
    : null;
  const visitedName = visited
    ? attractionNames[visited.slug] ?? visited.slug
    : "";

  return (
    <div class="check-in">
      {!visited && (
        <form class="verify-form" onSubmit={submit} noValidate>
          {fromLink && (
            <p class="check-in__linked">
              {t.rich("linked", { name, strong })}
            </p>
          )}
          <label for="codigo-visita">{t("codeLabel")}</label>
          <p class="field__hint" id="codigo-visita-ayuda">{t("codeHint")}</p>
          <input
            id="codigo-visita"
            name="code"
            ref={input}
            value={code}
            onInput={(event) => setCode(event.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            maxLength={64}
            aria-describedby="codigo-visita-ayuda"
          />
          <button
            ref={confirm}
            class="button button--accent button--block"
            type="submit"
            disabled={!ready || busy}
          >
            {busy ? t("submitting") : t("submit")}
          </button>
          <p class="field__hint privacy-hint">
            {t.rich("privacy", {
              link: (text) => (
                <a href={localizePath(lang, "/aviso-de-privacidad#pasaporte")}>
                  {text}
                </a>
              ),
            })}
          </p>
        </form>
      )}
      <div role="status" aria-live="polite">
        {outcome?.kind === "error" && <p class="form-error">{outcome.text}</p>}
        {outcome?.kind === "ok" && (
          <p class="notice notice--ok">
            {outcome.slug === slug
              ? t("done", { name })
              : t("doneElsewhere", { name: visitedName })}
          </p>
        )}
        {outcome?.kind === "already" && (
          <p class="notice">{t("already", { name: visitedName })}</p>
        )}
        {outcome?.kind === "ok" && outcome.badge && (
          <p class="badge-unlocked celebrate">
            <span class="celebrate__icon" aria-hidden="true">
              {outcome.badge.icon}
            </span>{" "}
            {t.rich("badges.unlocked", {
              badge: sayBadgeName(t, outcome.badge),
              strong,
            })}
          </p>
        )}
      </div>
      {visited && (
        <>
          <VisitRating
            api={api}
            visit={{
              visitId: visited.visitId,
              slug: visited.slug,
              rating: null,
              notes: null,
            }}
            key={visited.visitId}
            t={t}
          />
          <p>
            <a
              class="button button--ghost"
              href={localizePath(lang, "/mi-pasaporte")}
            >
              {t("seePassport")}
            </a>
          </p>
        </>
      )}
    </div>
  );
}

/** A message's `<strong>` part. */
function strong(text: ComponentChildren[]) {
  return <strong>{text}</strong>;
}

import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { VisitRating } from "@/components/VisitRating.tsx";
import { sayBadgeName, submitCheckIn } from "@/client/check_in.ts";
import { createSessionApi } from "@/client/session_client.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";

/** A visit as the passport shows it; dates are already worded by the server. */
export interface PassportVisit {
  visitId: string;
  slug: string;
  name: string;
  visitedLabel: string;
  rating: number | null;
  notes: string | null;
}

export interface PassportBadge {
  id: string;
  name: string;
  icon: string;
  unlockedLabel: string;
}

/** Its messages: `passport`, with the shared `session`, `rating` and `badges`. */
export type PassportProps = IslandLanguage & {
  /** Attraction names by slug, to name a visit the API reports by slug. */
  attractionNames: Record<string, string>;
  /** The municipality's time zone, to word dates of new visits. */
  timeZone: string;
  visits: PassportVisit[];
  badges: PassportBadge[];
  totalAttractions: number;
};

type Notice = { kind: "ok" | "error"; text: string; badge?: PassportBadge };

/**
 * The tourist's passport, signed in or a guest's: type an attraction's
 * guide code to verify a visit (and see a badge it unlocks), progress,
 * badges, and each visit with its rating. Talks to the API with the
 * passport's bearer token; a visitor without one gets a guest passport at
 * the first code.
 */
export default function Passport(props: PassportProps) {
  const { lang, locale } = props;
  const t = useMemo(
    () => createTranslate(props.messages, locale),
    [props.messages, locale],
  );
  const api = useMemo(() => createSessionApi({ guest: true, lang }), []);
  const [visits, setVisits] = useState(props.visits);
  const [badges, setBadges] = useState(props.badges);
  const [busy, setBusy] = useState(false);
  // Rendered disabled on the server: a click before hydration would submit
  // the form natively (the guide code into the address bar).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const [notice, setNotice] = useState<Notice | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const total = props.totalAttractions;
  const percent = total > 0
    ? Math.min(100, Math.floor((visits.length / total) * 100))
    : 0;

  async function verify(event: Event) {
    event.preventDefault();
    const result = await submitCheckIn(api, {
      code: input.current?.value ?? "",
      t,
      onSending: () => setBusy(true),
    });
    setBusy(false);
    if (result.kind !== "ok") {
      setNotice({ kind: "error", text: result.text });
      if (result.kind === "error" && result.isEmpty) input.current?.focus();
      return;
    }
    const when = formatNow(props.timeZone, locale);
    const name = props.attractionNames[result.slug] ?? result.slug;
    setVisits((list) => [...list, {
      visitId: result.visitId,
      slug: result.slug,
      name,
      visitedLabel: when,
      rating: null,
      notes: null,
    }]);
    const badge = result.badge
      ? { ...result.badge, unlockedLabel: when }
      : undefined;
    if (badge) setBadges((list) => [...list, badge]);
    setNotice({ kind: "ok", text: t("registered", { name }), badge });
    if (input.current) input.current.value = "";
  }

  return (
    <div class="passport">
      <section class="passport__verify" aria-labelledby="verificar-titulo">
        <h2 id="verificar-titulo">{t("verifyTitle")}</h2>
        <form class="verify-form" onSubmit={verify} noValidate>
          <label for="codigo-guia">{t("codeLabel")}</label>
          <p class="field__hint" id="codigo-guia-ayuda">{t("codeHint")}</p>
          <input
            id="codigo-guia"
            name="code"
            ref={input}
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            maxLength={64}
            aria-describedby="codigo-guia-ayuda"
          />
          <button class="button" type="submit" disabled={!ready || busy}>
            {busy ? t("verifying") : t("verify")}
          </button>
        </form>
        <div role="status" aria-live="polite" class="verify-result">
          {notice && (
            <p
              class={notice.kind === "ok" ? "notice notice--ok" : "form-error"}
            >
              {notice.text}
            </p>
          )}
          {notice?.badge && (
            <p class="badge-unlocked">
              <span aria-hidden="true">{notice.badge.icon}</span>{" "}
              {t.rich("badges.unlocked", {
                badge: sayBadgeName(t, notice.badge),
                strong,
              })}
            </p>
          )}
        </div>
      </section>

      <section aria-labelledby="progreso-titulo">
        <h2 id="progreso-titulo">{t("progressTitle")}</h2>
        <p>
          {t.rich("progress", {
            visited: visits.length,
            total,
            percent,
            strong,
          })}
        </p>
        <progress max={100} value={percent} aria-labelledby="progreso-titulo" />
      </section>

      <section aria-labelledby="insignias-titulo">
        <h2 id="insignias-titulo">{t("badgesTitle")}</h2>
        {badges.length === 0 ? <p>{t("noBadges")}</p> : (
          <ul class="badge-list">
            {badges.map((badge) => (
              <li key={badge.id}>
                <span aria-hidden="true">{badge.icon}</span>{" "}
                {sayBadgeName(t, badge)}{" "}
                <span class="muted">({badge.unlockedLabel})</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="visitas-titulo">
        <h2 id="visitas-titulo">{t("visitsTitle")}</h2>
        {visits.length === 0 ? <p>{t("noVisits")}</p> : (
          <ol class="visit-list">
            {visits.map((visit) => (
              <li key={visit.visitId}>
                <h3>
                  <a
                    href={localizePath(
                      lang,
                      `/turismo/atractivos/${visit.slug}`,
                    )}
                  >
                    {visit.name}
                  </a>
                </h3>
                <p class="muted">
                  {t("visitedOn", { date: visit.visitedLabel })}
                </p>
                <VisitRating api={api} visit={visit} t={t} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** A message's `<strong>` part. */
function strong(text: ComponentChildren[]) {
  return <strong>{text}</strong>;
}

/** Today as the page words a visit's day, in the page's locale. */
function formatNow(timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone,
  }).format(new Date());
}

import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { VisitRating } from "@/components/VisitRating.tsx";
import {
  createSessionApi,
  describeVerifyError,
  OFFLINE_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
  SessionExpiredError,
} from "@/client/session_client.ts";

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

export type PassportProps = {
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
  const api = useMemo(() => createSessionApi({ guest: true }), []);
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
    const code = input.current?.value.trim() ?? "";
    if (!code) {
      setNotice({ kind: "error", text: "Escribe el código del atractivo." });
      input.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const result = await api.post(
        "/api/turismo/verify-visit",
        (userId) => ({ code, userId }),
      );
      const body = result.body as Record<string, never>;
      if (result.status !== 200) {
        setNotice({ kind: "error", text: describeVerifyError(result) });
      } else {
        const when = formatNow(props.timeZone);
        const slug = String(body.atractivo);
        const name = props.attractionNames[slug] ?? slug;
        setVisits((list) => [...list, {
          visitId: String(body.visitId),
          slug,
          name,
          visitedLabel: when,
          rating: null,
          notes: null,
        }]);
        const badge = body.badge
          ? { ...(body.badge as PassportBadge), unlockedLabel: when }
          : undefined;
        if (badge) setBadges((list) => [...list, badge]);
        setNotice({ kind: "ok", text: `¡Visita registrada: ${name}!`, badge });
        if (input.current) input.current.value = "";
      }
    } catch (error) {
      setNotice({
        kind: "error",
        text: error instanceof SessionExpiredError
          ? SESSION_EXPIRED_MESSAGE
          : OFFLINE_MESSAGE,
      });
    }
    setBusy(false);
  }

  return (
    <div class="passport">
      <section class="passport__verify" aria-labelledby="verificar-titulo">
        <h2 id="verificar-titulo">Registrar una visita</h2>
        <form class="verify-form" onSubmit={verify} noValidate>
          <label for="codigo-guia">Código del atractivo</label>
          <p class="field__hint" id="codigo-guia-ayuda">
            Lo encuentras en la placa del atractivo o te lo da tu guía.
          </p>
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
            {busy ? "Verificando…" : "Verificar visita"}
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
              ¡Desbloqueaste la insignia <strong>{notice.badge.name}</strong>!
            </p>
          )}
        </div>
      </section>

      <section aria-labelledby="progreso-titulo">
        <h2 id="progreso-titulo">Tu progreso</h2>
        <p>
          Visitaste <strong>{visits.length}</strong> de {total}{" "}
          atractivos ({percent} %).
        </p>
        <progress max={100} value={percent} aria-labelledby="progreso-titulo" />
      </section>

      <section aria-labelledby="insignias-titulo">
        <h2 id="insignias-titulo">Insignias</h2>
        {badges.length === 0
          ? <p>Con 5 visitas verificadas obtienes tu primera insignia.</p>
          : (
            <ul class="badge-list">
              {badges.map((badge) => (
                <li key={badge.id}>
                  <span aria-hidden="true">{badge.icon}</span> {badge.name}{" "}
                  <span class="muted">({badge.unlockedLabel})</span>
                </li>
              ))}
            </ul>
          )}
      </section>

      <section aria-labelledby="visitas-titulo">
        <h2 id="visitas-titulo">Mis visitas</h2>
        {visits.length === 0
          ? (
            <p>
              Aún no registras visitas. Escribe arriba el código de un atractivo
              para empezar.
            </p>
          )
          : (
            <ol class="visit-list">
              {visits.map((visit) => (
                <li key={visit.visitId}>
                  <h3>
                    <a href={`/turismo/atractivos/${visit.slug}`}>
                      {visit.name}
                    </a>
                  </h3>
                  <p class="muted">Visitado el {visit.visitedLabel}</p>
                  <VisitRating api={api} visit={visit} />
                </li>
              ))}
            </ol>
          )}
      </section>
    </div>
  );
}

function formatNow(timeZone: string): string {
  return new Intl.DateTimeFormat("es-MX", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone,
  }).format(new Date());
}

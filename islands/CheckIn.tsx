import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { VisitRating } from "@/components/VisitRating.tsx";
import {
  createSessionApi,
  describeVerifyError,
  OFFLINE_MESSAGE,
} from "@/client/session_client.ts";

export type CheckInProps = {
  /** The attraction of the page. */
  slug: string;
  name: string;
  /** Every attraction's name by slug: a code may belong to another one. */
  attractionNames: Record<string, string>;
};

/** A badge as the API reports it. */
type Badge = { id: string; name: string; icon: string };

/** What the tourist sees after sending a code. */
type Outcome =
  | { kind: "ok"; visitId: string; slug: string; badge: Badge | null }
  | { kind: "already"; visitId: string; slug: string }
  | { kind: "error"; text: string };

/** Guide codes are letters and digits; case and spaces do not matter. */
function normalizeCode(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase();
}

/**
 * "Registrar mi visita" on an attraction's page: the guide code shown at
 * the place, typed (any case, spaces ignored) or filled in from a QR link
 * (`?codigo=...`, one tap to confirm); the answer in place, then the rating
 * and notes for that visit. A visitor without a passport gets a guest
 * passport at the first code: no account, no set-up.
 */
export default function CheckIn(
  { slug, name, attractionNames }: CheckInProps,
) {
  const api = useMemo(() => createSessionApi({ guest: true }), []);
  const [code, setCode] = useState("");
  const [fromLink, setFromLink] = useState(false);
  const [busy, setBusy] = useState(false);
  // Rendered disabled on the server: a click before hydration would submit
  // the form natively (the guide code into the address bar).
  const [ready, setReady] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setReady(true);
    // Read in the browser: the page itself is the same for everyone.
    const linked = new URLSearchParams(location.search).get("codigo");
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
    const typed = normalizeCode(code);
    if (!typed) {
      setOutcome({ kind: "error", text: "Escribe el código del atractivo." });
      input.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const result = await api.post(
        "/api/turismo/verify-visit",
        (userId) => ({ code: typed, userId }),
      );
      const body = result.body;
      if (result.status === 200) {
        setOutcome({
          kind: "ok",
          visitId: String(body.visitId),
          slug: String(body.atractivo),
          badge: (body.badge as Badge | null) ?? null,
        });
        setFromLink(false);
      } else if (result.status === 409 && typeof body.visitId === "string") {
        setOutcome({
          kind: "already",
          visitId: body.visitId,
          slug: String(body.atractivo),
        });
      } else {
        setOutcome({ kind: "error", text: describeVerifyError(result) });
      }
    } catch {
      setOutcome({ kind: "error", text: OFFLINE_MESSAGE });
    }
    setBusy(false);
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
              Tienes el código de <strong>{name}</strong>. Confirma tu visita:
            </p>
          )}
          <label for="codigo-visita">Código del atractivo</label>
          <p class="field__hint" id="codigo-visita-ayuda">
            Está en el cartel del lugar. Mayúsculas, minúsculas y espacios dan
            igual.
          </p>
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
            {busy ? "Registrando…" : "Registrar mi visita"}
          </button>
          <p class="field__hint privacy-hint">
            Si aún no tienes pasaporte, tu primer código abre uno de invitado y
            guarda una cookie en este navegador para reconocerlo. Más detalles
            en el{" "}
            <a href="/aviso-de-privacidad#pasaporte">aviso de privacidad</a>.
          </p>
        </form>
      )}
      <div role="status" aria-live="polite">
        {outcome?.kind === "error" && <p class="form-error">{outcome.text}</p>}
        {outcome?.kind === "ok" && (
          <p class="notice notice--ok">
            {outcome.slug === slug
              ? `¡Listo! Registramos tu visita a ${name}.`
              : `Ese código es de ${visitedName}: registramos tu visita allí.`}
          </p>
        )}
        {outcome?.kind === "already" && (
          <p class="notice">
            Ya registraste tu visita a {visitedName}. Puedes calificarla aquí.
          </p>
        )}
        {outcome?.kind === "ok" && outcome.badge && (
          <p class="badge-unlocked celebrate">
            <span class="celebrate__icon" aria-hidden="true">
              {outcome.badge.icon}
            </span>{" "}
            ¡Desbloqueaste la insignia <strong>{outcome.badge.name}</strong>!
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
          />
          <p>
            <a class="button button--ghost" href="/mi-pasaporte">
              Ver mi pasaporte
            </a>
          </p>
        </>
      )}
    </div>
  );
}

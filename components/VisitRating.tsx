import { useEffect, useState } from "preact/hooks";
import {
  type ApiResult,
  describeRateError,
  type JsonBody,
  OFFLINE_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
  SessionExpiredError,
} from "@/client/session_client.ts";

/** The part of the session API the rating form uses. */
interface Api {
  post(
    path: string,
    body: JsonBody | ((userId: string) => JsonBody),
  ): Promise<ApiResult>;
}

const STARS = [1, 2, 3, 4, 5] as const;

/**
 * A visit's rating (1 to 5 stars, as radio buttons) and notes, saved with
 * `POST /api/turismo/rate-visit` for the passport's user. Used inside the
 * Passport and CheckIn islands.
 */
export function VisitRating(
  { api, visit }: {
    api: Api;
    visit: {
      visitId: string;
      slug: string;
      rating: number | null;
      notes: string | null;
    };
  },
) {
  const [rating, setRating] = useState<number | null>(visit.rating);
  const [notes, setNotes] = useState(visit.notes ?? "");
  const [busy, setBusy] = useState(false);
  // Rendered disabled on the server: a click before hydration would submit
  // the form natively (the guide code into the address bar).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(
    null,
  );
  const id = `calificacion-${visit.visitId}`;

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const result = await api.post("/api/turismo/rate-visit", (userId) => ({
        userId,
        atractivoSlug: visit.slug,
        rating,
        notes,
      }));
      if (result.status === 200) {
        const saved = result.body;
        setRating(typeof saved.rating === "number" ? saved.rating : null);
        setNotes(typeof saved.notes === "string" ? saved.notes : "");
        setMessage({ ok: true, text: "Guardamos tu calificación." });
      } else {
        setMessage({ ok: false, text: describeRateError(result) });
      }
    } catch (error) {
      setMessage({
        ok: false,
        text: error instanceof SessionExpiredError
          ? SESSION_EXPIRED_MESSAGE
          : OFFLINE_MESSAGE,
      });
    }
    setBusy(false);
  }

  return (
    <form class="rating-form" onSubmit={save}>
      <fieldset class="stars">
        <legend>Tu calificación</legend>
        {STARS.map((value) => (
          <label key={value} class="stars__star">
            <input
              type="radio"
              name={id}
              value={value}
              checked={rating === value}
              onChange={() => setRating(value)}
            />
            <span aria-hidden="true">
              {rating !== null && value <= rating ? "★" : "☆"}
            </span>
            <span class="sr-only">
              {value === 1 ? "1 estrella" : `${value} estrellas`}
            </span>
          </label>
        ))}
      </fieldset>
      <label for={`${id}-notas`}>Notas (opcional)</label>
      <textarea
        id={`${id}-notas`}
        name="notes"
        maxLength={1000}
        rows={2}
        value={notes}
        onInput={(event) => setNotes(event.currentTarget.value)}
      />
      <button
        class="button button--ghost"
        type="submit"
        disabled={!ready || busy}
      >
        {busy ? "Guardando…" : "Guardar calificación"}
      </button>
      <p
        role="status"
        class={message
          ? (message.ok ? "notice notice--ok" : "form-error")
          : undefined}
      >
        {message?.text}
      </p>
    </form>
  );
}

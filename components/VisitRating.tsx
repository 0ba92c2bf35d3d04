import { useEffect, useState } from "preact/hooks";
import {
  type ApiResult,
  describeFailure,
  describeRateError,
  type JsonBody,
} from "@/client/session_client.ts";
import type { Translate } from "@/client/messages.ts";

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
 * Passport and CheckIn islands, whose messages include the `rating` namespace.
 */
export function VisitRating(
  { api, visit, t, onSaved }: {
    api: Api;
    t: Translate;
    /** Called with what the server saved (the device keeps its copy). */
    onSaved?: (saved: { rating: number | null; notes: string | null }) => void;
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
        const saved = {
          rating: typeof result.body.rating === "number"
            ? result.body.rating
            : null,
          notes: typeof result.body.notes === "string"
            ? result.body.notes
            : null,
        };
        setRating(saved.rating);
        setNotes(saved.notes ?? "");
        onSaved?.(saved);
        setMessage({ ok: true, text: t("rating.saved") });
      } else {
        setMessage({ ok: false, text: describeRateError(result, t) });
      }
    } catch (error) {
      setMessage({ ok: false, text: describeFailure(error, t) });
    }
    setBusy(false);
  }

  return (
    <form class="rating-form" onSubmit={save}>
      <fieldset class="stars">
        <legend>{t("rating.legend")}</legend>
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
              {t("rating.stars", { count: value })}
            </span>
          </label>
        ))}
      </fieldset>
      <label for={`${id}-notas`}>{t("rating.notes")}</label>
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
        {busy ? t("rating.saving") : t("rating.save")}
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

import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { VisitRating } from "@/components/VisitRating.tsx";
import {
  acceptsCode,
  acceptsPosition,
  type CheckInMethod,
} from "@/lib/check_in/names.ts";
import { createSessionApi } from "@/client/session_client.ts";
import { CheckInReportView } from "@/components/CheckInReport.tsx";
import {
  type AttractionLink,
  describeQueuedCheckIn,
  findLatestCheckIn,
  findPageStamp,
  normalizeCode,
} from "@/client/check_in.ts";
import type { CheckInDraft, QueuedCheckIn } from "@/client/check_in_queue.ts";
import { saveDeviceStamps } from "@/client/device_passport.ts";
import { submitCheckIn, useCheckInQueue } from "@/client/use_check_in_queue.ts";
import { forgetLinkedCode, takeLinkedCode } from "@/client/linked_code.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";
import {
  getPrecisePosition,
  type LocateFailure,
} from "@/client/use_geolocation.ts";

/** Its messages: `checkin`, with the shared `session`, `rating` and `badges`. */
export type CheckInProps = IslandLanguage & {
  /** The attraction of the page. */
  slug: string;
  name: string;
  /** The method in force when the page was made (the server decides anyway). */
  method: CheckInMethod;
  /** Every attraction's name and page by slug: a code may belong to another one. */
  attractions: Record<string, AttractionLink>;
};

const LOCATE_MESSAGES: Record<LocateFailure, string> = {
  denied: "locateDenied",
  unavailable: "locateUnavailable",
  timeout: "locateTimeout",
  unsupported: "locateUnsupported",
};

/**
 * "Registrar mi visita" on an attraction's page: the guide code of the
 * sign (typed, or from a poster's QR link), or "Estoy aquí" (the phone's
 * position) where the attraction takes it. Every check-in goes through the
 * device's queue: shown at once as a pending stamp when there is no signal,
 * sent when it returns (here, by another page or by the service worker),
 * then verified or refused with the reason. The page is the same for
 * everyone (cached): the stamp and rating are read in the browser.
 */
export default function CheckIn(
  { slug, name, method, attractions, lang, locale, messages }: CheckInProps,
) {
  const t = useMemo(() => createTranslate(messages, locale), [
    messages,
    locale,
  ]);
  const api = useMemo(() => createSessionApi({ guest: true, lang }), []);
  const [code, setCode] = useState("");
  const [fromLink, setFromLink] = useState(false);
  const [busy, setBusy] = useState<"code" | "gps" | null>(null);
  // Rendered disabled on the server: a click before hydration would submit
  // the form natively (the guide code into the address bar).
  const [ready, setReady] = useState(false);
  const { queue, stamps, refresh, sync } = useCheckInQueue(lang);
  const [currentId, setCurrentId] = useState<string | null>(null);
  // Sent without the queue (a browser that keeps none): its answer.
  const [sentNow, setSentNow] = useState<QueuedCheckIn | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The server said this place now takes the other kind (an admin switched it).
  const [override, setOverride] = useState<CheckInMethod | null>(null);
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
      confirm.current?.scrollIntoView({ block: "center", behavior: "instant" });
    }
  }, [fromLink]);

  /** Sends the check-in as both forms do (`submitCheckIn`), then says what came of it. */
  async function checkIn(kind: "code" | "gps", what: CheckInDraft) {
    setBusy(kind);
    const sent = await submitCheckIn(what, { lang, refresh, sync });
    setBusy(null);
    if (sent.kind === "failed") {
      setProblem(t(sent.problem));
      return;
    }
    // A browser that keeps no queue has only the answer.
    if (sent.kind === "sent") setSentNow(sent.item);
    setCurrentId(sent.item.checkInId);
    if (kind === "code") forgetLinkedCode(slug);
    setFromLink(false);
    settled(sent.item);
  }

  /** After an answer: the field cleared on a stamp; the other way offered if this one is refused. */
  function settled(mine: QueuedCheckIn | undefined) {
    if (mine?.visitId) setCode("");
    // A code of another place refused by that place's rule says nothing of this one's.
    const here = !mine?.refusal?.atractivo || mine.refusal.atractivo === slug;
    if (here && mine?.refusal?.reason === "code_not_accepted") {
      setOverride("gps");
    }
    if (mine?.refusal?.reason === "position_not_accepted") {
      setOverride("code");
    }
  }

  function submit(event: Event) {
    event.preventDefault();
    setProblem(null);
    const typed = normalizeCode(code);
    if (!typed) {
      setProblem(t("session.emptyCode"));
      input.current?.focus();
      return;
    }
    void checkIn("code", { slug, code: typed });
  }

  async function locate() {
    setProblem(null);
    setBusy("gps");
    try {
      const position = await getPrecisePosition();
      await checkIn("gps", { slug, position });
    } catch (failure) {
      setBusy(null);
      setProblem(
        t(LOCATE_MESSAGES[failure as LocateFailure] ?? "locateUnavailable"),
      );
    }
  }

  const rule = override ?? method;
  const stamp = findPageStamp(slug, stamps);
  const latest = findLatestCheckIn(
    slug,
    sentNow ? [...queue, sentNow] : queue,
    { currentId, now: new Date() },
  );
  const report = latest && describeQueuedCheckIn(latest, { t, locale, name });
  const recordedHere = report?.kind === "pending" ||
    ((report?.kind === "ok" || report?.kind === "already") &&
      report.slug === slug);
  const showForm = busy !== null || !stamp;
  // This page's stamp, from the device's passport, or just now from the
  // server's answer (a browser that keeps no passport has only that).
  const visitToRate = stamp?.status === "verified" && stamp.visitId
    ? {
      visitId: stamp.visitId,
      rating: stamp.rating,
      notes: stamp.notes,
      at: stamp.at,
    }
    : (report?.kind === "ok" || report?.kind === "already") &&
        report.slug === slug && report.visitId
    ? {
      visitId: report.visitId,
      rating: null,
      notes: null,
      at: latest?.resolvedAt ?? new Date().toISOString(),
    }
    : null;

  return (
    <div class="check-in">
      {stamp && !recordedHere && (
        <p class={`stamp stamp--${stamp.status}`}>
          {stamp.status === "verified"
            ? t("stampVerified", { name, at: new Date(stamp.at) })
            : t("stampPending", { name })}
        </p>
      )}
      {showForm && acceptsPosition(rule) && (
        <div class="check-in__locate">
          <button
            class="button button--accent button--block"
            type="button"
            onClick={locate}
            disabled={!ready || busy !== null}
            aria-describedby="ubicacion-ayuda"
          >
            {busy === "gps" ? t("locating") : t("locate")}
          </button>
          <p class="field__hint" id="ubicacion-ayuda">
            {t("locateHint", { name })}
          </p>
        </div>
      )}
      {showForm && acceptsCode(rule) && (
        <form class="verify-form" onSubmit={submit} noValidate>
          {fromLink && (
            <p class="check-in__linked">
              {t.rich("linked", { name, strong })}
            </p>
          )}
          {acceptsPosition(rule) && <p class="check-in__or">{t("orCode")}</p>}
          <label for="codigo-visita">{t("codeLabel")}</label>
          <p class="field__hint" id="codigo-visita-ayuda">{t("codeHint")}</p>
          <input
            id="codigo-visita"
            name="code"
            ref={input}
            value={code}
            onInput={(event) =>
              setCode(event.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            maxLength={64}
            aria-describedby="codigo-visita-ayuda"
          />
          <button
            ref={confirm}
            class={`button button--block ${
              acceptsPosition(rule) ? "" : "button--accent"
            }`}
            type="submit"
            disabled={!ready || busy !== null}
          >
            {busy === "code" ? t("submitting") : t("submit")}
          </button>
        </form>
      )}
      {showForm && (
        <p class="field__hint privacy-hint">
          {t.rich("privacy", {
            link: (text) => (
              <a href={localizePath(lang, "/aviso-de-privacidad#pasaporte")}>
                {text}
              </a>
            ),
          })}
        </p>
      )}
      <div role="status" aria-live="polite">
        {problem && <p class="form-error">{problem}</p>}
        {report && !problem && !busy && (
          <CheckInReportView
            report={report}
            slug={slug}
            name={name}
            attractions={attractions}
            t={t}
          />
        )}
      </div>
      {visitToRate && (
        <VisitRating
          api={api}
          visit={{ ...visitToRate, slug }}
          key={visitToRate.visitId}
          t={t}
          onSaved={({ rating, notes }) =>
            saveDeviceStamps([{
              slug,
              status: "verified",
              visitId: visitToRate.visitId,
              rating,
              notes,
              at: visitToRate.at,
            }], { replace: false })}
        />
      )}
      {(stamp || report?.kind === "ok" || report?.kind === "already") && (
        <p>
          <a
            class="button button--ghost"
            href={localizePath(lang, "/mi-pasaporte")}
          >
            {t("seePassport")}
          </a>
        </p>
      )}
    </div>
  );
}

/** A message's `<strong>` part. */
function strong(text: ComponentChildren[]) {
  return <strong>{text}</strong>;
}

import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Translate } from "@/client/messages.ts";
import { createSessionApi } from "@/client/session_client.ts";
import {
  type PassportClaim,
  type PassportPrize,
  readCachedPrizes,
  saveCachedPrizes,
} from "@/client/prizes.ts";
import {
  COUNTER_CODE_STEP_MS,
  counterCode,
} from "@/lib/prizes/counter_code.ts";

/** The open claim a screen shows: its prize and the claim. */
interface Showing {
  prizeId: string;
  claimId: string;
}

/**
 * The passport's prizes: unlocked ones with where to claim them, locked
 * ones with how far, claimed and redeemed ones; and the counter's
 * redemption screen, computed on the device from the cached claim.
 */
export function PassportPrizes(
  { t, lang, locale, timeZone, rendered, renderedAt, hasPassport, stamps }: {
    t: Translate;
    lang: string;
    locale: string;
    timeZone: string;
    /** The list the server rendered with the page, if it had a passport. */
    rendered: PassportPrize[] | null;
    /** When the server rendered it (ISO 8601). */
    renderedAt?: string;
    /** Whether the visitor has a passport to ask the API about. */
    hasPassport: boolean;
    /** The passport's verified stamps: a new one may unlock a prize. */
    stamps: number;
  },
) {
  // No guest passport opened for a look: a visitor without one has no prizes.
  const api = useMemo(() => createSessionApi({ lang }), []);
  const [prizes, setPrizes] = useState<PassportPrize[] | null>(rendered);
  const [showing, setShowing] = useState<Showing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function refresh() {
    // No passport, nothing to ask; no signal, the cached list stays.
    if (!hasPassportNow.current || !navigator.onLine) return;
    try {
      const result = await api.get("/api/turismo/prizes");
      if (result.status !== 200) return;
      const list = (result.body as { prizes: PassportPrize[] }).prizes;
      saveCachedPrizes(lang, list);
      setPrizes(list);
    } catch {
      // Offline: the cached list stays.
    }
  }

  // Read by refresh(), which the "online" listener keeps from the first render.
  const hasPassportNow = useRef(hasPassport);
  hasPassportNow.current = hasPassport;

  useEffect(() => {
    // The newer of the page's list and the device's: a page the service
    // worker kept may be older than a claim made since.
    const cached = readCachedPrizes(lang);
    const renderedMs = renderedAt ? Date.parse(renderedAt) : 0;
    if (rendered !== null && (cached === null || cached.savedAt < renderedMs)) {
      saveCachedPrizes(lang, rendered, renderedMs);
      setPrizes(rendered);
    } else setPrizes(cached?.prizes ?? []);
    addEventListener("online", refresh);
    return () => removeEventListener("online", refresh);
  }, []);

  // After a code typed here (not at load: the page brought the list), a
  // new stamp may unlock a prize.
  const seenStamps = useRef(stamps);
  useEffect(() => {
    if (seenStamps.current === stamps) return;
    seenStamps.current = stamps;
    refresh();
  }, [stamps]);

  // At the counter: the partner's confirmation shows within seconds.
  useEffect(() => {
    if (showing === null) return;
    const timer = setInterval(() => {
      if (navigator.onLine) refresh();
    }, 5_000);
    return () => clearInterval(timer);
  }, [showing]);

  async function claim(prize: PassportPrize) {
    setBusy(prize.prizeId);
    setError(null);
    try {
      const result = await api.post(
        `/api/turismo/prizes/${encodeURIComponent(prize.prizeId)}/claim`,
        {},
      );
      if (result.status === 200 || result.status === 201) {
        const got = (result.body as { claim: PassportClaim }).claim;
        const list = (prizes ?? []).map((each) =>
          each.prizeId === prize.prizeId &&
            !each.claims.some((c) => c.claimId === got.claimId)
            ? { ...each, claims: [...each.claims, got] }
            : each
        );
        saveCachedPrizes(lang, list);
        setPrizes(list);
        setShowing({ prizeId: prize.prizeId, claimId: got.claimId });
      } else {
        const body = result.body as { error?: string; details?: string };
        setError(body.details ?? body.error ?? t("prizes.failed"));
      }
    } catch {
      setError(t("prizes.offline"));
    } finally {
      setBusy(null);
    }
  }

  if (prizes === null || prizes.length === 0) return null;
  const shownPrize = showing &&
    prizes.find((prize) => prize.prizeId === showing.prizeId);
  const shownClaim = shownPrize &&
    shownPrize.claims.find((claim) => claim.claimId === showing.claimId);
  if (shownPrize && shownClaim) {
    return (
      <RedemptionScreen
        prize={shownPrize}
        claim={shownClaim}
        t={t}
        locale={locale}
        timeZone={timeZone}
        onClose={() => {
          setShowing(null);
          refresh();
        }}
      />
    );
  }

  const sayWhen = (iso: string) =>
    t("prizes.redeemedAt", {
      day: new Intl.DateTimeFormat(locale, {
        day: "numeric",
        month: "long",
        timeZone,
      }).format(new Date(iso)),
      time: new Intl.DateTimeFormat(locale, {
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZone,
      }).format(new Date(iso)),
    });

  return (
    <section class="passport-prizes" aria-labelledby="premios-titulo">
      <h2 id="premios-titulo">{t("prizes.title")}</h2>
      {error && <p class="form-error" role="alert">{error}</p>}
      <ul class="prize-list">
        {prizes.map((prize) => {
          const open = prize.claims.find((c) => c.redeemedAt === null);
          const redeemed = prize.claims.filter((c) => c.redeemedAt !== null);
          const { have, need, unlocked } = prize.progress;
          return (
            <li
              key={prize.prizeId}
              class={unlocked ? "prize prize--unlocked" : "prize prize--locked"}
              data-prize={prize.prizeId}
            >
              <h3>{prize.name}</h3>
              <p>{prize.description}</p>
              <p class="prize__partner">
                <strong>{prize.partner.name}</strong>
                {prize.partner.address && <>{" · "}{prize.partner.address}</>}
              </p>
              {prize.partner.hours && (
                <p class="prize__hours">
                  {t("prizes.hours", { hours: prize.partner.hours })}
                </p>
              )}
              {prize.partner.mapUrl && (
                <p>
                  <a href={prize.partner.mapUrl} rel="noopener">
                    {t("prizes.map")}
                  </a>
                </p>
              )}
              {redeemed.map((c) => (
                <p key={c.claimId} class="prize__redeemed">
                  {sayWhen(c.redeemedAt!)}
                </p>
              ))}
              {!unlocked && (
                <p class="prize__progress">
                  {t("prizes.missing", { count: need - have })}
                  <progress max={need} value={have} />
                </p>
              )}
              {open && (
                <button
                  type="button"
                  class="button"
                  onClick={() =>
                    setShowing({
                      prizeId: prize.prizeId,
                      claimId: open.claimId,
                    })}
                >
                  {t("prizes.show")}
                </button>
              )}
              {!open && unlocked && prize.claimsLeft > 0 &&
                prize.refusal === null && (
                <button
                  type="button"
                  class="button"
                  disabled={busy !== null}
                  onClick={() => claim(prize)}
                >
                  {t("prizes.claim")}
                </button>
              )}
              {!open && unlocked && prize.refusal !== null && (
                <p class="prize__refusal">
                  {t(`prizes.refusal.${prize.refusal}`)}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The counter's screen: the prize, the business, the reference and the digits of the moment, recomputed each step from the cached secret. */
function RedemptionScreen(
  { prize, claim, t, locale, timeZone, onClose }: {
    prize: PassportPrize;
    claim: PassportClaim;
    t: Translate;
    locale: string;
    timeZone: string;
    onClose: () => void;
  },
) {
  const [now, setNow] = useState(Date.now());
  const [digits, setDigits] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    // A modal over the whole passport: the counter sees this screen only.
    if (!dialog.current?.open) dialog.current?.showModal();
    return () => clearInterval(timer);
  }, []);
  const step = Math.floor(now / COUNTER_CODE_STEP_MS);
  useEffect(() => {
    let live = true;
    counterCode(claim, now).then((code) => live && setDigits(code.digits));
    return () => {
      live = false;
    };
  }, [claim.secret, step]);
  const left = COUNTER_CODE_STEP_MS - (now % COUNTER_CODE_STEP_MS);
  const clock = new Intl.DateTimeFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone,
  }).format(new Date(now));
  return (
    <dialog
      ref={dialog}
      class="redemption"
      aria-labelledby="canje-titulo"
      onClose={onClose}
    >
      <h2 id="canje-titulo">{prize.name}</h2>
      <p class="redemption__partner">{prize.partner.name}</p>
      {claim.redeemedAt !== null
        ? <p class="notice notice--ok">{t("prizes.alreadyRedeemed")}</p>
        : (
          <>
            <p class="redemption__hint">{t("prizes.showAtCounter")}</p>
            <p class="redemption__code" aria-label={t("prizes.codeLabel")}>
              <span class="redemption__reference" data-reference>
                {claim.reference}
              </span>{" "}
              <span class="redemption__digits" data-digits>
                {digits ?? "····"}
              </span>
            </p>
            <progress
              class="redemption__step"
              max={COUNTER_CODE_STEP_MS}
              value={left}
              aria-label={t("prizes.changesIn", {
                seconds: Math.ceil(left / 1000),
              })}
            />
            <p class="redemption__changes">
              {t("prizes.changesIn", { seconds: Math.ceil(left / 1000) })}
            </p>
            <p class="redemption__clock" data-clock>{clock}</p>
          </>
        )}
      <button
        type="button"
        class="button button--secondary"
        onClick={() => dialog.current?.close()}
      >
        {t("prizes.back")}
      </button>
    </dialog>
  );
}

import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import {
  BadgeList,
  type PassportBadge,
  type PassportVisit,
  VisitList,
} from "@/components/PassportLists.tsx";
import { StampGrid } from "@/components/StampGrid.tsx";
import { PassportPrizes } from "@/components/PassportPrizes.tsx";
import type { PassportPrize } from "@/client/prizes.ts";
import { CheckInReportView } from "@/components/CheckInReport.tsx";
import {
  type CheckInReport,
  describeQueuedCheckIn,
  normalizeCode,
  sayBadgeName,
} from "@/client/check_in.ts";
import type { QueuedCheckIn } from "@/client/check_in_queue.ts";
import { submitCheckIn } from "@/client/use_check_in_queue.ts";
import { saveDeviceStamps } from "@/client/device_passport.ts";
import {
  findQueuedCodes,
  findQueuedVisits,
  getStampState,
  toDeviceStamp,
  useDevicePassport,
} from "@/client/use_device_passport.ts";
import { localizePath } from "@/client/paths.ts";
import { createSessionApi } from "@/client/session_client.ts";
import {
  createTranslate,
  type IslandLanguage,
  scopeMessages,
} from "@/client/messages.ts";

export type { PassportBadge, PassportVisit };

/** Its messages: `passport`, with the shared `checkin`, `session`, `rating` and `badges`. */
export type PassportProps = IslandLanguage & {
  /**
   * Attraction names by slug, in the data set's order: the stamp grid, and
   * the name of a visit the API reports by slug.
   */
  attractionNames: Record<string, string>;
  /** The municipality's time zone, to word dates of new visits. */
  timeZone: string;
  visits: PassportVisit[];
  badges: PassportBadge[];
  totalAttractions: number;
  /** When the server rendered this passport (ISO 8601). */
  renderedAt?: string;
  /**
   * The passport's prizes as the server rendered them (the API's list);
   * null for a visitor without a passport.
   */
  prizes?: PassportPrize[] | null;
};

type Notice = {
  kind: "ok" | "error" | "queued" | "report";
  text: string;
  /** A refusal or an earlier stamp, worded as on an attraction's page. */
  report?: CheckInReport;
  badge?: PassportBadge;
  /** The check-in it reports (not listed again below the form). */
  checkInId?: string;
};

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
  // The check-in's words, shared with an attraction's page (`checkin`).
  const tc = useMemo(
    () => createTranslate(scopeMessages(props.messages, "checkin"), locale),
    [props.messages, locale],
  );
  // Every attraction's name and page: a refusal names the code's place.
  const attractionLinks = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(props.attractionNames).map(([slug, name]) => [
          slug,
          { name, href: localizePath(lang, `/turismo/atractivos/${slug}`) },
        ]),
      ),
    [props.attractionNames, lang],
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
  // Pending stamps, and check-ins sent while no page was open.
  const { device, queue, setQueue } = useDevicePassport({
    visits: props.visits,
    renderedAt: props.renderedAt,
    lang,
  });
  const input = useRef<HTMLInputElement>(null);

  const shown = [
    ...visits,
    ...findQueuedVisits(queue, new Set(visits.map((v) => v.slug))).map((
      item,
    ) => ({
      visitId: item.visitId,
      slug: item.atractivo,
      name: props.attractionNames[item.atractivo] ?? item.atractivo,
      visitedLabel: formatDay(
        item.resolvedAt ?? item.claimedAt,
        props.timeZone,
        locale,
      ),
      rating: null,
      notes: null,
      visitedAt: item.resolvedAt ?? item.claimedAt,
    })),
  ];
  const visited = new Set(shown.map((visit) => visit.slug));
  const total = props.totalAttractions;
  const percent = total > 0
    ? Math.min(100, Math.floor((shown.length / total) * 100))
    : 0;
  const { waiting, refused } = findQueuedCodes(queue, {
    now: new Date(),
    except: notice?.checkInId,
  });

  async function verify(event: Event) {
    event.preventDefault();
    const code = normalizeCode(input.current?.value ?? "");
    if (!code) {
      setNotice({ kind: "error", text: t("session.emptyCode") });
      input.current?.focus();
      return;
    }
    setBusy(true);
    // The same path as an attraction's page: the device's queue, else sent now.
    const sent = await submitCheckIn({ slug: null, code }, { lang });
    setBusy(false);
    if (sent.kind === "failed") {
      setNotice({ kind: "error", text: t(sent.problem) });
      return;
    }
    if (sent.kind === "queued") setQueue(sent.queue);
    report(sent.item);
  }

  /** What came of a check-in, said below the form. */
  function report(item: QueuedCheckIn) {
    const id = item.checkInId;
    if (item.status === "pending") {
      setNotice({ kind: "queued", text: t("queued"), checkInId: id });
    } else if (item.status === "rejected") {
      setNotice({
        kind: "report",
        text: "",
        report: describeQueuedCheckIn(item, {
          t: tc,
          locale,
          name: "",
          slug: null,
        }),
        checkInId: id,
      });
      return;
    } else {
      added(item.visitId ?? "", item.atractivo ?? "", item.badge ?? null, id);
    }
    if (input.current) input.current.value = "";
  }

  function added(
    visitId: string,
    slug: string,
    apiBadge: { id: string; name: string; icon: string } | null,
    checkInId?: string,
  ) {
    const when = formatDay(new Date().toISOString(), props.timeZone, locale);
    const name = props.attractionNames[slug] ?? slug;
    const visit: PassportVisit = {
      visitId,
      slug,
      name,
      visitedLabel: when,
      rating: null,
      notes: null,
      visitedAt: new Date().toISOString(),
    };
    setVisits((list) =>
      list.some((each) => each.slug === slug) ? list : [...list, visit]
    );
    saveDeviceStamps([toDeviceStamp(visit)], { replace: false });
    const badge = apiBadge ? { ...apiBadge, unlockedLabel: when } : undefined;
    if (badge) {
      setBadges((list) =>
        list.some((each) => each.id === badge.id) ? list : [...list, badge]
      );
    }
    setNotice({
      kind: "ok",
      text: t("registered", { name }),
      badge,
      checkInId,
    });
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
            {busy ? tc("submitting") : tc("submit")}
          </button>
        </form>
        <div role="status" aria-live="polite" class="verify-result">
          {notice?.report && (
            <CheckInReportView
              report={notice.report}
              slug={null}
              name=""
              attractions={attractionLinks}
              t={tc}
            />
          )}
          {notice && !notice.report && (
            <p
              class={notice.kind === "ok"
                ? "notice notice--ok"
                : notice.kind === "queued"
                ? "notice notice--queued"
                : "form-error"}
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
        {(waiting.length > 0 || refused.length > 0) && (
          <ul class="queued-codes">
            {waiting.map((item) => (
              <li key={item.checkInId}>
                {t("waitingCode", {
                  code: item.code ?? "",
                  date: formatDay(item.claimedAt, props.timeZone, locale),
                })}
              </li>
            ))}
            {refused.map((item) => (
              <li key={item.checkInId} class="queued-codes__refused">
                {t("refusedCode", {
                  // Its code is no longer on the device: the day it was typed.
                  date: formatDay(item.claimedAt, props.timeZone, locale),
                  reason: sayRefusal(item, tc, locale),
                })}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="progreso-titulo">
        <h2 id="progreso-titulo">{t("progressTitle")}</h2>
        <p>
          {t.rich("progress", {
            visited: shown.length,
            total,
            percent,
            strong,
          })}
        </p>
        <progress max={100} value={percent} aria-labelledby="progreso-titulo" />
      </section>

      <PassportPrizes
        t={t}
        lang={lang}
        locale={locale}
        timeZone={props.timeZone}
        rendered={props.prizes ?? null}
        renderedAt={props.renderedAt}
        hasPassport={(props.prizes ?? null) !== null || visits.length > 0}
        stamps={visits.length}
      />

      <StampGrid
        attractions={props.attractionNames}
        stateOf={(slug) => getStampState(slug, { visited, device })}
        lang={lang}
        t={t}
      />

      <BadgeList badges={badges} t={t} />

      <VisitList visits={shown} api={api} lang={lang} t={t} />
    </div>
  );
}

/** A message's `<strong>` part. */
function strong(text: ComponentChildren[]) {
  return <strong>{text}</strong>;
}

/** A day as the page words a visit's day, in the page's locale. */
function formatDay(iso: string, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone,
  }).format(new Date(iso));
}

/** Why a check-in was refused, in a sentence of the list below the form. */
function sayRefusal(
  item: QueuedCheckIn,
  tc: ReturnType<typeof createTranslate>,
  locale: string,
): string {
  const report = describeQueuedCheckIn(item, {
    t: tc,
    locale,
    name: "",
    slug: null,
  });
  switch (report.kind) {
    case "error":
      return report.text;
    case "refusedElsewhere":
      return tc("refusedCodeNotAccepted");
    default:
      return tc("session.verifyAlready");
  }
}

import { useState } from "preact/hooks";
import { sayBadgeName } from "@/client/check_in.ts";
import { saveDeviceStamps } from "@/client/device_passport.ts";
import type { Translate } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";
import { toDeviceStamp } from "@/client/use_device_passport.ts";
import { VisitRating } from "./VisitRating.tsx";

/** A visit as the passport shows it; dates are already worded by the server. */
export interface PassportVisit {
  visitId: string;
  slug: string;
  name: string;
  visitedLabel: string;
  rating: number | null;
  notes: string | null;
  /** ISO 8601, kept in the device's passport. */
  visitedAt?: string;
}

/** A badge the passport has, with the day it was unlocked in words. */
export interface PassportBadge {
  id: string;
  name: string;
  icon: string;
  unlockedLabel: string;
}

/**
 * The passport's badges, each with its name in the page's language and the
 * day it was unlocked. Rendered by the Passport island, whose messages hold
 * `badgesTitle`, `noBadges` and the shared `badges` namespace.
 */
export function BadgeList(
  { badges, t }: { badges: readonly PassportBadge[]; t: Translate },
) {
  return (
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
  );
}

/**
 * The passport's visits, each linking its attraction's page, with its day,
 * its stars and a "Calificar" button that opens its rating form, one form
 * at a time (opening one closes the other). A rating saved is kept in the
 * device's passport, so the attraction's page shows it, offline too.
 */
export function VisitList(
  { visits, api, lang, t }: {
    visits: readonly PassportVisit[];
    api: Parameters<typeof VisitRating>[0]["api"];
    lang: string;
    t: Translate;
  },
) {
  // The one visit whose form is open, and what was saved since the render.
  const [open, setOpen] = useState<string | null>(null);
  const [saved, setSaved] = useState<
    Record<string, { rating: number | null; notes: string | null }>
  >({});
  return (
    <section aria-labelledby="visitas-titulo">
      <h2 id="visitas-titulo">{t("visitsTitle")}</h2>
      {visits.length === 0 ? <p>{t("noVisits")}</p> : (
        <ol class="visit-list">
          {visits.map((listed) => {
            const visit = { ...listed, ...saved[listed.visitId] };
            const isOpen = open === visit.visitId;
            const formId = `calificar-${visit.visitId}`;
            return (
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
                  {visit.rating !== null && (
                    <>
                      {" · "}
                      <span class="visit-list__stars" aria-hidden="true">
                        {"★".repeat(visit.rating)}
                        {"☆".repeat(5 - visit.rating)}
                      </span>
                      <span class="sr-only">
                        {t("rating.stars", { count: visit.rating })}
                      </span>
                    </>
                  )}
                </p>
                <button
                  type="button"
                  class="button button--ghost visit-list__rate"
                  aria-expanded={isOpen ? "true" : "false"}
                  aria-controls={formId}
                  onClick={() => setOpen(isOpen ? null : visit.visitId)}
                >
                  {visit.rating === null
                    ? t("rating.open")
                    : t("rating.change")}
                  <span class="sr-only">: {visit.name}</span>
                </button>
                {isOpen && (
                  <div id={formId}>
                    <VisitRating
                      api={api}
                      visit={visit}
                      t={t}
                      onSaved={(result) => {
                        setSaved((all) => ({
                          ...all,
                          [visit.visitId]: result,
                        }));
                        saveDeviceStamps(
                          [{ ...toDeviceStamp(visit), ...result }],
                          { replace: false },
                        );
                      }}
                    />
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

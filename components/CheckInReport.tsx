import type { ComponentChildren } from "preact";
import {
  type AttractionLink,
  type CheckInReport,
  sayBadgeName,
} from "@/client/check_in.ts";
import type { Translate } from "@/client/messages.ts";

/**
 * What a check-in came to, in both check-in islands (an attraction's page,
 * the passport), each a notice in the island's status region: pending (and
 * why it waits), recorded here or at another attraction (named and linked,
 * with the badge it unlocked), already stamped, or refused with the reason
 * (a code of another place names and links it). Its messages: `checkin`
 * with `badges`. `slug` is the page's attraction (null: the passport).
 */
export function CheckInReportView(
  { report, slug, name, attractions, t }: {
    report: CheckInReport;
    slug: string | null;
    name: string;
    attractions: Record<string, AttractionLink>;
    t: Translate;
  },
) {
  // Another attraction's code: its name, linked to its page.
  const elsewhere = (key: string, to: string) =>
    t.rich(key, {
      name: attractions[to]?.name ?? to,
      link: (text: ComponentChildren[]) => (
        <a href={attractions[to]?.href}>{text}</a>
      ),
    });
  switch (report.kind) {
    case "pending":
      return <p class="stamp stamp--pending">{report.text ?? t("pending")}</p>;
    case "error":
      return <p class="notice notice--refused">{report.text}</p>;
    case "refusedElsewhere":
      return (
        <p class="notice notice--refused">
          {elsewhere(report.key, report.slug)}
        </p>
      );
    case "already":
      return report.slug === slug
        ? <p class="notice">{t("already", { name })}</p>
        : (
          <p class="notice">
            {elsewhere("elsewhereAlready", report.slug)}
          </p>
        );
    case "ok":
      return (
        <>
          <p class="notice notice--ok">
            {report.slug === slug
              ? t("done", { name })
              : elsewhere("elsewhere", report.slug)}
          </p>
          {report.badge && (
            <p class="badge-unlocked celebrate">
              <span class="celebrate__icon" aria-hidden="true">
                {report.badge.icon}
              </span>{" "}
              {t.rich("badges.unlocked", {
                badge: sayBadgeName(t, report.badge),
                strong,
              })}
            </p>
          )}
        </>
      );
  }
}

/** A message's `<strong>` part. */
function strong(text: ComponentChildren[]) {
  return <strong>{text}</strong>;
}

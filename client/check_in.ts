/**
 * What the check-in islands show, free of UI so it is tested in Deno: both
 * forms (an attraction's page and the passport) send every check-in
 * through the device's queue (`submitCheckIn`, use_check_in_queue.ts), and
 * word what each came to from the one catalogue (`describeQueuedCheckIn`:
 * a refusal by its reason's key in lib/check_in/names.ts), which check-in
 * a page reports on (`findLatestCheckIn`) and the stamp the device has
 * (`findPageStamp`).
 */
import { isRefusalReason, REFUSAL_WORDS } from "@/lib/check_in/names.ts";
import type { QueuedCheckIn } from "./check_in_queue.ts";
import type { DeviceStamp } from "./device_passport.ts";
import type { MessageValues, Translate } from "./messages.ts";

/** A badge as the API reports it (docs/API.md, milestone badges). */
export type ApiBadge = {
  id: string;
  name: string;
  icon: string;
};

/** Guide codes are letters and digits; case and spaces do not matter. */
export function normalizeCode(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase();
}

/**
 * A badge's name in the island's language: its catalogue message
 * (`badges.<id>.name`, from the shared `badges` namespace), else the name
 * the API gave.
 */
export function sayBadgeName(
  t: Translate,
  badge: { id: string; name: string },
): string {
  const key = `badges.${badge.id}.name`;
  const said = t(key);
  return said === key ? badge.name : said;
}

/** An attraction as the island links it: its name and its page (in the page's language). */
export type AttractionLink = { name: string; href: string };

/** This attraction's stamp as the page shows it. */
export type PageStamp = {
  status: "verified" | "pending";
  /** ISO 8601: when it was checked in (a pending one: when it was made). */
  at: string;
  visitId?: string;
  rating: number | null;
  notes: string | null;
};

/**
 * This attraction's stamp from the device's stamps (`readDeviceStamps`:
 * the passport's verified ones, and the queue's verified or pending ones),
 * or null.
 */
export function findPageStamp(
  slug: string,
  stamps: ReadonlyMap<string, DeviceStamp>,
): PageStamp | null {
  const stamp = stamps.get(slug);
  if (!stamp) return null;
  return {
    status: stamp.status,
    at: stamp.at,
    visitId: stamp.visitId,
    rating: stamp.rating ?? null,
    notes: stamp.notes ?? null,
  };
}

/** A check-in's answer is news on its page for this long after it arrived. */
const RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * The check-in the page reports on: the one made here just now
 * (`currentId`), else the newest made on this page that is still pending,
 * or was answered in the last 24 hours (sent by the service worker while
 * the page was closed, say) with news the stamp does not tell: a refusal,
 * or a stamp at another attraction.
 */
export function findLatestCheckIn(
  slug: string,
  queue: readonly QueuedCheckIn[],
  { currentId, now }: { currentId: string | null; now: Date },
): QueuedCheckIn | null {
  const current = queue.find((item) => item.checkInId === currentId);
  if (current) return current;
  const recent = queue.filter((item) =>
    item.slug === slug &&
    (item.status === "pending" ||
      (item.atractivo !== slug &&
        now.getTime() - Date.parse(item.resolvedAt ?? item.claimedAt) <
          RECENT_MS))
  );
  return recent.at(-1) ?? null;
}

/** What a queued check-in came to, as the page words it (`CheckInReportView`). */
export type CheckInReport =
  /** Kept on the device: sent when there is signal (`text`: why it waits otherwise). */
  | { kind: "pending"; text?: string }
  /** Recorded: the visit, its attraction and the badge it unlocked. */
  | { kind: "ok"; visitId: string; slug: string; badge: ApiBadge | null }
  /** The passport already had this stamp: its first visit. */
  | { kind: "already"; visitId: string; slug: string }
  /**
   * Refused by the rule of another attraction than the page's (its code was
   * typed): `key`, a `checkin` message with that attraction's `name` and `link`.
   */
  | { kind: "refusedElsewhere"; slug: string; key: string }
  /** Refused, or not sent: the sentence. */
  | { kind: "error"; text: string };

/**
 * Words a queued check-in's answer in the island's language (`t` reads the
 * `checkin` messages, with `session`): the refusal's reason as data first
 * (the tourist may have switched language since), by its key in
 * `REFUSAL_WORDS`, else the server's own words. `slug` is the page's
 * attraction (null: the passport, which has none).
 */
export function describeQueuedCheckIn(
  item: QueuedCheckIn,
  { t, locale, name, slug = item.slug }: {
    t: Translate;
    locale: string;
    /** The page's attraction's name. */
    name: string;
    slug?: string | null;
  },
): CheckInReport {
  if (item.status === "pending") {
    const deferred = item.deferred;
    if (!deferred) return { kind: "pending" };
    return {
      kind: "pending",
      text: deferred.status === 429
        ? t("pendingLocked", {
          minutes: Math.max(1, Math.ceil((deferred.retryAfter ?? 60) / 60)),
        })
        : t("pendingServer"),
    };
  }
  if (item.status === "verified") {
    return {
      kind: "ok",
      visitId: item.visitId ?? "",
      slug: item.atractivo ?? item.slug ?? "",
      badge: item.badge ?? null,
    };
  }
  const refusal = item.refusal ?? { status: 0 };
  if (refusal.reason === "already_visited" && item.visitId) {
    return {
      kind: "already",
      visitId: item.visitId,
      slug: item.atractivo ?? item.slug ?? "",
    };
  }
  const text = (key: string, values?: MessageValues) => ({
    kind: "error" as const,
    text: t(key, values),
  });
  if (
    refusal.reason === "code_not_accepted" && refusal.atractivo &&
    refusal.atractivo !== slug
  ) {
    return {
      kind: "refusedElsewhere",
      slug: refusal.atractivo,
      key: "refusedCodeElsewhere",
    };
  }
  if (
    refusal.reason === "outside_radius" && refusal.distanceM !== undefined &&
    refusal.radiusM !== undefined
  ) {
    return text("refusedOutsideRadius", {
      name,
      distance: formatMetres(refusal.distanceM, locale),
      radius: formatMetres(refusal.radiusM, locale),
    });
  }
  if (isRefusalReason(refusal.reason)) {
    return text(REFUSAL_WORDS[refusal.reason].checkin);
  }
  if (refusal.reason === "id_reused") return text("refusedIdReused");
  if (refusal.status === 404) {
    return refusal.remainingAttempts === undefined
      ? text("session.verifyNotFound")
      : text("session.verifyNotFoundAttempts", {
        left: refusal.remainingAttempts,
      });
  }
  if (refusal.status === 409) return text("session.verifyAlready");
  if (refusal.status === 400) return text("session.verifyBadRequest");
  return { kind: "error", text: item.message ?? t("session.verifyFailed") };
}

/** A distance for a sentence: metres below a kilometre, else kilometres with one decimal. */
export function formatMetres(metres: number, locale: string): string {
  const km = metres >= 1000;
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: km ? "kilometer" : "meter",
    unitDisplay: "short",
    maximumFractionDigits: km ? 1 : 0,
  }).format(km ? metres / 1000 : Math.round(metres));
}

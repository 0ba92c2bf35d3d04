/**
 * What the check-in islands show, free of UI so it is tested in Deno: the
 * passport's code form sends a typed guide code to
 * `POST /api/turismo/verify-visit` (`submitCheckIn`); an attraction's page
 * sends every check-in through the device's queue (`check_in_queue.ts`)
 * and words what each came to (`describeQueuedCheckIn`), which check-in it
 * reports on (`findLatestCheckIn`) and the stamp the device has
 * (`findPageStamp`).
 */
import type { QueuedCheckIn } from "./check_in_queue.ts";
import type { DeviceStamp } from "./device_passport.ts";
import type { MessageValues, Translate } from "./messages.ts";
import {
  type ApiResult,
  describeFailure,
  describeVerifyError,
  type JsonBody,
} from "./session_client.ts";

/** A badge as the API reports it (docs/API.md, milestone badges). */
export type ApiBadge = {
  id: string;
  name: string;
  icon: string;
};

/** What a check-in came to, worded from the island's `session` messages. */
export type CheckInResult =
  /** Recorded: the visit, its attraction and the badge it unlocked. */
  | { kind: "ok"; visitId: string; slug: string; badge: ApiBadge | null }
  /** This passport had already verified it (409): the first visit, and its message. */
  | { kind: "already"; visitId: string; slug: string; text: string }
  /** Nothing recorded: an empty code, a wrong one, a lockout, no network. */
  | { kind: "error"; text: string; isEmpty?: boolean };

/** Guide codes are letters and digits; case and spaces do not matter. */
export function normalizeCode(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase();
}

/**
 * Sends `code` (normalised; an empty one is not sent) as the session's
 * user, through `api` (`createSessionApi`), and says what came of it.
 * `onSending` is called just before the request goes (the island's busy
 * state). Never throws: a failure before any answer is an `error` too.
 */
export async function submitCheckIn(
  api: {
    post(path: string, body: (userId: string) => JsonBody): Promise<ApiResult>;
  },
  { code, t, onSending }: {
    code: string;
    t: Translate;
    onSending?: () => void;
  },
): Promise<CheckInResult> {
  const typed = normalizeCode(code);
  if (!typed) {
    return { kind: "error", text: t("session.emptyCode"), isEmpty: true };
  }
  onSending?.();
  let result: ApiResult;
  try {
    result = await api.post(
      "/api/turismo/verify-visit",
      (userId) => ({ code: typed, userId }),
    );
  } catch (error) {
    return { kind: "error", text: describeFailure(error, t) };
  }
  const body = result.body;
  if (result.status === 200) {
    return {
      kind: "ok",
      visitId: String(body.visitId),
      slug: String(body.atractivo),
      badge: (body.badge as ApiBadge | null) ?? null,
    };
  }
  if (result.status === 409 && typeof body.visitId === "string") {
    return {
      kind: "already",
      visitId: body.visitId,
      slug: String(body.atractivo),
      text: describeVerifyError(result, t),
    };
  }
  return { kind: "error", text: describeVerifyError(result, t) };
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

/** The `checkin` message for each refusal the server explains with a `reason`. */
const REFUSAL_KEYS: Record<string, string> = {
  claimed_too_old: "refusedClaimedTooOld",
  claimed_in_future: "refusedClaimedInFuture",
  code_not_accepted: "refusedCodeNotAccepted",
  position_not_accepted: "refusedPositionNotAccepted",
  accuracy_missing: "refusedAccuracy",
  accuracy_too_poor: "refusedAccuracy",
  too_fast: "refusedTooFast",
  id_reused: "refusedIdReused",
};

/** What a queued check-in came to, as the page words it. */
export type CheckInReport =
  /** Kept on the device: sent when there is signal (`text`: why it waits otherwise). */
  | { kind: "pending"; text?: string }
  | Exclude<CheckInResult, { kind: "already" | "error" }>
  /** The passport already had this stamp: its first visit. */
  | { kind: "already"; visitId: string; slug: string }
  | { kind: "error"; text: string };

/**
 * Words a queued check-in's answer in the island's language (`checkin` and
 * `session` messages): the refusal's reason as data first (the tourist may
 * have switched language since), else the server's own words.
 */
export function describeQueuedCheckIn(
  item: QueuedCheckIn,
  { t, locale, name }: {
    t: Translate;
    locale: string;
    /** The page's attraction's name. */
    name: string;
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
    refusal.reason === "outside_radius" && refusal.distanceM !== undefined &&
    refusal.radiusM !== undefined
  ) {
    return text("refusedOutsideRadius", {
      name,
      distance: formatMetres(refusal.distanceM, locale),
      radius: formatMetres(refusal.radiusM, locale),
    });
  }
  const key = refusal.reason && Object.hasOwn(REFUSAL_KEYS, refusal.reason)
    ? REFUSAL_KEYS[refusal.reason]
    : undefined;
  if (key) return text(key);
  if (refusal.status === 404) {
    return refusal.remainingAttempts === undefined
      ? text("session.verifyNotFound")
      : text("session.verifyNotFoundAttempts", {
        left: refusal.remainingAttempts,
      });
  }
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

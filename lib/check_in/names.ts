/**
 * The check-in's names, shared by the server and the browser: the methods
 * an attraction may take, the reasons a check-in is refused with and the
 * catalogue keys that word them, the limits of a claimed time and of a
 * radius, and the shapes both sides name. A leaf: it imports nothing, so
 * the islands and `client/` import it as they import their own modules
 * (tests/operations/architecture_test.ts holds it to that). The rules
 * themselves are in `rules.ts` beside it; lib/data validates the data
 * set's `checkIn` with these names, lib/db stores the admin's rule in
 * their shape.
 *
 * A new method is a row of {@linkcode CHECK_IN_METHOD_TABLE} (what it
 * accepts, its page's words) and its words in the console's table
 * (`console.ts`). A new refusal reason is a row of
 * {@linkcode REFUSAL_WORDS}, the rule that returns it (`rules.ts`) and its
 * two sentences (`locales/<lang>/api.json`, `locales/<lang>/checkin.json`).
 */

/**
 * How a visit is checked in at an attraction: by the guide code shown there
 * (what every attraction did first), by the phone's position ("Estoy
 * aquí"), or by either, for places with poor reception. The data set gives
 * each attraction's default (`checkIn`, absent: by code within
 * {@linkcode DEFAULT_CHECK_IN_RADIUS_M}); an admin's choice in the console
 * (lib/db/check_in_methods.ts) wins.
 */
export const CHECK_IN_METHOD_TABLE = {
  code: { code: true, position: false, intro: "page_attraction.checkInText" },
  gps: { code: false, position: true, intro: "checkin.introGps" },
  "gps-or-code": { code: true, position: true, intro: "checkin.introEither" },
} as const satisfies Record<string, {
  /** Whether a guide code checks a visit in, and a position. */
  code: boolean;
  position: boolean;
  /** The attraction page's first words of its check-in panel (a catalogue key). */
  intro: string;
}>;

/** One of {@linkcode CHECK_IN_METHODS}. */
export type CheckInMethod = keyof typeof CHECK_IN_METHOD_TABLE;

/** Every {@linkcode CheckInMethod}, in the table's order (the data set's enum, the console's choices). */
export const CHECK_IN_METHODS = Object.keys(CHECK_IN_METHOD_TABLE) as [
  CheckInMethod,
  ...CheckInMethod[],
];

/** Whether a guide code checks a visit in under `method`. */
export function acceptsCode(method: CheckInMethod): boolean {
  return CHECK_IN_METHOD_TABLE[method].code;
}

/** Whether a position checks a visit in under `method`. */
export function acceptsPosition(method: CheckInMethod): boolean {
  return CHECK_IN_METHOD_TABLE[method].position;
}

/** How one visit was checked in: by guide code, or by the phone's position. */
export type VisitMethod = "code" | "gps";

/** An attraction's check-in rule: its method, and for a position the radius around its point. */
export interface CheckInRule {
  method: CheckInMethod;
  /** Metres around the attraction's point within which a position counts. */
  radiusM: number;
}

/** The radius when neither the data set nor an admin sets one. */
export const DEFAULT_CHECK_IN_RADIUS_M = 150;
/** The smallest radius an attraction may have: a phone's position is rarely better. */
export const MIN_CHECK_IN_RADIUS_M = 25;
/** The largest radius an attraction may have (a canyon's viewpoint area). */
export const MAX_CHECK_IN_RADIUS_M = 2000;

/**
 * How old a check-in's claimed time may be when it reaches the server: a
 * device without signal syncs within three days. Replaced guide codes keep
 * their index entry this long past their grace period (lib/db/guide_codes.ts).
 */
export const MAX_CHECK_IN_AGE_MS = 72 * 60 * 60 * 1000;

/** How far ahead of the server's clock a device's clock may run. */
export const MAX_CHECK_IN_CLOCK_AHEAD_MS = 5 * 60 * 1000;

/** A phone's position as the browser gives it. */
export interface Position {
  lat: number;
  lng: number;
  /** Metres (the Geolocation API's `accuracy`); absent: refused. */
  accuracy?: number;
}

/**
 * Every reason a check-in is refused for good (a 422 `reason`), with its
 * words: `api`, the API's `details` (`locales/<lang>/api.json`), and
 * `checkin`, the islands' sentence (`locales/<lang>/checkin.json`, whose
 * values are the refusal's facts and the attraction's `name`).
 */
export const REFUSAL_WORDS = {
  claimed_too_old: {
    api: "checkIn.claimedTooOld",
    checkin: "refusedClaimedTooOld",
  },
  claimed_in_future: {
    api: "checkIn.claimedInFuture",
    checkin: "refusedClaimedInFuture",
  },
  code_not_accepted: {
    api: "checkIn.codeNotAccepted",
    checkin: "refusedCodeNotAccepted",
  },
  position_not_accepted: {
    api: "checkIn.positionNotAccepted",
    checkin: "refusedPositionNotAccepted",
  },
  outside_radius: {
    api: "checkIn.outsideRadius",
    checkin: "refusedOutsideRadius",
  },
  accuracy_missing: {
    api: "checkIn.accuracyMissing",
    checkin: "refusedAccuracy",
  },
  accuracy_too_poor: {
    api: "checkIn.accuracyTooPoor",
    checkin: "refusedAccuracy",
  },
  too_fast: { api: "checkIn.tooFast", checkin: "refusedTooFast" },
} as const;

/** A reason a check-in is refused for good (422). */
export type RefusalReason = keyof typeof REFUSAL_WORDS;

/** Every {@linkcode RefusalReason}, in the table's order (the API's enum). */
export const REFUSAL_REASONS = Object.keys(REFUSAL_WORDS) as [
  RefusalReason,
  ...RefusalReason[],
];

/** Whether `reason` is a {@linkcode RefusalReason}. */
export function isRefusalReason(reason: unknown): reason is RefusalReason {
  return typeof reason === "string" && Object.hasOwn(REFUSAL_WORDS, reason);
}

/**
 * A 409's `reason`: the passport already has this attraction
 * (`already_visited`, with its visit), or the id came with another request
 * (`id_reused`, worded `refusedIdReused`).
 */
export const CONFLICT_REASONS = ["already_visited", "id_reused"] as const;

/**
 * Why a check-in was refused, as the 422's body carries it beside `error`
 * and `details`: the reason and the facts its words need. The same shape on
 * the server (the rules return it) and on the device (the queue keeps it).
 */
export interface CheckInRefusal {
  reason: RefusalReason;
  /** `outside_radius`: how far the position was, rounded, and the radius (metres). */
  distanceM?: number;
  radiusM?: number;
  /** `accuracy_too_poor`: the worst accuracy taken (metres). */
  maxAccuracyM?: number;
  /** `too_fast`: the fastest travel believed (km/h). */
  maxSpeedKmh?: number;
  /** `claimed_too_old`: the hours a claim may wait. */
  hours?: number;
  /** `claimed_in_future`: the minutes a clock may run ahead. */
  minutes?: number;
  /**
   * The attraction whose rule refused it, when a guide code named one: a
   * code of another place than the page it was typed on.
   */
  atractivo?: string;
}

/**
 * Every Deno KV key of the service, in one scheme: plural snake_case
 * collections first, indexes named `<things>_by_<field>`. No other module
 * builds a key by hand.
 */
export const keys = {
  /** Read by the health check. */
  health: () => ["health"] as const,
  /** The service's own JWT signing secret, generated once. */
  signingSecret: () => ["secrets", "jwt"] as const,

  /**
   * A ticket by its share code. Share codes are case-insensitive: every key
   * of one holds it in lower case, so one code is one ticket and one post.
   */
  ticket: (shareCode: string) => ["tickets", shareCode.toLowerCase()] as const,
  /** A ticket an earlier version stored under its code as typed (codes were case-sensitive then). */
  ticketAsTyped: (shareCode: string) => ["tickets", shareCode] as const,
  /** A ticket post of the embedded (KV) CMS driver, by share code. */
  cmsPost: (shareCode: string) =>
    ["cms_posts", shareCode.toLowerCase()] as const,
  /** The last post id handed out by the embedded (KV) CMS driver. */
  cmsPostCounter: () => ["counters", "cms_posts"] as const,
  /** A ticket being created in the CMS right now, so that no second request creates it too. */
  ticketClaim: (shareCode: string) =>
    ["ticket_claims", shareCode.toLowerCase()] as const,
  /** The share code a signed-in user's ticket is linked to. */
  ticketByUser: (userId: string) => ["tickets_by_user", userId] as const,

  /** One user's verified visit of one attraction. */
  visit: (userId: string, slug: string) => ["visits", userId, slug] as const,
  /** Every visit of every user (a prefix for `kv.list`: the admins' ratings export). */
  visits: () => ["visits"] as const,
  /** All of one user's visits (a prefix for `kv.list`). */
  visitsOfUser: (userId: string) => ["visits", userId] as const,
  /** A visit's `[userId, slug]` by its id. */
  visitById: (visitId: string) => ["visits_by_id", visitId] as const,
  /** A user's counters: verified visits and badges. */
  userStats: (userId: string) => ["user_stats", userId] as const,
  /** A badge a user has unlocked. */
  badge: (userId: string, badgeId: string) =>
    ["badges", userId, badgeId] as const,
  /** All of one user's badges (a prefix for `kv.list`). */
  badgesOfUser: (userId: string) => ["badges", userId] as const,
  /** Per-attraction aggregates: ratings and their sum, and an adjustment of the visit count (merges, older versions' counts). */
  attractionStats: (slug: string) => ["attraction_stats", slug] as const,
  /** Verified visits of an attraction, a `Deno.KvU64` moved by `sum`: no transaction contends on it. */
  attractionVisitCount: (slug: string) =>
    ["attraction_visit_counts", slug] as const,

  /** Chat requests sent to the model on one day (`YYYY-MM-DD`, the municipality's), a `Deno.KvU64`. */
  chatRequestsOfDay: (day: string) => ["chat_requests_by_day", day] as const,
  /** A sliding-window rate limiter's recent hits. */
  rateLimit: (scope: string, subject: string) =>
    ["rate_limits", scope, subject] as const,
  /** A signed-in browser session, by its handle (the SHA-256 of the cookie's id). */
  session: (handle: string) => ["sessions", handle] as const,
  /** An OAuth sign-in in progress, by its `state`. */
  oauthFlow: (state: string) => ["oauth_flows", state] as const,
  /** The service's user id for an identity provider's subject. */
  userByIdentity: (issuer: string, subject: string) =>
    ["users_by_identity", issuer, subject] as const,

  // Staff console: access and audit (lib/db/staff_sessions.ts, lib/db/audit.ts)
  /** A staff session, by its handle (the SHA-256 of the staff cookie's id); apart from tourists' sessions. */
  staffSession: (handle: string) => ["staff_sessions", handle] as const,
  /** Every staff session (a prefix for `kv.list`: the console's sessions page). */
  staffSessions: () => ["staff_sessions"] as const,
  /** A single-use staff sign-in link, by the SHA-256 of its token (the token itself is never stored). */
  staffLink: (tokenHash: string) => ["staff_links", tokenHash] as const,
  /** Every unused staff sign-in link (a prefix: a removed member's links are deleted). */
  staffLinks: () => ["staff_links"] as const,
  /**
   * The SHA-256 of a member's newest sign-in link: a new link ends the one
   * it names, in the same atomic, so each person has at most one unused link.
   */
  staffLinkByStaff: (staffId: string) =>
    ["staff_links_by_staff", staffId] as const,
  /** One audited staff action; epoch milliseconds first, so a reverse list is newest first. */
  staffAction: (atMs: number, id: string) =>
    ["staff_actions", atMs, id] as const,
  /** Every audited staff action (a prefix for `kv.list`). */
  staffActions: () => ["staff_actions"] as const,
  /**
   * The staff added on the console (lib/db/staff_members.ts): one entry, so
   * the guard reads it with the session in one `getMany`.
   */
  staffMembers: () => ["staff_members", "roster"] as const,

  // --- The staff dashboard's aggregates (lib/db/stats.ts) ------------------
  // Every counter is a `Deno.KvU64` moved only by `sum` in the atomic that
  // writes the fact (so no transaction contends on it); a decrease is a sum
  // of 2^64 - n (KV wraps around), read back as a signed number. `day` is
  // the municipality's calendar day (`YYYY-MM-DD`), `month` its `YYYY-MM`.

  /** Verified visits of one attraction on one day. */
  visitCountByDay: (day: string, slug: string) =>
    ["visit_counts_by_day", day, slug] as const,
  /** Prefix of the day-keyed visit counts (a range for `kv.list`). */
  visitCountsByDay: () => ["visit_counts_by_day"] as const,
  /** Verified visits, all attractions, in one hour (0..23) of one day. */
  visitCountByHour: (day: string, hour: number) =>
    ["visit_counts_by_hour", day, hour] as const,
  /** Prefix of the hour-keyed visit counts. */
  visitCountsByHour: () => ["visit_counts_by_hour"] as const,
  /** Verified visits of one attraction in one hour (0..23) of one day. */
  visitCountByAttractionHour: (slug: string, day: string, hour: number) =>
    ["visit_counts_by_attraction_hour", slug, day, hour] as const,
  /** Prefix of one attraction's hour-keyed visit counts (a range by day). */
  visitCountsByAttractionHour: (slug: string) =>
    ["visit_counts_by_attraction_hour", slug] as const,
  /** Verified visits of one attraction on one day by how they were checked in (`code`, `gps`). */
  visitCountByMethod: (day: string, slug: string, method: string) =>
    ["visit_counts_by_method", day, slug, method] as const,
  /** Prefix of the day-keyed visit counts by method. */
  visitCountsByMethod: () => ["visit_counts_by_method"] as const,
  /** Tourists whose passport reached `stamps` (its visit count: 1, 2, ...) on one day. */
  stampCountByDay: (day: string, stamps: number) =>
    ["stamp_counts_by_day", day, stamps] as const,
  /** Prefix of the day-keyed stamp counts. */
  stampCountsByDay: () => ["stamp_counts_by_day"] as const,
  /** Tourists whose passport holds at least `stamps`, since the start. */
  stampCount: (stamps: number) => ["stamp_counts", stamps] as const,
  /** Prefix of the all-time stamp counts. */
  stampCounts: () => ["stamp_counts"] as const,
  /** Passports opened on one day: `guest` (no account) or `account` (first sign-in). */
  passportCountByDay: (day: string, kind: "guest" | "account") =>
    ["passport_counts_by_day", day, kind] as const,
  /** Prefix of the day-keyed passport counts. */
  passportCountsByDay: () => ["passport_counts_by_day"] as const,
  /** Tickets created on one day. */
  ticketCountByDay: (day: string) => ["ticket_counts_by_day", day] as const,
  /** Prefix of the day-keyed ticket counts. */
  ticketCountsByDay: () => ["ticket_counts_by_day"] as const,
  /** Visits of an attraction rated `rating` (1..5) now: count, sum and distribution in one. */
  ratingCount: (slug: string, rating: number) =>
    ["rating_counts", slug, rating] as const,
  /** Prefix of the all-time rating counts. */
  ratingCounts: () => ["rating_counts"] as const,
  /** Ratings given in one month (by `ratedAt`) still standing, per attraction and value (open data). */
  ratingCountByMonth: (month: string, slug: string, rating: number) =>
    ["rating_counts_by_month", month, slug, rating] as const,
  /** Prefix of the monthly rating counts. */
  ratingCountsByMonth: () => ["rating_counts_by_month"] as const,
  /**
   * Chat requests of one day by outcome: `questions` (all), `answered`,
   * `refused` (429), `failed` (502), and `no_data`: answered replies that
   * said the portal's data does not hold the answer (also in `answered`).
   */
  chatCountByDay: (day: string, outcome: string) =>
    ["chat_counts_by_day", day, outcome] as const,
  /** Prefix of the day-keyed chat counts. */
  chatCountsByDay: () => ["chat_counts_by_day"] as const,
  /**
   * A visit's notes, newest last (list it with `reverse: true`):
   * `{visitId, slug, rating, notes, ratedAt}` (`StoredNote` in
   * lib/db/stats.ts), no user id. Written with the rating, moved when it
   * changes, deleted with the notes.
   */
  noteByTime: (ratedAtMs: number, visitId: string) =>
    ["notes_by_time", ratedAtMs, visitId] as const,
  /** Prefix of the notes index. */
  notesByTime: () => ["notes_by_time"] as const,
  /** The one-time backfill of the aggregates: who runs it, where it is, done. */
  statsBackfill: () => ["stats_backfill"] as const,

  // --- Published figures (lib/db/open_data.ts) ------------------------------
  // Closed periods' counts, frozen once when first read after they close,
  // so nothing public changes afterwards (lib/open_data/disclosure.ts).
  /** Which closed periods are frozen: `{day, month}`, the last of each (or null). */
  publishedThrough: () => ["published_through"] as const,
  /** A closed day's visits per attraction, as frozen: `Record<slug, count>`. */
  publishedDay: (day: string) => ["published_days", day] as const,
  /** Prefix of the frozen days. */
  publishedDays: () => ["published_days"] as const,
  /** A closed month's ratings (`{count, sum}`) and daily visits per attraction, as frozen. */
  publishedMonth: (month: string) => ["published_months", month] as const,
  /** Prefix of the frozen months. */
  publishedMonths: () => ["published_months"] as const,

  // Staff console: guide codes (lib/db/guide_codes.ts)
  /** An attraction's replaced guide code (it wins over the data set's), by slug. */
  guideCode: (slug: string) => ["guide_codes", slug] as const,
  /** Every replaced guide code (a prefix for `kv.list`). */
  guideCodes: () => ["guide_codes"] as const,
  /** The attraction a replaced code opens (current, or in its grace period), by the normalised code. */
  guideCodeByCode: (code: string) => ["guide_codes_by_code", code] as const,

  // Staff console: questions the chat could not answer (lib/db/unanswered_questions.ts)
  /** A group of similar unanswered questions, by its normalised text; kept 90 days after the last one. */
  unansweredQuestion: (groupKey: string) =>
    ["unanswered_questions", groupKey] as const,
  /** Every group of unanswered questions (a prefix for `kv.list`). */
  unansweredQuestions: () => ["unanswered_questions"] as const,
  /** A group of unanswered questions in its list's order: open by count then recency, resolved by date; same lifetime as the group. */
  unansweredQuestionByRank: (
    status: "open" | "resolved",
    rank: readonly number[],
    groupKey: string,
  ) => ["unanswered_questions_by_rank", status, ...rank, groupKey] as const,
  /** The open or resolved groups in their list's order (a prefix for `kv.list`). */
  unansweredQuestionsByRank: (status: "open" | "resolved") =>
    ["unanswered_questions_by_rank", status] as const,
  /** How many groups of unanswered questions were opened on a UTC day (YYYY-MM-DD): the day's bound. */
  unansweredQuestionsOpened: (day: string) =>
    ["unanswered_questions_opened", day] as const,
  /** Set once the groups kept before the ranked index existed were indexed. */
  unansweredQuestionsIndexed: () => ["unanswered_questions_indexed"] as const,

  // --- Personal data: export, erasure, retention (lib/db/erasures.ts,
  // lib/db/passport_activity.ts, lib/db/personal_indexes.ts) -------------
  /** The tickets holding one e-mail address (lower case): the panel's search for a request by e-mail. */
  ticketByEmail: (email: string, shareCode: string) =>
    ["tickets_by_email", email.toLowerCase(), shareCode.toLowerCase()] as const,
  /** Every ticket of one e-mail address (a prefix for `kv.list`). */
  ticketsByEmail: (email: string) =>
    ["tickets_by_email", email.toLowerCase()] as const,
  /** One of a user's sessions, by its handle, expiring with it: erasure signs every device out. */
  sessionByUser: (userId: string, handle: string) =>
    ["sessions_by_user", userId, handle] as const,
  /** Every session of one user (a prefix for `kv.list`). */
  sessionsByUser: (userId: string) => ["sessions_by_user", userId] as const,
  /** An identity link of a user, the reverse of {@linkcode keys.userByIdentity}: export and erasure. */
  identityOfUser: (userId: string, issuer: string, subject: string) =>
    ["identities_by_user", userId, issuer, subject] as const,
  /** Every identity link of one user (a prefix for `kv.list`). */
  identitiesOfUser: (userId: string) => ["identities_by_user", userId] as const,
  /** The last day (`YYYY-MM-DD`, UTC) a passport was used, with whether it is a guest's. */
  passportLastSeen: (userId: string) =>
    ["passports_last_seen", userId] as const,
  /** A passport by the day it was last used: retention lists the days before its cut-off. */
  passportByLastSeen: (day: string, userId: string) =>
    ["passports_by_last_seen", day, userId] as const,
  /** Prefix of the day-keyed last-use index. */
  passportsByLastSeen: () => ["passports_by_last_seen"] as const,
  /** An erasure, by its random id: its steps while it runs, then only its state (no one named). */
  erasure: (erasureId: string) => ["erasures", erasureId] as const,
  /** An erasure not finished yet (its id): the start-up scan and the retries list these only. */
  pendingErasure: (erasureId: string) =>
    ["erasures_pending", erasureId] as const,
  /** Every unfinished erasure (a prefix for `kv.list`). */
  pendingErasures: () => ["erasures_pending"] as const,
  /** The erasure running for a user, so a second request joins it; deleted when it is done. */
  erasureByUser: (userId: string) => ["erasures_by_user", userId] as const,
  /**
   * An erased share code, by the SHA-256 of the code in lower case (the
   * code itself is not kept): its route page and card are gone for good,
   * and nobody may claim it again.
   */
  erasedShareCode: (codeHash: string) =>
    ["erased_share_codes", codeHash] as const,
  /**
   * An erased user id, by the SHA-256 of the id (the id itself is not
   * kept): every token naming it is refused for good (lib/db/erased_users.ts).
   */
  erasedUser: (userIdHash: string) => ["erased_users", userIdHash] as const,
  /**
   * A counter (a `Deno.KvU64`) every rename, erasure or move of a ticket
   * moves in its own atomic (lib/db/route_changes.ts): each instance watches
   * it to drop the route pages and cards it serves from memory.
   */
  routeChanges: () => ["route_changes"] as const,
  /**
   * A route's share card as last drawn (lib/db/card_images.ts): what it
   * shows (a hash), its PNG's first part and how many parts it has.
   */
  routeCard: (shareCode: string) =>
    ["route_cards", shareCode.toLowerCase()] as const,
  /** The further parts of a route card's PNG, by the hash of what it shows. */
  routeCardPart: (shareCode: string, renderKey: string, index: number) =>
    ["route_card_parts", shareCode.toLowerCase(), renderKey, index] as const,
  /** Every further part of one route's card (a prefix for `kv.list`: erasure). */
  routeCardParts: (shareCode: string) =>
    ["route_card_parts", shareCode.toLowerCase()] as const,
  /** A public page's share card drawn at run time (one the build did not draw), by language and page. */
  pageCard: (lang: string, page: string) => ["page_cards", lang, page] as const,
  /** The further parts of a page card's PNG. */
  pageCardPart: (
    lang: string,
    page: string,
    renderKey: string,
    index: number,
  ) => ["page_card_parts", lang, page, renderKey, index] as const,
  /** Every further part of one page's card (a prefix for `kv.list`). */
  pageCardParts: (lang: string, page: string) =>
    ["page_card_parts", lang, page] as const,
  /** An admin's check-in rule for an attraction (lib/db/check_in_methods.ts); absent: the data set's. */
  checkInMethod: (slug: string) => ["check_in_methods", slug] as const,
  /** Every admin-set check-in rule (a prefix for `kv.list`). */
  checkInMethods: () => ["check_in_methods"] as const,
  /**
   * A check-in's receipt by the id its device gave it (lib/db/check_ins.ts):
   * what was asked (the code's or position's fingerprint) and the first
   * answer, so a retry never counts twice and gets that answer again.
   */
  checkIn: (userId: string, checkInId: string) =>
    ["check_ins", userId, checkInId] as const,
  /** Every check-in receipt of one user (a prefix for `kv.list`: erasure, export). */
  checkInsOfUser: (userId: string) => ["check_ins", userId] as const,
  /**
   * The ids of a passport's latest refused check-ins (lib/db/check_ins.ts),
   * oldest first: a new refusal's receipt past the last
   * `MAX_REFUSAL_RECEIPTS` deletes the oldest's, so refusals cannot fill KV.
   */
  checkInRefusals: (userId: string) => ["check_in_refusals", userId] as const,
  /** Every ticket (a prefix for `kv.list`: the backfill, the panel's search before it). */
  tickets: () => ["tickets"] as const,
  /** Every tourist session (a prefix for `kv.list`: the backfill). */
  sessions: () => ["sessions"] as const,
  /** Every identity link (a prefix for `kv.list`: the backfill). */
  usersByIdentity: () => ["users_by_identity"] as const,
  /** Every user's counters (a prefix for `kv.list`: the backfill finds passports by them). */
  userStatsAll: () => ["user_stats"] as const,
  /** Every rate-limit entry (a prefix for `kv.list`: erasure finds a user's). */
  rateLimits: () => ["rate_limits"] as const,
  /** The one-time backfill of the personal-data indexes: done when set. */
  personalIndexesBackfill: () => ["personal_indexes_backfill"] as const,

  // --- The photo library (lib/db/photos.ts) ---------------------------------
  /** A photo's record (alt texts, credit, widths), by its id (a hash of its bytes): written last, so a photo is there once it is whole. */
  photo: (photoId: string) => ["photos", photoId] as const,
  /** The library's photos, newest last: `[uploadedAtMs, photoId]`. */
  photoByTime: (uploadedAtMs: number, photoId: string) =>
    ["photos_by_time", uploadedAtMs, photoId] as const,
  /** Prefix of the photos by time (a reverse `kv.list` for the library). */
  photosByTime: () => ["photos_by_time"] as const,
  /** One part (under 64 KiB) of one rendition of a photo: its width, `webp` or `jpeg`, the part's index. */
  photoChunk: (photoId: string, width: number, format: string, index: number) =>
    ["photo_chunks", photoId, width, format, index] as const,
  /** Every part of one rendition (a prefix for `kv.list`). */
  photoRenditionChunks: (photoId: string, width: number, format: string) =>
    ["photo_chunks", photoId, width, format] as const,
  /** Every part of every rendition of one photo (a prefix: cleanup). */
  photoChunks: (photoId: string) => ["photo_chunks", photoId] as const,
  /** A photo being written or deleted: its parts are there, its record not (yet, or any more); a stale one's parts are deleted. */
  photoUpload: (photoId: string) => ["photo_uploads", photoId] as const,
  /** Every photo being written (a prefix for `kv.list`: cleanup). */
  photoUploads: () => ["photo_uploads"] as const,

  // --- The portal's content (lib/db/content.ts) ------------------------------
  /** The published version in force (its record): every instance follows this key. */
  contentPublished: () => ["content_published"] as const,
  /** A published version's record, by its id (`<ISO 8601>~<random>`: sorted by time). */
  contentVersion: (versionId: string) =>
    ["content_versions", versionId] as const,
  /** Every published version (a prefix for `kv.list`: the history). */
  contentVersions: () => ["content_versions"] as const,
  /** An item's edit saved and not yet published, by part and item key. */
  contentDraft: (part: string, itemKey: string) =>
    ["content_drafts", part, itemKey] as const,
  /** What an admin decided about the content: whether editors publish. */
  contentSettings: () => ["content_settings"] as const,
  /** Every draft (a prefix for `kv.list`). */
  contentDrafts: () => ["content_drafts"] as const,
  /** One part (under 64 KiB) of a version's gzipped content. */
  contentPart: (versionId: string, index: number) =>
    ["content_parts", versionId, index] as const,

  // --- Partners and prizes (lib/db/rewards.ts) -------------------------------
  /** A partner business, by its id. */
  partner: (partnerId: string) => ["partners", partnerId] as const,
  /** Every partner (a prefix for `kv.list`). */
  partners: () => ["partners"] as const,
  /** A partner's current PIN, by its SHA-256: `{partnerId, pinVersion}`; a new PIN deletes the old one's. */
  partnerPin: (pinHash: string) => ["partner_pins", pinHash] as const,
  /** A partner's signed-in phone, by its handle (the SHA-256 of the cookie's id). */
  partnerSession: (handle: string) => ["partner_sessions", handle] as const,
  /** A prize, by its id. */
  prize: (prizeId: string) => ["prizes", prizeId] as const,
  /** Every prize (a prefix for `kv.list`). */
  prizes: () => ["prizes"] as const,
  /** Units of a prize claimed so far, `{claimed}`: checked and moved in every claim's atomic, so stock never goes below zero. */
  prizeStock: (prizeId: string) => ["prize_stock", prizeId] as const,
  /** Every prize's stock record (a prefix for `kv.list`). */
  prizeStocks: () => ["prize_stock"] as const,
  /** Units of a prize claimed on one day (the municipality's), `{claimed}`: the daily bound. */
  prizeStockOfDay: (prizeId: string, day: string) =>
    ["prize_stock_by_day", prizeId, day] as const,
  /** One passport's claims of one prize, `{claims: PrizeClaim[]}`: the per-passport limit is checked on it. */
  prizeClaims: (userId: string, prizeId: string) =>
    ["prize_claims", userId, prizeId] as const,
  /** Every claim of one passport (a prefix: the passport, export, erasure). */
  prizeClaimsOfUser: (userId: string) => ["prize_claims", userId] as const,
  /** A claim by the reference the counter types: `{userId, prizeId, claimId}`. */
  prizeClaimByReference: (reference: string) =>
    ["prize_claims_by_reference", reference] as const,
  /** Claims (`claimed`), redemptions (`redeemed`) or passports redeeming it for the first time (`people`) of a prize on one day, a `Deno.KvU64`. */
  prizeCountByDay: (day: string, prizeId: string, outcome: string) =>
    ["prize_counts_by_day", day, prizeId, outcome] as const,
  /** Prefix of the day-keyed prize counts (a range for `kv.list`). */
  prizeCountsByDay: () => ["prize_counts_by_day"] as const,
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Every lifetime a key family's entries get, in one place: the modules that
 * write with `expireIn` read their constant from here, and so do the backups'
 * expiry bound and the privacy notice's record table, so none of the three
 * can state a period the others do not keep.
 */
export const LIFETIMES = {
  /** A signed-in tourist's session (lib/oauth/sign_in.ts): 7 days. */
  accountSessionMs: 7 * DAY_MS,
  /** A guest passport's session (lib/passport/guest.ts): one year. */
  guestSessionMs: 365 * DAY_MS,
  /** How long the identity provider has to send the user back. */
  oauthFlowMs: 10 * MINUTE_MS,
  /** How long a finished ticket claim answers the same request's retry. */
  ticketClaimMs: DAY_MS,
  /** How long a staff sign-in link is valid. */
  staffLinkMs: 15 * MINUTE_MS,
  /** A staff session ends after this long without a request: 8 hours. */
  staffIdleMs: 8 * HOUR_MS,
  /** An ended staff session stays listed (and tells its browser why) this long. */
  staffExpiredKeptMs: 7 * DAY_MS,
  /** How long an audited staff action is kept: one year. */
  staffActionMs: 365 * DAY_MS,
  /** A group of unanswered questions is kept this long after its last question. */
  unansweredQuestionMs: 90 * DAY_MS,
  /** How long a day's count of opened groups is kept: the day, and a margin. */
  unansweredOpenedCountMs: 2 * DAY_MS,
  /**
   * A stored share card (route or page) is dropped after this long; a card
   * asked for after that is drawn again. A route's goes with its ticket's
   * erasure at once.
   */
  storedCardMs: 30 * DAY_MS,
  /**
   * A check-in's receipt answers its device's retries this long: longer
   * than the oldest check-in a device may still send (72 hours), with room.
   */
  checkInReceiptMs: 7 * DAY_MS,
  /** A partner's phone stays signed in this long: 90 days. */
  partnerSessionMs: 90 * DAY_MS,
  /** How long a finished erasure's record (dates and state) is kept. */
  erasureRecordKeptMs: 30 * DAY_MS,
  /**
   * A bound on every rate limit's window (the widest is an hour, in
   * lib/passport/guest.ts and lib/tickets/create_ticket.ts), with room: each
   * window is written where its limit is defined.
   */
  rateLimitBoundMs: DAY_MS,
} as const;

/** The first part of every key `keys` builds: a key family's name. */
export type KeyFamilyName = ReturnType<(typeof keys)[keyof typeof keys]>[0];

/** How long the entries of a key family live. */
export type KeyLifetime =
  /** Every entry is written with `expireIn`, never longer than `ms`. */
  | { kind: "expires"; ms: number }
  /**
   * Some entries are written with `expireIn`, others are kept until
   * something deletes them: a backup gives them no expiry.
   */
  | { kind: "mixed" }
  /** A tourist's data: kept until erased, on request or when a guest passport goes unused. */
  | { kind: "until_erased" }
  /** The service's own state, content or counts that name no one: kept. */
  | { kind: "kept" };

/** A key family: the module that writes it and how long its entries live. */
export interface KeyFamily {
  /** The module that writes (and erases) the family's entries. */
  owner: string;
  lifetime: KeyLifetime;
}

const KEPT = { kind: "kept" } as const;
const UNTIL_ERASED = { kind: "until_erased" } as const;
/** Entries written with `expireIn: ms`. */
function expiresIn(ms: number): KeyLifetime {
  return { kind: "expires", ms };
}
const SESSION_BOUND_MS = Math.max(
  LIFETIMES.accountSessionMs,
  LIFETIMES.guestSessionMs,
);
const STAFF_SESSION_MS = LIFETIMES.staffIdleMs + LIFETIMES.staffExpiredKeptMs;

/**
 * Every key family of {@linkcode keys}, with its owner and lifetime: the one
 * table retention (lib/personal_data/retention.ts), the backups' expiry
 * (lib/backup/expiry.ts) and the privacy notice read. A family `keys`
 * builds without a row here is a type error.
 */
export const KEY_FAMILIES: Readonly<Record<KeyFamilyName, KeyFamily>> = {
  health: { owner: "lib/db/kv.ts", lifetime: KEPT },
  secrets: { owner: "lib/db/secrets.ts", lifetime: KEPT },
  tickets: { owner: "lib/db/tickets.ts", lifetime: UNTIL_ERASED },
  cms_posts: { owner: "lib/db/cms_posts.ts", lifetime: UNTIL_ERASED },
  counters: { owner: "lib/db/cms_posts.ts", lifetime: KEPT },
  ticket_claims: {
    owner: "lib/db/tickets.ts",
    lifetime: expiresIn(LIFETIMES.ticketClaimMs),
  },
  tickets_by_user: { owner: "lib/db/tickets.ts", lifetime: UNTIL_ERASED },
  route_cards: {
    owner: "lib/db/card_images.ts",
    lifetime: expiresIn(LIFETIMES.storedCardMs),
  },
  route_card_parts: {
    owner: "lib/db/card_images.ts",
    lifetime: expiresIn(LIFETIMES.storedCardMs),
  },
  page_cards: {
    owner: "lib/db/card_images.ts",
    lifetime: expiresIn(LIFETIMES.storedCardMs),
  },
  page_card_parts: {
    owner: "lib/db/card_images.ts",
    lifetime: expiresIn(LIFETIMES.storedCardMs),
  },
  visits: { owner: "lib/db/visits.ts", lifetime: UNTIL_ERASED },
  check_ins: {
    owner: "lib/db/check_ins.ts",
    lifetime: expiresIn(LIFETIMES.checkInReceiptMs),
  },
  check_in_refusals: {
    owner: "lib/db/check_ins.ts",
    lifetime: expiresIn(LIFETIMES.checkInReceiptMs),
  },
  check_in_methods: { owner: "lib/db/check_in_methods.ts", lifetime: KEPT },
  visits_by_id: { owner: "lib/db/visits.ts", lifetime: UNTIL_ERASED },
  user_stats: { owner: "lib/db/visits.ts", lifetime: UNTIL_ERASED },
  badges: { owner: "lib/db/visits.ts", lifetime: UNTIL_ERASED },
  attraction_stats: { owner: "lib/db/visits.ts", lifetime: KEPT },
  attraction_visit_counts: { owner: "lib/db/visits.ts", lifetime: KEPT },
  chat_requests_by_day: { owner: "lib/limits/chat_daily.ts", lifetime: KEPT },
  rate_limits: {
    owner: "lib/db/rate_limits.ts",
    lifetime: expiresIn(LIFETIMES.rateLimitBoundMs),
  },
  sessions: {
    owner: "lib/db/sessions.ts",
    lifetime: expiresIn(SESSION_BOUND_MS),
  },
  oauth_flows: {
    owner: "lib/db/sessions.ts",
    lifetime: expiresIn(LIFETIMES.oauthFlowMs),
  },
  users_by_identity: { owner: "lib/db/sessions.ts", lifetime: UNTIL_ERASED },
  staff_sessions: {
    owner: "lib/db/staff_sessions.ts",
    lifetime: expiresIn(STAFF_SESSION_MS),
  },
  staff_links: {
    owner: "lib/db/staff_sessions.ts",
    lifetime: expiresIn(LIFETIMES.staffLinkMs),
  },
  staff_links_by_staff: {
    owner: "lib/db/staff_sessions.ts",
    lifetime: expiresIn(LIFETIMES.staffLinkMs),
  },
  staff_actions: {
    owner: "lib/db/audit.ts",
    lifetime: expiresIn(LIFETIMES.staffActionMs),
  },
  // Kept until an admin removes the member on the console.
  staff_members: { owner: "lib/db/staff_members.ts", lifetime: KEPT },
  visit_counts_by_day: { owner: "lib/db/stats.ts", lifetime: KEPT },
  visit_counts_by_hour: { owner: "lib/db/stats.ts", lifetime: KEPT },
  visit_counts_by_attraction_hour: {
    owner: "lib/db/stats.ts",
    lifetime: KEPT,
  },
  visit_counts_by_method: { owner: "lib/db/stats.ts", lifetime: KEPT },
  stamp_counts_by_day: { owner: "lib/db/stats.ts", lifetime: KEPT },
  stamp_counts: { owner: "lib/db/stats.ts", lifetime: KEPT },
  passport_counts_by_day: { owner: "lib/db/stats.ts", lifetime: KEPT },
  ticket_counts_by_day: { owner: "lib/db/stats.ts", lifetime: KEPT },
  rating_counts: { owner: "lib/db/stats.ts", lifetime: KEPT },
  rating_counts_by_month: { owner: "lib/db/stats.ts", lifetime: KEPT },
  chat_counts_by_day: { owner: "lib/db/stats.ts", lifetime: KEPT },
  notes_by_time: { owner: "lib/db/visits.ts", lifetime: UNTIL_ERASED },
  stats_backfill: { owner: "lib/db/stats_backfill.ts", lifetime: KEPT },
  published_through: { owner: "lib/db/open_data.ts", lifetime: KEPT },
  published_days: { owner: "lib/db/open_data.ts", lifetime: KEPT },
  published_months: { owner: "lib/db/open_data.ts", lifetime: KEPT },
  guide_codes: { owner: "lib/db/guide_codes.ts", lifetime: KEPT },
  // The current code is permanent; a replaced one lives through its grace
  // period. An export brings the expiring ones back permanent, and the
  // service checks their dates on read anyway, so backups give them none.
  guide_codes_by_code: {
    owner: "lib/db/guide_codes.ts",
    lifetime: { kind: "mixed" },
  },
  unanswered_questions: {
    owner: "lib/db/unanswered_questions.ts",
    lifetime: expiresIn(LIFETIMES.unansweredQuestionMs),
  },
  unanswered_questions_by_rank: {
    owner: "lib/db/unanswered_questions.ts",
    lifetime: expiresIn(LIFETIMES.unansweredQuestionMs),
  },
  unanswered_questions_opened: {
    owner: "lib/db/unanswered_questions.ts",
    lifetime: expiresIn(LIFETIMES.unansweredOpenedCountMs),
  },
  unanswered_questions_indexed: {
    owner: "lib/db/unanswered_questions.ts",
    lifetime: KEPT,
  },
  tickets_by_email: {
    owner: "lib/db/tickets.ts",
    lifetime: UNTIL_ERASED,
  },
  // Written with the session's own remaining time, like `sessions`.
  sessions_by_user: {
    owner: "lib/db/sessions.ts",
    lifetime: expiresIn(SESSION_BOUND_MS),
  },
  identities_by_user: {
    owner: "lib/db/sessions.ts",
    lifetime: UNTIL_ERASED,
  },
  passports_last_seen: {
    owner: "lib/db/passport_activity.ts",
    lifetime: UNTIL_ERASED,
  },
  passports_by_last_seen: {
    owner: "lib/db/passport_activity.ts",
    lifetime: UNTIL_ERASED,
  },
  // A running erasure is kept until it finishes; its record then lives
  // `LIFETIMES.erasureRecordKeptMs`.
  erasures: { owner: "lib/db/erasures.ts", lifetime: { kind: "mixed" } },
  erasures_pending: { owner: "lib/db/erasures.ts", lifetime: KEPT },
  erasures_by_user: { owner: "lib/db/erasures.ts", lifetime: KEPT },
  erased_share_codes: { owner: "lib/db/tickets.ts", lifetime: KEPT },
  // Permanent: an identity provider's token may name an erased id at any
  // time (own tokens live 30 days at most). A hash, no date: no one named.
  erased_users: { owner: "lib/db/erased_users.ts", lifetime: KEPT },
  route_changes: { owner: "lib/db/route_changes.ts", lifetime: KEPT },
  personal_indexes_backfill: {
    owner: "lib/db/personal_indexes.ts",
    lifetime: KEPT,
  },
  // The photo library is content: kept, in backups, until an admin deletes
  // it. A photo_uploads entry lives while its photo is written or deleted,
  // and a stale one (an interrupted write or deletion) is deleted with its
  // parts by the next upload or deletion.
  photos: { owner: "lib/db/photos.ts", lifetime: KEPT },
  photos_by_time: { owner: "lib/db/photos.ts", lifetime: KEPT },
  photo_chunks: { owner: "lib/db/photos.ts", lifetime: KEPT },
  photo_uploads: { owner: "lib/db/photos.ts", lifetime: KEPT },
  // Every published version is kept: the history, its diffs and reverts.
  content_published: { owner: "lib/db/content.ts", lifetime: KEPT },
  content_versions: { owner: "lib/db/content.ts", lifetime: KEPT },
  content_parts: { owner: "lib/db/content.ts", lifetime: KEPT },
  // A draft lives until it is published or discarded.
  content_drafts: { owner: "lib/db/content.ts", lifetime: KEPT },
  content_settings: { owner: "lib/db/content.ts", lifetime: KEPT },
  // Partners, their PINs and prizes are the office's own settings, and the
  // stock and day counts name no one: kept. A claim names its passport:
  // erased with it.
  partners: { owner: "lib/db/rewards.ts", lifetime: KEPT },
  partner_pins: { owner: "lib/db/rewards.ts", lifetime: KEPT },
  partner_sessions: {
    owner: "lib/db/rewards.ts",
    lifetime: expiresIn(LIFETIMES.partnerSessionMs),
  },
  prizes: { owner: "lib/db/rewards.ts", lifetime: KEPT },
  prize_stock: { owner: "lib/db/rewards.ts", lifetime: KEPT },
  prize_stock_by_day: { owner: "lib/db/rewards.ts", lifetime: KEPT },
  prize_claims: { owner: "lib/db/rewards.ts", lifetime: UNTIL_ERASED },
  prize_claims_by_reference: {
    owner: "lib/db/rewards.ts",
    lifetime: UNTIL_ERASED,
  },
  prize_counts_by_day: { owner: "lib/db/rewards.ts", lifetime: KEPT },
};

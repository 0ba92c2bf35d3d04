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
};

/**
 * How long a route card's PNG read from KV is kept in an instance's memory:
 * it is served again only after the ticket (the tombstone with it) and the
 * stamps it was drawn from were read and found unchanged, and dropped
 * within this time, as the route pages' copies are. The privacy notice
 * states it (lib/personal_data/retention.ts).
 */
export const ROUTE_CARD_MEMORY_MS = 10_000;

/**
 * How long an instance answers a route card's URL from memory, without a KV
 * read: this instance's writes drop it at once, a rename or an erasure on
 * another instance within a second (the `route_changes` watcher, deps.ts),
 * a visit or a badge there within this time, as with `/ruta/<code>`.
 */
export const ROUTE_CARD_ANSWER_MS = 2_000;

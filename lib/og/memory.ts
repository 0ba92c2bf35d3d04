/**
 * How long a route card's PNG read from KV is kept in an instance's memory:
 * it is served again only after the ticket (the tombstone with it) and the
 * stamps it was drawn from were read and found unchanged, and dropped
 * within this time, as the route pages' copies are. The privacy notice
 * states it (lib/personal_data/retention.ts).
 */
export const ROUTE_CARD_MEMORY_MS = 10_000;

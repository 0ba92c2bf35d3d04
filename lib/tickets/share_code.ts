/**
 * A ticket's share code, made by the client: 4 to 64 of `A-Z a-z 0-9 _ -`,
 * matched without regard to case (KV keeps it in lower case). The one rule
 * for the ticket endpoint, the route page and the share card.
 */
export const SHARE_CODE_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;

/** Whether `value` can be a share code (anything else is a 404 without a KV read). */
export function isShareCode(value: string): boolean {
  return SHARE_CODE_PATTERN.test(value);
}

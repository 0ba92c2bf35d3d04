/**
 * What counts as an e-mail address, without loading zod: zod's own pattern
 * (`z.regexes.email`, what the schemas' `z.email()` checks), so a staff
 * member's address in `STAFF` or the console and a visitor's on a ticket
 * follow one rule. email_test.ts fails if zod's pattern ever changes.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** Whether `value` is an e-mail address (as given: trim and lower-case first). */
export function isEmailAddress(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/**
 * The code a tourist shows at a partner's counter: the claim's reference
 * (five characters, fixed) and four digits that change every
 * {@linkcode COUNTER_CODE_STEP_MS}, an HMAC of the time step under the
 * claim's secret (TOTP's idea, RFC 6238). The phone computes it offline from
 * the secret it was given when the prize was claimed; the partner's check
 * accepts the current step and the one before, so a screenshot stops working
 * within a minute. No Deno or DOM API beyond WebCrypto: the passport's
 * island imports this file too.
 */

/** How long one set of four digits holds. */
export const COUNTER_CODE_STEP_MS = 30_000;
/** Steps before the current one the check still accepts (a slow typist, a phone's clock a little off). */
export const COUNTER_CODE_PAST_STEPS = 1;
/** Steps after it (the tourist's clock a little ahead). */
export const COUNTER_CODE_FUTURE_STEPS = 1;

/** Letters and digits that cannot be misread across a counter (no 0/O, 1/I/L). */
export const REFERENCE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const REFERENCE_LENGTH = 5;
const DIGITS = 4;

/** A new random claim reference. */
export function newClaimReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(REFERENCE_LENGTH));
  // 256 % 31 = 8: the bias is under 4 % per character and buys nothing to a
  // guesser, who also needs the four digits of the moment.
  return Array.from(bytes, (b) => REFERENCE_ALPHABET[b % 31]).join("");
}

/** A new claim secret: 20 random bytes, base64url. */
export function newClaimSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-")
    .replaceAll("/", "_").replace(/=+$/, "");
}

/** The time step of `atMs`. */
export function counterCodeStep(atMs: number): number {
  return Math.floor(atMs / COUNTER_CODE_STEP_MS);
}

function decodeSecret(secret: string): Uint8Array<ArrayBuffer> {
  const base64 = secret.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - base64.length % 4) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The four digits of `step` under `secret`. */
export async function counterDigits(
  secret: string,
  step: number,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    decodeSecret(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const message = new DataView(new ArrayBuffer(8));
  message.setBigUint64(0, BigInt(step));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  // RFC 4226's dynamic truncation.
  const offset = mac[mac.length - 1] & 0x0f;
  const value = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) |
    (mac[offset + 2] << 8) | mac[offset + 3];
  return String(value % 10 ** DIGITS).padStart(DIGITS, "0");
}

/** What the counter sees: the reference and the digits of the moment. */
export async function counterCode(
  { reference, secret }: { reference: string; secret: string },
  atMs: number,
): Promise<{ reference: string; digits: string; validUntilMs: number }> {
  const step = counterCodeStep(atMs);
  return {
    reference,
    digits: await counterDigits(secret, step),
    validUntilMs: (step + 1) * COUNTER_CODE_STEP_MS,
  };
}

/**
 * A typed code split into its reference and digits, tolerant of what staff
 * type: spaces, dashes, lower case, an O among the digits. Null when it cannot be one.
 */
export function parseCounterCode(
  typed: string,
): { reference: string; digits: string } | null {
  const compact = typed.toUpperCase().replace(/[\s·.\-_]/g, "");
  if (compact.length !== REFERENCE_LENGTH + DIGITS) return null;
  const reference = compact.slice(0, REFERENCE_LENGTH);
  const digits = compact.slice(REFERENCE_LENGTH).replaceAll("O", "0");
  if (![...reference].every((c) => REFERENCE_ALPHABET.includes(c))) return null;
  if (!/^\d{4}$/.test(digits)) return null;
  return { reference, digits };
}

/** Whether `digits` are the code of a step the check accepts at `atMs`. */
export async function isCurrentCounterCode(
  secret: string,
  digits: string,
  atMs: number,
): Promise<boolean> {
  const now = counterCodeStep(atMs);
  let match = false;
  for (
    let step = now - COUNTER_CODE_PAST_STEPS;
    step <= now + COUNTER_CODE_FUTURE_STEPS;
    step++
  ) {
    // Every step is computed: the time taken says nothing of which matched.
    if ((await counterDigits(secret, step)) === digits) match = true;
  }
  return match;
}

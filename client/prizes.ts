/**
 * The passport's prizes on the device: the newest list the passport page
 * brought or the API gave (`GET /api/turismo/prizes`), claims and their
 * secrets included, kept in localStorage with when it was saved, so the
 * redemption screen opens at a counter with no signal. The server is the
 * truth: a newer list replaces it; the device never marks a claim
 * redeemed itself.
 */

/** A claim as the API gives it to the passport's own bearer. */
export interface PassportClaim {
  claimId: string;
  reference: string;
  secret: string;
  claimedAt: string;
  redeemedAt: string | null;
}

/** A prize as `GET /api/turismo/prizes` lists it. */
export interface PassportPrize {
  prizeId: string;
  name: string;
  description: string;
  partner: {
    name: string;
    address: string;
    hours: string | null;
    mapUrl: string | null;
  };
  validUntil: string;
  progress: { have: number; need: number; unlocked: boolean };
  refusal: "paused" | "not_yet" | "expired" | "out_of_stock" | null;
  requiresAccount: boolean;
  claimsLeft: number;
  claims: PassportClaim[];
}

const CACHE_KEY = "pasaporte-premios";

/** The cached list and when it was saved (ms), or null (none yet, or storage refused). */
export function readCachedPrizes(
  lang: string,
): { prizes: PassportPrize[]; savedAt: number } | null {
  try {
    // The names are in the language of the page that fetched them.
    const stored = JSON.parse(
      localStorage.getItem(`${CACHE_KEY}-${lang}`) ?? "null",
    );
    return Array.isArray(stored?.prizes)
      ? { prizes: stored.prizes, savedAt: Number(stored.savedAt) || 0 }
      : null;
  } catch {
    return null;
  }
}

export function saveCachedPrizes(
  lang: string,
  prizes: PassportPrize[],
  savedAt = Date.now(),
) {
  try {
    localStorage.setItem(
      `${CACHE_KEY}-${lang}`,
      JSON.stringify({ prizes, savedAt }),
    );
  } catch {
    // A full or refused storage: the list still shows while the page is open.
  }
}

/** Forgets the list (sign-out, erasure). */
export function clearCachedPrizes() {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key?.startsWith(CACHE_KEY)) localStorage.removeItem(key);
    }
  } catch {
    // Nothing to forget.
  }
}

/**
 * Hides an "Abierto ahora · cierra a las 18:00" line once it no longer
 * holds. The server's page is right when it is sent (its cache entry ends
 * at the line's next change), but a page the service worker kept for
 * offline use, or a tab left open, outlives it: the line carries its end
 * (`data-hours-until`, epoch ms) and goes at that moment, leaving the days'
 * table, which is read by the day.
 */

/** Timers longer than this would overflow (`setTimeout` takes 32 bits). */
const MAX_TIMEOUT_MS = 2_147_483_647;

export function hideStaleHours(now: () => number = Date.now): void {
  const lines = document.querySelectorAll<HTMLElement>("[data-hours-until]");
  for (const line of lines) {
    const until = Number(line.dataset.hoursUntil);
    if (!Number.isFinite(until)) continue;
    const left = until - now();
    if (left <= 0) line.hidden = true;
    else if (left < MAX_TIMEOUT_MS) {
      setTimeout(() => line.hidden = true, left);
    }
  }
}

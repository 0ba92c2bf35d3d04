/**
 * The pages' side of the offline mode: registers the service worker
 * (client/service_worker.ts, served at `/sw.js`) once the page has loaded,
 * so a first visit downloads nothing more before it is shown, and clears the
 * tourist's cached pages when they sign out or erase their passport.
 */
import { PERSONAL_CACHE, type WorkerMessage } from "./offline_config.ts";

/** Forms whose submission ends the tourist's data on this device. */
const CLEARING_FORM = /\/(?:auth\/signout|mi-pasaporte\/borrar)$/;
/** Of those, the sign-out: the tourist's pending check-ins still count. */
const SIGN_OUT_FORM = /\/auth\/signout$/;

/** The longest a sign-out waits for the device to be cleared. */
const CLEAR_TIMEOUT_MS = 2_000;
/** The longest a sign-out waits for pending check-ins to be sent. */
const SEND_PENDING_TIMEOUT_MS = 5_000;

/**
 * Deletes the cache of the tourist's own pages (passport, route pages), so
 * the next person on this device cannot open them offline. Safe without a
 * worker or Cache Storage.
 */
export async function clearPersonalCaches(): Promise<void> {
  if (!("caches" in globalThis)) return;
  await Promise.all([caches.delete(PERSONAL_CACHE), forgetInWorker()]);
}

/**
 * Tells the worker to forget the personal pages: a page it is still
 * fetching into that cache (the route page the passport warms) would
 * otherwise be stored after the page deleted the cache.
 */
async function forgetInWorker(): Promise<void> {
  const worker = navigator.serviceWorker?.controller ??
    (await navigator.serviceWorker?.getRegistration())?.active;
  if (!worker) return;
  const { port1, port2 } = new MessageChannel();
  const answered = new Promise<void>((resolve) => {
    port1.onmessage = () => resolve();
  });
  const message: WorkerMessage = { type: "forget-personal" };
  worker.postMessage(message, [port2]);
  await answered;
}

/**
 * Starts the offline mode on a page: registers `/sw.js` after the `load`
 * event and asks the worker to keep the page's language; clears the device
 * before a sign-out or an erasure is sent.
 */
export function startOffline(): void {
  document.addEventListener("submit", clearBeforeLeaving, true);
  if (!("serviceWorker" in navigator)) return;
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

function register(): void {
  const lang = document.documentElement.lang.split("-")[0];
  navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      const message: WorkerMessage = { type: "warm", lang };
      registration.active?.postMessage(message);
    })
    .catch(() => {
      // No worker (private mode, an old browser): the pages work online.
    });
}

/** Forms being cleared for: a second tap meanwhile is ignored, not sent. */
const held = new WeakSet<HTMLFormElement>();
/** Forms cleared for, sent on as they are. */
const released = new WeakSet<HTMLFormElement>();

/**
 * A sign-out or erasure form: hold it, delete the personal pages, the
 * check-in queue and the device's passport, then send it. The server's
 * answer also says `Clear-Site-Data`, where the browser honours it.
 *
 * A sign-out first sends the check-ins still pending (typed with no
 * signal); any that cannot be sent would be lost with the queue, so the
 * tourist is asked first and may stay signed in until they are sent.
 */
function clearBeforeLeaving(event: SubmitEvent): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || released.has(form)) return;
  const path = new URL(form.action).pathname;
  if (!CLEARING_FORM.test(path)) return;
  event.preventDefault();
  if (held.has(form)) return;
  held.add(form);
  const submitter = event.submitter;
  const ready = SIGN_OUT_FORM.test(path)
    ? sendPendingOrConfirm(form)
    : Promise.resolve(true);
  ready.then((leave) => {
    if (!leave) {
      held.delete(form);
      return;
    }
    const timeout = new Promise((resolve) =>
      setTimeout(resolve, CLEAR_TIMEOUT_MS)
    );
    Promise.race([clearDevice(), timeout]).finally(() => {
      released.add(form);
      form.requestSubmit(submitter instanceof HTMLElement ? submitter : null);
    });
  });
}

/**
 * Sends the pending check-ins (at most {@linkcode SEND_PENDING_TIMEOUT_MS});
 * true when none is left, or when the tourist, told how many would be lost,
 * signs out anyway. The warning's words come from the form, in the page's
 * language (`data-pending-one`, `data-pending-other` with `{count}`).
 */
async function sendPendingOrConfirm(form: HTMLFormElement): Promise<boolean> {
  let pending: number;
  try {
    const queue = await import("./check_in_queue.ts");
    const lang = document.documentElement.lang.split("-")[0];
    const timeout = new Promise<void>((resolve) =>
      setTimeout(resolve, SEND_PENDING_TIMEOUT_MS)
    );
    await Promise.race([queue.syncQueuedCheckIns({ lang }), timeout]);
    pending = (await queue.listQueuedCheckIns())
      .filter((item) => item.status === "pending").length;
  } catch {
    return true; // No IndexedDB here: nothing was ever queued.
  }
  if (pending === 0) return true;
  const { pendingOne, pendingOther } = form.dataset;
  const warning = pending === 1 ? pendingOne : pendingOther;
  if (!warning) return true;
  return confirm(warning.replace("{count}", String(pending)));
}

async function clearDevice(): Promise<void> {
  await Promise.allSettled([
    clearPersonalCaches(),
    import("./check_in_queue.ts").then((m) => m.clearCheckInQueue()),
    import("./device_passport.ts").then((m) => m.clearDevicePassport()),
    import("./prizes.ts").then((m) => m.clearCachedPrizes()),
  ]);
}

import { useState } from "preact/hooks";
import type { Translate } from "./messages.ts";

/** Where "usar mi ubicación" stands. */
export type LocationState = "off" | "asking" | "on" | "error";

/**
 * What the chat and the services directory say about the location, by
 * state, from the shared `location` namespace of the island's messages
 * (nothing while it is off).
 */
export function describeLocation(state: LocationState, t: Translate): string {
  return state === "off" ? "" : t(`location.${state}`);
}

/**
 * The visitor's position for the chat, asked only when they switch it on
 * (the Geolocation API prompts), rounded to about 10 m: plenty for "what is
 * near me", less precise to send.
 */
export function useGeolocation() {
  const [location, setLocation] = useState<{ lat: number; lng: number } | null>(
    null,
  );
  const [state, setState] = useState<LocationState>("off");

  function toggle() {
    if (location || state === "asking") {
      setLocation(null);
      setState("off");
      return;
    }
    if (!("geolocation" in navigator)) return setState("error");
    setState("asking");
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        const round = (n: number) => Math.round(n * 1e4) / 1e4;
        setLocation({
          lat: round(coords.latitude),
          lng: round(coords.longitude),
        });
        setState("on");
      },
      () => setState("error"),
      { timeout: 10_000, maximumAge: 300_000 },
    );
  }

  return { location, state, toggle };
}

/** Why a precise position could not be had. */
export type LocateFailure =
  | "denied"
  | "unavailable"
  | "timeout"
  | "unsupported";

/** A position for a check-in: where the phone is, and how sure it is (metres). */
export type PrecisePosition = { lat: number; lng: number; accuracy: number };

/**
 * The phone's position as precise as it can give it (GPS where it has
 * one), not rounded: a check-in is decided on it (and then forgotten).
 * Works offline. Rejects with a {@linkcode LocateFailure}.
 */
export function getPrecisePosition(
  { timeoutMs = 20_000 }: { timeoutMs?: number } = {},
): Promise<PrecisePosition> {
  return new Promise((resolve, reject) => {
    const geolocation = globalThis.navigator?.geolocation;
    if (!geolocation) return reject("unsupported" satisfies LocateFailure);
    geolocation.getCurrentPosition(
      ({ coords }) =>
        resolve({
          lat: coords.latitude,
          lng: coords.longitude,
          accuracy: coords.accuracy,
        }),
      (error) =>
        reject(
          (error.code === error.PERMISSION_DENIED
            ? "denied"
            : error.code === error.TIMEOUT
            ? "timeout"
            : "unavailable") satisfies LocateFailure,
        ),
      // A fix of the last half minute is still here; an older one may not be.
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 30_000 },
    );
  });
}

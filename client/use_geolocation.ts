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

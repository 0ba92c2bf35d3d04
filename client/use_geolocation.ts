import { useState } from "preact/hooks";

/** Where "usar mi ubicación" stands. */
export type LocationState = "off" | "asking" | "on" | "error";

/** What the chat says about the location, by state. */
export const LOCATION_TEXT: Record<LocationState, string> = {
  off: "",
  asking: "Buscando tu ubicación…",
  on: "Ubicación activada: te recomendaré lo más cercano.",
  error: "No pudimos obtener tu ubicación. Revisa los permisos del navegador.",
};

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

import { useEffect, useMemo, useState } from "preact/hooks";
import { Icon } from "@/components/Icon.tsx";
import { describeLocation, useGeolocation } from "@/client/use_geolocation.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";

/** Its messages: `nearme`, with the shared `location`. */
export type NearMeProps = IslandLanguage & {
  /** Whether the page is already sorted by a location (`?cerca=`). */
  active: boolean;
};

/**
 * "Usar mi ubicación" on the services directory: the same opt-in as the
 * chat (the browser asks; the position is rounded to about 10 m), then the
 * page reloads with `?cerca=lat,lng`, keeping `?tipo=`, and the server sorts
 * by distance. Hidden until hydrated: without JavaScript it could not work
 * (the page says so in a `<noscript>`).
 */
export default function NearMe({ active, locale, messages }: NearMeProps) {
  const t = useMemo(() => createTranslate(messages, locale), [
    messages,
    locale,
  ]);
  const [ready, setReady] = useState(false);
  const geo = useGeolocation();

  useEffect(() => setReady(true), []);

  useEffect(() => {
    if (!geo.location) return;
    const url = new URL(location.href);
    url.searchParams.set("cerca", `${geo.location.lat},${geo.location.lng}`);
    url.search = url.search.replaceAll("%2C", ",");
    url.hash = "lista";
    location.assign(url.href);
  }, [geo.location]);

  const status = geo.location
    ? t("sorting")
    : describeLocation(geo.state === "on" ? "off" : geo.state, t);
  return (
    <div class="near-me" hidden={!ready}>
      <button
        type="button"
        class="button"
        disabled={geo.state === "asking" || geo.location !== null}
        onClick={geo.toggle}
      >
        <Icon name="locate" />
        {active ? t("update") : t("location.use")}
      </button>
      <p class="near-me__status" role="status">{status}</p>
    </div>
  );
}

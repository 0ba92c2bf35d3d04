import type { ComponentChildren } from "preact";
import { render } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { Icon } from "@/components/Icon.tsx";
import {
  type DeviceStamp,
  watchDeviceStamps,
} from "@/client/device_passport.ts";
import { createTranslate, type IslandLanguage } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";

/** Its messages: `page_attractions`' `stamp*` keys. */
export type StampMarksProps = IslandLanguage;

/**
 * The places of a list already in the tourist's passport, from the
 * device's copy (so the marks show offline too, and the page itself stays
 * public and cached): "Sellado" or "Pendiente" in each card's stamp slot
 * (`data-stamp-slot="<slug>"`, left empty by the server), and a line saying
 * how many. Words, not colour alone; kept up to date while the page is open.
 */
export default function StampMarks(props: StampMarksProps) {
  const { lang, locale } = props;
  const t = useMemo(
    () => createTranslate(props.messages, locale),
    [props.messages, locale],
  );
  const [stamps, setStamps] = useState<Map<string, DeviceStamp>>(new Map());
  useEffect(() => watchDeviceStamps(setStamps), []);

  useEffect(() => {
    const slots = document.querySelectorAll<HTMLElement>("[data-stamp-slot]");
    for (const slot of slots) {
      const stamp = stamps.get(slot.dataset.stampSlot ?? "");
      render(stamp ? <Mark status={stamp.status} t={t} /> : null, slot);
    }
  }, [stamps, t]);

  let collected = 0;
  let pending = 0;
  for (const stamp of stamps.values()) {
    if (stamp.status === "verified") collected++;
    else pending++;
  }
  if (collected + pending === 0) return null;
  return (
    <p class="stamp-summary">
      <Icon name="check" />
      <span>
        {t.rich("stampsSummary", {
          collected,
          pending,
          link: (text: ComponentChildren[]) => (
            <a href={localizePath(lang, "/mi-pasaporte")}>{text}</a>
          ),
        })}
      </span>
    </p>
  );
}

function Mark(
  { status, t }: {
    status: DeviceStamp["status"];
    t: ReturnType<typeof createTranslate>;
  },
) {
  const verified = status === "verified";
  return (
    <span class={`stamp-mark stamp-mark--${status}`}>
      <Icon name={verified ? "check" : "clock"} />
      {t(verified ? "stampCollected" : "stampPending")}
    </span>
  );
}

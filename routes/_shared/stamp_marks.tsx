import { Island } from "@/components/Island.tsx";
import StampMarks from "@/islands/StampMarks.tsx";
import { getIslandMessages, type Lang } from "@/lib/i18n/mod.ts";

/**
 * The StampMarks island of a page whose attraction cards have a stamp slot
 * (the attraction list, the home page): it marks the places in the
 * device's passport in the browser, so the page itself stays public and
 * cached. Its messages are `page_attractions`' `stamp*` keys, nothing more.
 */
export function StampMarksIsland({ lang }: { lang: Lang }) {
  const { messages, ...language } = getIslandMessages(
    lang,
    "page_attractions",
  );
  return (
    <Island
      name="StampMarks"
      component={StampMarks}
      props={{
        ...language,
        messages: Object.fromEntries(
          Object.entries(messages).filter(([key]) => key.startsWith("stamp")),
        ),
      }}
    />
  );
}

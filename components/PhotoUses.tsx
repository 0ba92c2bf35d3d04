import type { PhotoUse } from "@/lib/photos/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";

/** Where the data set shows a photo (the console, in Spanish): each item a link to its public page. */
export function PhotoUses({ uses }: { uses: PhotoUse[] }) {
  if (uses.length === 0) return <>{t(DEFAULT_LANG, "panel_photos.usesNone")}</>;
  return (
    <ul class="plain-list">
      {uses.map((use) => (
        <li key={`${use.kind}:${use.slug}`}>
          <a href={use.path}>
            {t(DEFAULT_LANG, `panel_photos.use.${use.kind}`, {
              name: use.name,
            })}
          </a>
        </li>
      ))}
    </ul>
  );
}

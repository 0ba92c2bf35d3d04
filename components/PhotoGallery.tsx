import type { PhotoSources } from "@/lib/photos/mod.ts";
import { type Lang, t } from "@/lib/i18n/mod.ts";

/**
 * A photo of the library as `<picture>`: WebP `srcset` with the JPEG
 * fallback, `sizes`, its width and height (its room is kept before it
 * loads: no layout shift), its alt text in the page's language and its
 * credit. `eager` for the first photo a page shows, `lazy` below the fold.
 */
export function Photo(
  { photo, lang, eager = false, sizes = "(min-width: 64rem) 60rem, 100vw" }: {
    photo: PhotoSources;
    lang: Lang;
    eager?: boolean;
    sizes?: string;
  },
) {
  return (
    <figure class="photo">
      <picture>
        <source type="image/webp" srcset={photo.webpSrcset} sizes={sizes} />
        <img
          src={photo.src}
          srcset={photo.jpegSrcset}
          sizes={sizes}
          width={photo.width}
          height={photo.height}
          alt={photo.alt}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          {...(eager ? { fetchpriority: "high" } : {})}
        />
      </picture>
      <figcaption class="photo__credit">
        {t(lang, "photos.credit", { credit: photo.credit })}
      </figcaption>
    </figure>
  );
}

/**
 * A page's (or an item's) photos: the first eager when `eagerFirst` (the
 * photo at the top of a page), the rest lazy; nothing when there are none.
 * `sizes` is the width the photos take: the page's column by default.
 */
export function PhotoGallery(
  { photos, lang, eagerFirst = false, sizes }: {
    photos: PhotoSources[];
    lang: Lang;
    eagerFirst?: boolean;
    sizes?: string;
  },
) {
  if (photos.length === 0) return null;
  return (
    <div class="photo-gallery">
      {photos.map((photo, i) => (
        <Photo
          key={photo.id}
          photo={photo}
          lang={lang}
          eager={eagerFirst && i === 0}
          {...(sizes ? { sizes } : {})}
        />
      ))}
    </div>
  );
}

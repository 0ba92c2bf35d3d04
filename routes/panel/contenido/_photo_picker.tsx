import type { StoredPhoto } from "@/lib/photos/mod.ts";
import { photoUrl } from "@/lib/photos/mod.ts";
import { trContent as tr } from "./_content.tsx";

/**
 * An item's photos as a list of the library's photos to tick, each with
 * its thumbnail, alt texts and credit: the ticked ones first, in the
 * order the page shows them (the first is the page's main photo), then
 * the rest of the library, newest first. The form sends one `name` per
 * ticked photo, in that order, and the one marked main (`fotoPrincipal`),
 * which the route puts first (ticking it if it was not). A chosen id
 * the library no longer holds stays ticked, named as such, until the
 * editor unticks it.
 */
export function PhotoPicker(
  { name, labelId, chosen, library, errorId, errors }: {
    name: string;
    labelId: string;
    /** The item's photo ids, in its order. */
    chosen: string[];
    /** The chosen photos the library holds and the library's newest. */
    library: StoredPhoto[];
    errorId: string;
    errors?: string[];
  },
) {
  const byId = new Map(library.map((photo) => [photo.id, photo]));
  const rest = library.filter((photo) => !chosen.includes(photo.id));
  return (
    <div
      class="content-form__cell photo-picker"
      role="group"
      aria-labelledby={labelId}
      aria-describedby={errors ? errorId : undefined}
    >
      {chosen.length + rest.length === 0 && <p>{tr("photos.none")}</p>}
      <ul class="photo-picker__list">
        {chosen.map((id, i) => (
          <PhotoChoice
            key={id}
            name={name}
            id={id}
            photo={byId.get(id)}
            checked
            main={i === 0}
          />
        ))}
        {rest.map((photo) => (
          <PhotoChoice
            key={photo.id}
            name={name}
            id={photo.id}
            photo={photo}
            checked={false}
          />
        ))}
      </ul>
      <span class="content-form__hint">
        {tr("photos.hint")}{" "}
        <a href="/panel/fotos" target="_blank">{tr("photos.upload")}</a>
      </span>
      {errors && (
        <span class="field-error" id={errorId}>{errors.join(" · ")}</span>
      )}
    </div>
  );
}

function PhotoChoice(
  { name, id, photo, checked, main = false }: {
    name: string;
    id: string;
    photo: StoredPhoto | undefined;
    checked: boolean;
    /** The item's main photo (its first). */
    main?: boolean;
  },
) {
  const thumb = photo?.renditions[0];
  return (
    <li class="photo-picker__item">
      <label class="photo-picker__choice">
        <input type="checkbox" name={name} value={id} checked={checked} />
        {thumb
          ? (
            <img
              src={photoUrl(id, thumb.width, "webp")}
              width={96}
              height={Math.round(96 * thumb.height / thumb.width)}
              alt=""
              loading="lazy"
            />
          )
          : <span class="photo-picker__gone" aria-hidden="true">?</span>}
        <span>
          {photo
            ? (
              <>
                <span lang="es">{photo.alt.es}</span>
                <br />
                <span class="content-form__hint">
                  <span lang="en">{photo.alt.en}</span> ·{" "}
                  {tr("photos.credit", { credit: photo.credit })}
                </span>
              </>
            )
            : tr("photos.gone", { id })}
        </span>
      </label>
      {photo && (
        <label class="photo-picker__main">
          <input
            type="radio"
            name="fotoPrincipal"
            value={id}
            checked={main}
          />
          {tr("photos.main")}
          <span class="sr-only">: {photo.alt.es}</span>
        </label>
      )}
    </li>
  );
}

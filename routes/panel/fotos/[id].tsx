import type { AppDeps } from "@/deps.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import {
  findPhotoUses,
  type PhotoUse,
  type StoredPhoto,
} from "@/lib/photos/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "../_page.tsx";
import { PhotoUses } from "@/components/PhotoUses.tsx";

function tr(key: string, values?: Record<string, string | number>): string {
  return t(DEFAULT_LANG, `panel_photos.${key}`, values);
}

const notFound = () => new NotFoundError({ key: "panel_photos.notFound" });

/**
 * Deleting a photo of the library (admins). `POST /:id/borrar/confirmar`
 * (the row's button) changes nothing: it shows the photo and the pages
 * that stop showing it. `POST /:id/borrar` (the confirmation's button)
 * deletes it with every rendition (audited), drops the cached pages that
 * showed it, and goes back to the library (303, `?borrada=<id>`). An id the
 * library does not hold is a 404.
 */
export default function photoDeletion(deps: AppDeps) {
  return createPanelRouter(deps)
    .post("/:id/borrar/confirmar", requireAdmin(), async (c) => {
      const [photo] = await deps.photos.getPhotos([c.req.param("id")]);
      if (!photo) throw notFound();
      const uses = findPhotoUses(deps.data.current().data).get(photo.id);
      return renderPanelPage(c, deps, {
        title: tr("confirmTitle"),
        active: "fotos",
        children: <DeletionConfirmation photo={photo} uses={uses ?? []} />,
      });
    })
    .post("/:id/borrar", requireAdmin(), async (c) => {
      const deleted = await deps.photos.delete(
        c.req.param("id"),
        getStaff(c),
      );
      if (!deleted) throw notFound();
      deps.onChange({ kind: "photo_deleted", photoId: deleted.id });
      return c.redirect(`/panel/fotos?borrada=${deleted.id}`, 303);
    });
}

function DeletionConfirmation(
  { photo, uses }: { photo: StoredPhoto; uses: PhotoUse[] },
) {
  const thumb = photo.renditions[0];
  return (
    <section class="code-confirm" aria-label={tr("confirmRegion")}>
      <img
        src={`/fotos/${photo.id}-${thumb.width}.webp`}
        width={240}
        height={Math.round(240 * thumb.height / thumb.width)}
        alt={photo.alt.es}
      />
      <p class="code-confirm__consequence">
        {tr("confirmLead", { alt: photo.alt.es, id: photo.id })}
      </p>
      {uses.length > 0
        ? (
          <>
            <p>{tr("confirmUses")}</p>
            <PhotoUses uses={uses} />
            <p>{tr("confirmAfter")}</p>
          </>
        )
        : <p>{tr("confirmNoUses")}</p>}
      <form
        class="code-confirm__actions"
        method="post"
        action={`/panel/fotos/${photo.id}/borrar`}
      >
        <button class="button button--danger" type="submit">
          {tr("confirmDelete")}
        </button>{" "}
        <a class="button button--ghost" href="/panel/fotos">
          {tr("cancel")}
        </a>
      </form>
    </section>
  );
}

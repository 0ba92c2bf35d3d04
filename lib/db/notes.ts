/**
 * Who may read a tourist's note: the one rule of a note an admin hid
 * (`Visit.notesHiddenAt`, set by lib/db/moderation.ts). Its text reaches
 * its author (their passport and their data download) and the
 * moderation list (`/panel/notas`, admins only), where it can be shown
 * again; every other reader (the console's dashboard, attraction pages,
 * exports, workbook and report, and every public page) reads it as absent,
 * whatever the reader's role. Every reader of notes in lib/ takes the
 * note's text from {@linkcode readNote}, naming who it reads for.
 *
 * @module
 */

/**
 * Who a note is read for: `author` (the tourist who wrote it), `moderation`
 * (the admins' moderation list) or `others` (everyone and everything else).
 */
export type NoteReader = "author" | "moderation" | "others";

/** The fields of a stored visit the rule reads. */
export interface NoteFields {
  notes?: string | null;
  /** When an admin hid the notes (ISO 8601); absent or null while they show. */
  notesHiddenAt?: string | null;
}

/**
 * The visit's notes as `reader` may read them: null when it has none, or
 * when an admin hid them and `reader` is `others`.
 */
export function readNote(visit: NoteFields, reader: NoteReader): string | null {
  if (!visit.notes) return null;
  return visit.notesHiddenAt && reader === "others" ? null : visit.notes;
}

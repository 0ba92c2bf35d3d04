/**
 * What a write changed, as the domain operations report it (through their
 * `onChange`). One place, `openDeps`, turns each change into the caches it
 * makes stale, so a new write path cannot forget to.
 */
export type DataChange =
  /**
   * A visit was recorded: the user's route and the attraction's counts.
   * `shareCode`: the user's ticket's, or null, when the write read it.
   */
  | { kind: "visit"; userId: string; slug: string; shareCode?: string | null }
  /** A visit's rating or notes changed: the route and the attraction's average. */
  | { kind: "rating"; userId: string; slug: string }
  /** An admin hid a visit's notes from the public pages, or showed them again. */
  | { kind: "note_visibility"; userId: string; slug: string }
  /** An admin changed how visits are checked in at an attraction: its page. */
  | { kind: "check_in_rule"; slug: string }
  /** An admin deleted a photo of the library: the pages and cards that showed it. */
  | { kind: "photo_deleted"; photoId: string }
  /** A ticket was created or found again, linked to a user or not. */
  | { kind: "ticket"; shareCode: string; userId: string | null }
  /** A guest passport moved into an account: both routes and these attractions. */
  | { kind: "merge"; fromUserId: string; intoUserId: string; slugs: string[] }
  /**
   * A passport and its tickets are being erased: their route pages and
   * cards, and the pages of the attractions that showed its notes.
   */
  | {
    kind: "erasure";
    userId: string | null;
    shareCodes: string[];
    slugs: string[];
  };

/** Receives each change a domain operation made. */
export type OnDataChange = (change: DataChange) => void;

/**
 * Who works the staff console (`/panel`) and what they may do: shared by the
 * guard, the audit log and every panel page.
 */

/**
 * `admin` manages guide codes, moderation and staff actions; `editor`
 * edits the portal's content and uploads photos (publishing too when an
 * admin allows it), no staff and no codes; `viewer` sees the dashboard
 * and the exports.
 */
export type StaffRole = "admin" | "editor" | "viewer";

/** The roles, in the order the configuration and the link task accept them. */
export const STAFF_ROLES: readonly StaffRole[] = ["admin", "editor", "viewer"];

/** A signed-in staff member, as the guard puts it on the context (`c.get("staff")`). */
export interface StaffMember {
  /**
   * Stable across sign-ins: the e-mail address in lower case, or
   * `sub:<subject>` for an identity listed by its provider subject only.
   */
  id: string;
  /** The e-mail address (lower case); empty for an identity without one. */
  email: string;
  role: StaffRole;
}

/** What a staff member did, as the audit log records it (`lib/db/audit.ts`). */
export type StaffAction =
  | "signin"
  | "signout"
  /** An admin ended someone's session from the console (target: whose). */
  | "session_ended"
  /** A session ended because its member is no longer on the staff. */
  | "access_removed"
  | "code_replaced"
  /** An admin set how visits are checked in at an attraction (target: the attraction; no position, no code). */
  | "check_in_method_set"
  | "note_hidden"
  | "note_shown"
  | "question_resolved"
  | "export_downloaded"
  | "erasure"
  | "personal_data_exported"
  /** An admin added someone to the staff on the console (target: their e-mail; role: the one given). */
  | "staff_invited"
  /** An admin made a new sign-in link for a member added on the console (target: their e-mail). */
  | "staff_link_issued"
  /** An admin changed a console member's role (target: their e-mail; role: the new one). */
  | "staff_role_changed"
  /** An admin removed a console member; their sessions end at once (target: their e-mail). */
  | "staff_removed"
  /** A photo added to the library (target: the photo's id). */
  | "photo_uploaded"
  /** A new version of the portal's content published (target: the version's id). */
  | "content_published"
  /** An earlier version of the content published again (target: the new version's id). */
  | "content_reverted"
  /** An admin allowed editors to publish, or stopped allowing it (target: `on` or `off`). */
  | "content_setting_changed"
  /** A photo deleted from the library, every size of it (target: the photo's id). */
  | "photo_deleted"
  /** A partner business added or changed (target: the partner's id). */
  | "partner_saved"
  /** A new PIN issued to a partner; its phones signed in with the old one are signed out (target: the partner's id). */
  | "partner_pin_issued"
  /** A prize added or changed, paused or resumed (target: the prize's id). */
  | "prize_saved";

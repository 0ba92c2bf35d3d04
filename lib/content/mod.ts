/**
 * The portal's content in KV: where it comes from (`CONTENT_SOURCE`), the
 * publish and revert of versions with what changed, the console's editor
 * (driven by the data set's schema, Spanish beside each other language),
 * drafts and the preview of a draft. Routes import this entry, never the
 * folder's insides.
 *
 * @module
 */
export {
  CONTENT_POLL_MS,
  type ContentSource,
  openContent,
  type OpenedContent,
} from "./content_store.ts";
export { diffContent, type FieldChange, summarizeChanges } from "./diff.ts";
export {
  checkNewSlug,
  diffItem,
  type EditOutcome,
  type EditTarget,
  findEditTarget,
  mayPublish,
  readPublishedData,
  saveItemEdit,
  takesNewItems,
} from "./edit_item.ts";
export {
  checkEditedItem,
  describeFields,
  EDITABLE_PARTS,
  type EditablePart,
  type FieldSpec,
  findItem,
  formValue,
  inputName,
  listItemKeys,
  listUntranslated,
  readItemForm,
  replaceItem,
} from "./editor.ts";
export { markAsPreview, previewDataStore } from "./preview.ts";
export {
  ContentInvalidError,
  ContentVersionNotFoundError,
  describeVersion,
  ItemPublishedMeanwhileError,
  publishDraft,
  type PublishOutcome,
  publishText,
  readPublishedText,
  REMOVABLE_PARTS,
  type RemovablePart,
  removeItem,
  revertTo,
} from "./publish.ts";
export {
  ContentConflictError,
  type ContentDraft,
  type ContentVersion,
  deleteContentDraft,
  DraftConflictError,
  type DraftEntry,
  getContentDraft,
  getContentSettings,
  getPublishedContent,
  listContentDrafts,
  listContentVersions,
  readContentBody,
  saveContentDraft,
  setEditorsMayPublish,
} from "@/lib/db/content.ts";

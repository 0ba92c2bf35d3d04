/**
 * A tourist's personal data (`/mi-pasaporte/datos`, the staff's requests):
 * exporting it, correcting the route's name, erasing it, and the retention of
 * each record as the privacy notice lists it. Routes, components and scripts
 * import this entry, never the folder's insides.
 *
 * @module
 */
export { changeRouteName } from "./correct.ts";
export { getErasureStatus, requestErasure, runErasure } from "./erase.ts";
export {
  createExportDownload,
  exportPersonalData,
  getExportFileName,
  summarizeExport,
} from "./export.ts";
export {
  describeAppliesTo,
  describeRetention,
  getRecordText,
  listPersonalRecords,
  type PersonalRecord,
  type RecordStore,
} from "./retention.ts";

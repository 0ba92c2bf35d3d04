/**
 * The providers' directory (`/turismo/servicios`): types, order, near-me
 * search, contact links, and the practical information page. Routes, components
 * and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export {
  buildDirectory,
  type Directory,
  type DirectoryEntry,
  formatNear,
  formatWebsite,
  getDirectoryUrl,
  getProviderPage,
  getTelUrl,
  getWhatsAppUrl,
  parseNear,
  parseProviderType,
} from "./directory.ts";
export { PROVIDER_TYPES, type ProviderType } from "./order.ts";
export { getPracticalInfo, type PracticalInfo } from "./practical_info.ts";

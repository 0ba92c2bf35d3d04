/**
 * Serving pages: the page cache and its tags, the built assets' manifest and
 * the static files. Routes, components and scripts import this entry, never the
 * folder's insides.
 *
 * @module
 */
export {
  type AssetManifest,
  BUILD_DIR,
  getAssets,
  MANIFEST_PATH,
  STATIC_DIR,
} from "./assets.ts";
export {
  PAGE_TTL_MS,
  pageTags,
  ROUTE_PAGE_TTL_MS,
  servePage,
} from "./page_cache.ts";
export { loadPagePhotos, type PagePhotos } from "./photos.ts";
export { serveStaticFiles } from "./static_files.ts";
export {
  describeAttraction,
  describeEvents,
  describeProviders,
  type JsonLdDocument,
  type JsonLdNode,
} from "./json_ld.ts";

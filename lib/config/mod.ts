/**
 * The service's configuration, read once from the environment (and `.env`) and
 * failing loudly, and the open data's licences. Routes, components and scripts
 * import this entry, never the folder's insides.
 *
 * @module
 */
export {
  applyEnvFile,
  ConfigError,
  DEFAULT_KV_PATH,
  DEFAULT_TIME_ZONE,
  parseConfig,
} from "./config.ts";
export type { MapTiles } from "./config.ts";
export type { OpenDataLicense } from "./licenses.ts";

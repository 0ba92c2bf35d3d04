/**
 * Partners' prizes: their types, what unlocks them, and the rotating
 * counter code. Routes, components and islands import this entry, never
 * the folder's insides.
 *
 * @module
 */
export {
  COUNTER_CODE_STEP_MS,
  counterCode,
  parseCounterCode,
} from "./counter_code.ts";
export type { Partner, Prize, PrizeClaim } from "./types.ts";

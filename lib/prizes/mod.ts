/**
 * The rules of a prize, below storage as the badges' table is: what a
 * partner and a prize are (`types.ts`), whether a passport has earned one
 * (`eligibility.ts`) and the code shown at the counter (`counter_code.ts`,
 * which the browser imports too). Routes, components and scripts import this
 * entry; the passport's island imports `counter_code.ts` itself.
 *
 * @module
 */
export * from "./types.ts";
export * from "./eligibility.ts";
export * from "./counter_code.ts";

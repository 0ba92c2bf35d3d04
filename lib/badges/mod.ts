/**
 * The badge table: which badges a passport earns at how many stamps, and their
 * names in each language. Routes, components and scripts import this entry,
 * never the folder's insides.
 *
 * @module
 */
export { BADGES, getBadgeDefinitions, getBadgeName } from "./badges.ts";

/**
 * Distances and nearby attractions from a position, and a place's maps link.
 * Routes, components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export { findNearbyAttractions, getMapsUrl } from "./geo.ts";

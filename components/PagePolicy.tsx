import { createContext } from "preact";

/**
 * More `img-src` sources a page needs, collected while it renders: the
 * map's tile host (routes/_shared/places_map.tsx) adds its own, and
 * `renderPage` writes them into that page's Content-Security-Policy. A page
 * without a map keeps the policy of this origin only.
 */
export const PageImageSources = createContext<Set<string> | null>(null);

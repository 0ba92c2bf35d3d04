/**
 * The municipality's colours as the pages' theme stylesheet (`/theme.css`).
 * Routes, components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export { renderThemeCss } from "./theme_css.ts";

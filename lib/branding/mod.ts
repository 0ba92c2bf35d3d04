/**
 * The municipality's colours as the pages' theme stylesheet (`/theme.css`).
 * Routes, components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export { renderThemeCss } from "./theme_css.ts";
export {
  APP_ICONS,
  type AppIcon,
  type AppIconPurpose,
  drawAppIcon,
  type IconBranding,
  listAppIcons,
} from "./app_icons.ts";

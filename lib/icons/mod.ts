/**
 * The app icons of the web app manifest and iOS's home screen, drawn from
 * the published logo. Routes, components and scripts import this entry,
 * never the folder's insides.
 *
 * @module
 */
export {
  APP_ICONS,
  type AppIcon,
  type AppIconPurpose,
  drawAppIcon,
  type IconBranding,
  listAppIcons,
} from "./app_icons.ts";

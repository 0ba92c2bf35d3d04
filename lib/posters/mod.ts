/**
 * The attractions' QR posters (SVG) and their index page, for print. Routes,
 * components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export {
  attractionPosterSvg,
  escapeXml,
  getPosterSecondLang,
  indexHtml,
  type PosterInput,
  posterSvg,
  posterUrl,
} from "./poster.ts";
export { type PosterPage, renderPostersPdf } from "./pdf.ts";

/**
 * PDF documents as the portal writes them: A4, Spanish, Inter embedded;
 * the posters' PDF and the council's monthly report both start here.
 *
 * @module
 */
export { A4, openPdf, type PdfDoc, type PdfDraft } from "./document.ts";

/**
 * PDF documents as the portal writes them: A4, Spanish, Inter embedded;
 * the posters' PDF, the council's monthly report and the partners' reports
 * start here.
 *
 * @module
 */
export { A4, openPdf, type PdfDoc, type PdfDraft } from "./document.ts";
export { drawTable, measureTable, type TableSpec } from "./tables.ts";

/**
 * A new PDF document as the portal writes them (the posters, the monthly
 * report): A4, Spanish (Mexico), Inter embedded as `Inter` and
 * `Inter-Bold` (fontkit reads WOFF as well as TTF: the same Inter the site
 * serves), and its bytes collected once it ends.
 */
// pdfkit (about 40 MiB and 175 ms to load) is imported with the first PDF,
// not with every module that loads a folder using this one.
import type PDFDocument from "pdfkit";
import inter400 from "@fontsource/inter/files/inter-latin-400-normal.woff" with {
  type: "bytes",
};
import inter700 from "@fontsource/inter/files/inter-latin-700-normal.woff" with {
  type: "bytes",
};

/** A pdfkit document. */
export type PdfDoc = InstanceType<typeof PDFDocument>;

/** A4 in PDF points (1/72 in). */
export const A4 = { width: 595.28, height: 841.89 };

/** A document being drawn, and the way to its bytes. */
export interface PdfDraft {
  doc: PdfDoc;
  /** Ends the document and resolves to its bytes. */
  finish(): Promise<Uint8Array<ArrayBuffer>>;
}

/**
 * Opens a document: `options` (margins, metadata, pages) over A4 and
 * Spanish; draw on `doc`, then `finish()`.
 */
export async function openPdf(
  options: ConstructorParameters<typeof PDFDocument>[0] = {},
): Promise<PdfDraft> {
  const { default: PDFKit } = await import("pdfkit");
  const doc = new PDFKit({ size: "A4", lang: "es-MX", ...options });
  doc.registerFont("Inter", inter400 as unknown as Buffer);
  doc.registerFont("Inter-Bold", inter700 as unknown as Buffer);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  doc.on("data", (chunk: Uint8Array<ArrayBuffer>) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  return {
    doc,
    async finish() {
      doc.end();
      await ended;
      return new Uint8Array(await new Blob(chunks).arrayBuffer());
    },
  };
}

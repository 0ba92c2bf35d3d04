/**
 * Every attraction's poster in one PDF, one A4 page each, for the print
 * shop: the same SVG as `deno task posters` and the staff console's
 * download (./poster.ts), placed on the page as vectors by svg-to-pdfkit
 * (the QR stays sharp at any size), with Inter embedded for its words.
 */
// svg-to-pdfkit is imported with the first posters PDF (pdfkit with
// openPdf), not with every module that loads this folder.
import { A4, openPdf } from "@/lib/pdf/mod.ts";

/** One poster: its SVG (A4, in mm) and what the PDF's outline calls it. */
export interface PosterPage {
  name: string;
  svg: string;
}

/**
 * The PDF of `posters`, one A4 page each, in order; `title` names the
 * document (its metadata, what a viewer's tab shows).
 */
export async function renderPostersPdf(
  posters: readonly PosterPage[],
  { title }: { title: string },
): Promise<Uint8Array<ArrayBuffer>> {
  const [{ default: SVGtoPDF }, { doc, finish }] = await Promise.all([
    import("svg-to-pdfkit"),
    openPdf({
      margin: 0,
      autoFirstPage: false,
      info: { Title: title, Creator: title },
    }),
  ]);
  for (const poster of posters) {
    doc.addPage();
    doc.outline.addItem(poster.name);
    SVGtoPDF(doc, inlineSvgImages(poster.svg), 0, 0, {
      width: A4.width,
      height: A4.height,
      preserveAspectRatio: "xMidYMid meet",
      // The monospaced code stays Courier (a PDF standard font); the rest is Inter.
      fontCallback: (family: string, bold: boolean) =>
        /mono|courier|consolas|menlo/i.test(family)
          ? (bold ? "Courier-Bold" : "Courier")
          : (bold ? "Inter-Bold" : "Inter"),
    });
  }
  return await finish();
}

/**
 * The poster's `<image>`s of an SVG data URL (the logo) as nested `<svg>`
 * elements: svg-to-pdfkit draws raster images only, and nested SVG as
 * vectors.
 */
function inlineSvgImages(svg: string): string {
  return svg.replace(
    /<image ([^>]*?)href="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"([^>]*)\/>/g,
    (whole, before: string, base64: string, after: string) => {
      const box = `${before} ${after}`.match(
        /x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/,
      );
      if (!box) return whole;
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const logo = new TextDecoder().decode(bytes).trim()
        .replace(/^<\?xml[^>]*>\s*/, "");
      // Its own size gives way to the box the poster placed it in.
      return logo.replace(
        /^<svg([^>]*)>/,
        (_, attrs: string) =>
          `<svg${attrs.replace(/\s(?:x|y|width|height)="[^"]*"/g, "")} x="${
            box[1]
          }" y="${box[2]}" width="${box[3]}" height="${box[4]}">`,
      );
    },
  );
}

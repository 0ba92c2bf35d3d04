/**
 * Every attraction's poster in one PDF, one A4 page each, for the print
 * shop: the same SVG as `deno task posters` and the staff console's
 * download (./poster.ts), placed on the page as vectors by svg-to-pdfkit
 * (the QR stays sharp at any size), with Inter embedded for its words.
 */
// pdfkit and svg-to-pdfkit are imported with the first posters PDF, not with
// every module that loads this folder.
import inter400 from "@fontsource/inter/files/inter-latin-400-normal.woff" with {
  type: "bytes",
};
import inter700 from "@fontsource/inter/files/inter-latin-700-normal.woff" with {
  type: "bytes",
};

/** A4 in PDF points (1/72 in). */
const A4 = { width: 595.28, height: 841.89 };

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
  const [{ default: PDFDocument }, { default: SVGtoPDF }] = await Promise.all([
    import("pdfkit"),
    import("svg-to-pdfkit"),
  ]);
  const doc = new PDFDocument({
    size: "A4",
    margin: 0,
    autoFirstPage: false,
    info: { Title: title, Creator: title },
    lang: "es-MX",
  });
  // fontkit reads WOFF as well as TTF: the same Inter the site serves.
  doc.registerFont("Inter", inter400 as unknown as Buffer);
  doc.registerFont("Inter-Bold", inter700 as unknown as Buffer);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  doc.on("data", (chunk: Uint8Array<ArrayBuffer>) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
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
  doc.end();
  await ended;
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
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

/**
 * Tables in a PDF (the council's report, a partner's): a bold head row,
 * the first column left-aligned and the figures right-aligned, measured
 * first so a section can keep a table with its heading.
 */
import type { PdfDoc } from "./document.ts";

/** A table: its head row, its rows, and each column's width. */
export interface TableSpec {
  head: string[];
  rows: string[][];
  widths: number[];
}

const CELL_PAD = 4;

function measureRow(
  doc: PdfDoc,
  cells: string[],
  { widths, bold }: { widths: number[]; bold: boolean },
): number {
  doc.font(bold ? "Inter-Bold" : "Inter").fontSize(10);
  return Math.max(
    ...cells.map((cell, i) =>
      doc.heightOfString(cell || " ", { width: widths[i] - 2 * CELL_PAD })
    ),
  ) + 2 * CELL_PAD;
}

/** A table's whole height, and that of its head with its first row. */
export function measureTable(
  doc: PdfDoc,
  { head, rows, widths }: TableSpec,
): { whole: number; first: number } {
  const headHeight = measureRow(doc, head, { widths, bold: true });
  const heights = rows.map((row) =>
    measureRow(doc, row, { widths, bold: false })
  );
  return {
    whole: headHeight + heights.reduce((a, b) => a + b, 0),
    first: headHeight + (heights[0] ?? 0),
  };
}

/**
 * A table with a bold head row. A row that would not fit starts a new
 * page, where the head is drawn again; the head never ends a page alone.
 */
export function drawTable(
  doc: PdfDoc,
  table: TableSpec,
  { left, bottom: pageBottom, ink = "#1f2426" }: {
    left: number;
    /** Where a page's writing ends. */
    bottom: number;
    ink?: string;
  },
): void {
  const { head, rows, widths } = table;
  const line = (cells: string[], bold: boolean, height: number) => {
    const top = doc.y;
    let x = left;
    doc.font(bold ? "Inter-Bold" : "Inter").fontSize(10).fillColor(ink);
    cells.forEach((cell, i) => {
      doc.text(cell, x + CELL_PAD, top + CELL_PAD, {
        width: widths[i] - 2 * CELL_PAD,
        align: i === 0 ? "left" : "right",
      });
      x += widths[i];
    });
    const bottom = top + height;
    doc.moveTo(left, bottom).lineTo(x, bottom).lineWidth(bold ? 1 : 0.4)
      .strokeColor(bold ? ink : "#bbbbbb").stroke();
    doc.x = left;
    doc.y = bottom;
  };
  const headHeight = measureRow(doc, head, { widths, bold: true });
  rows.forEach((row, i) => {
    const height = measureRow(doc, row, { widths, bold: false });
    const needed = height + (i === 0 ? headHeight : 0);
    if (doc.y + needed > pageBottom) doc.addPage();
    if (i === 0 || doc.y === doc.page.margins.top) {
      line(head, true, headHeight);
    }
    line(row, false, height);
  });
}

/**
 * A partner business's own monthly PDF: its prizes' claims, redemptions and
 * units left, and its redemptions by day. The office hands it to the
 * business; it holds counts only, never a tourist. Its figures are the
 * console's (lib/rewards/report.ts) for that partner.
 */
import { getLocalClockTime } from "@/lib/calendar/mod.ts";
import { formatDate, formatMonth } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, getLangMeta, type Lang, t } from "@/lib/i18n/mod.ts";
import { A4, drawTable, measureTable, openPdf } from "@/lib/pdf/mod.ts";
import type { PrizeReport } from "./report.ts";
import type { Partner } from "@/lib/prizes/types.ts";

const MARGIN = 56.7;
const BOTTOM = A4.height - MARGIN;
const INK = "#1f2426";
const MUTED = "#555555";

/** What the partner's report shows. */
export interface PartnerReport {
  partner: Partner;
  /** `YYYY-MM`. */
  month: string;
  brand: string;
  timeZone: string;
  /** ISO 8601. */
  issuedAt: string;
  /** The console's figures, of this partner's prizes only. */
  figures: PrizeReport;
}

export async function renderPartnerReportPdf(
  report: PartnerReport,
  { color, lang = DEFAULT_LANG }: { color: string; lang?: Lang },
): Promise<Uint8Array<ArrayBuffer>> {
  const say = (key: string, values?: Record<string, string | number>) =>
    t(lang, `panel_exports.${key}`, values);
  const integer = (n: number) =>
    new Intl.NumberFormat(getLangMeta(lang).intlLocale).format(n);
  const nameOf = (prize: { name: { es: string; en: string } }) =>
    prize.name[lang === "en" ? "en" : "es"];
  const month = formatMonth(report.month, lang);
  const partner = report.partner.name;
  const { doc, finish } = await openPdf({
    margin: MARGIN,
    bufferPages: true,
    lang: getLangMeta(lang).intlLocale,
    info: {
      Title: say("partnerReportDocTitle", { partner, month }),
      Author: report.brand,
      Creator: report.brand,
    },
    displayTitle: true,
  });
  const left = MARGIN;
  const width = A4.width - 2 * MARGIN;
  const table = { left, bottom: BOTTOM, ink: INK };
  const heading = (text: string) => {
    doc.y += 16;
    doc.font("Inter-Bold").fontSize(14).fillColor(color)
      .text(text, left, doc.y, { width });
    doc.y += 6;
    doc.font("Inter").fontSize(10).fillColor(INK);
  };

  doc.font("Inter").fontSize(10).fillColor(MUTED).text(report.brand);
  doc.font("Inter-Bold").fontSize(20).fillColor(INK).text(partner);
  doc.font("Inter").fontSize(12).fillColor(MUTED).text(
    say("partnerReportTitle", { month }),
  );
  doc.moveDown(0.3).fontSize(9).text(say("reportIssued", {
    date: formatDate(report.issuedAt, report.timeZone, lang),
    time: getLocalClockTime(report.issuedAt, report.timeZone),
    place: report.partner.address,
  }));
  doc.moveDown(0.6).fontSize(10).fillColor(INK).text(
    say("partnerReportIntro", { partner, month }),
    left,
    doc.y,
    { width },
  );

  heading(say("partnerReportPrizes"));
  drawTable(doc, {
    head: [
      say("colPrize"),
      say("colClaimed"),
      say("colRedeemed"),
      say("colStockLeft"),
    ],
    widths: [0.49, 0.17, 0.17, 0.17].map((share) => share * width),
    rows: report.figures.prizes.map((row) => [
      nameOf(row.prize),
      integer(row.claimed),
      integer(row.redeemed),
      integer(row.stockLeft),
    ]),
  }, table);

  const names = new Map(
    report.figures.prizes.map((row) => [row.prize.id, nameOf(row.prize)]),
  );
  const days = report.figures.days.filter((day) => day.redeemed > 0);
  heading(say("partnerReportByDay"));
  if (days.length === 0) {
    doc.text(say("partnerReportNoDays"), left, doc.y, { width });
  } else {
    const spec = {
      head: [say("colDay"), say("colPrize"), say("colRedeemed")],
      widths: [0.25, 0.55, 0.2].map((share) => share * width),
      rows: days.map((day) => [
        formatDate(day.day, report.timeZone, lang),
        names.get(day.prizeId) ?? day.prizeId,
        integer(day.redeemed),
      ]),
    };
    if (doc.y + measureTable(doc, spec).first > BOTTOM) doc.addPage();
    drawTable(doc, spec, table);
  }

  const footer = say("partnerReportFooter", {
    brand: report.brand,
    partner,
    month,
  });
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Inter").fontSize(8).fillColor(MUTED);
    doc.text(footer, left, A4.height - 38, {
      width: width * 0.7,
      lineBreak: false,
    });
    doc.text(
      say("reportPage", { page: i - start + 1, pages: count }),
      left + width * 0.7,
      A4.height - 38,
      { width: width * 0.3, align: "right", lineBreak: false },
    );
    doc.page.margins.bottom = margin;
  }
  return await finish();
}

/**
 * The rewards' figures: per partner and prize, for the console, the
 * council's report, the workbook and each partner's own monthly PDF.
 * Storage is lib/db/rewards.ts; the rules of a prize are lib/prizes.
 *
 * @module
 */
export {
  getRequiredStamps,
  isLowStock,
  loadPrizeReport,
  type PrizeReport,
  type PrizeReportDay,
  type PrizeReportRow,
} from "./report.ts";
export {
  type PartnerReport,
  renderPartnerReportPdf,
} from "./partner_report.ts";
export {
  type FieldErrors,
  type FormResult,
  parsePartnerForm,
  parsePrizeForm,
} from "./forms.ts";

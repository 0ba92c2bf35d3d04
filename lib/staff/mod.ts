/**
 * The staff console (`/panel`, `/auth/personal`): who may enter and how
 * (the guard, the sign-in links and identities, the cookie), who is on the
 * staff (managed on the console), the audit log in words, and what the
 * dashboard shows (the date range asked for, the charts and their tables).
 * Routes and the app import this entry, never the folder's insides. KV is
 * read and written through lib/db, as everywhere.
 */
export {
  AUDIT_ACTIONS,
  AUDIT_CSV_NAME,
  type AuditQuery,
  type AuditRow,
  getAuditActionLabel,
  getRoleLabel,
  isAuditFiltered,
  listAuditRows,
  parseAuditQuery,
  streamAuditCsv,
  toAuditSearch,
} from "./audit_log.ts";
export {
  type AttractionIndexRow,
  type AttractionIndexView,
  type AttractionNoteView,
  type AttractionReportView,
  loadAttractionIndex,
  loadAttractionReport,
} from "./attraction.ts";
export {
  clearStaffCookie,
  readStaffCookie,
  writeStaffCookie,
} from "./cookies.ts";
export {
  type ChartLinksView,
  type DashboardCharts,
  type DashboardView,
  type DataTableView,
  type HeadlineView,
  type LegendItem,
  loadDashboardView,
  presentDashboard,
  renderDashboardCharts,
} from "./dashboard.ts";
export {
  formatReportMonth,
  loadMonthlyReport,
  type MonthFigures,
  type MonthlyReport,
  parseReportMonth,
  renderMonthlyReportPdf,
  type ReportQuestion,
} from "./report.ts";
export {
  buildStaffWorkbook,
  WORKBOOK_NOTES_LIMIT,
  type WorkbookSource,
} from "./workbook.ts";
export {
  getMonthSpan,
  listExportMonths,
  loadExportMonths,
  MAX_PICKER_MONTHS,
  type MonthChoice,
  type MonthSpan,
  parseExportMonth,
} from "./month.ts";
export {
  getStaff,
  protectStaffForms,
  requireAdmin,
  requireStaff,
  STAFF_EXPIRED_PATH,
  StaffForbiddenError,
  type StaffGuardDeps,
} from "./guard.ts";
export {
  changeStaffRole,
  checkStaffRemoval,
  inviteStaffMember,
  issueStaffLink,
  listStaff,
  parseStaffEmail,
  parseStaffRole,
  removeStaff,
  StaffChangeError,
  type StaffChangeProblem,
  type StaffListEntry,
} from "./members.ts";
export {
  type DayRange,
  DEFAULT_RANGE_DAYS,
  formatDayRange,
  getPreviousRange,
  getQuickRanges,
  parseDayRange,
  type RangeProblem,
} from "./range.ts";
export {
  createStaffSignInLink,
  PANEL_HOME,
  signInStaffIdentity,
  signInWithStaffLink,
  signOutStaff,
  STAFF_LINK_PATH,
} from "./sign_in.ts";

/**
 * The staff console (`/panel`, `/auth/personal`): who may enter and how
 * (the guard, the sign-in links and identities, the cookie), and what the
 * dashboard shows (the date range asked for, the charts and their tables).
 * Routes and the app import this entry, never the folder's insides. KV is
 * read and written through lib/db, as everywhere.
 */
export {
  clearStaffCookie,
  readStaffCookie,
  writeStaffCookie,
} from "./cookies.ts";
export {
  type DashboardCharts,
  type DashboardView,
  type DataTableView,
  loadDashboardView,
  presentDashboard,
  renderDashboardCharts,
} from "./dashboard.ts";
export {
  formatReportMonth,
  loadMonthlyReport,
  type MonthlyReport,
  parseReportMonth,
  renderMonthlyReportPdf,
} from "./report.ts";
export {
  buildStaffWorkbook,
  WORKBOOK_NOTES_LIMIT,
  WORKBOOK_SHEETS,
} from "./workbook.ts";
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
  type DayRange,
  DEFAULT_RANGE_DAYS,
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

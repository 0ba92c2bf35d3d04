import type { AppDeps } from "@/deps.ts";
import { negotiateLang } from "@/lib/i18n/mod.ts";
import {
  loadMonthlyReport,
  parseExportMonth,
  renderMonthlyReportPdf,
} from "@/lib/staff/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter } from "./_page.tsx";
import { renderMonthProblem } from "./_exports.tsx";

/**
 * `GET /panel/informe?mes=YYYY-MM` (admins and viewers): the month's
 * report for the town council as a PDF download (the last month over when
 * `mes` is absent; the month now running may be chosen, and says so);
 * recorded in the audit log. A month that is not one, or has not begun,
 * answers 400 in the console's words.
 */
export default function reportPage(deps: AppDeps) {
  return createPanelRouter(deps).get("/", async (c) => {
    const { data } = deps.data.current();
    const now = deps.now();
    const choice = parseExportMonth(c.req.query("mes"), {
      now,
      timeZone: data.municipality.timeZone,
      fallback: "previous",
    });
    if (choice.problem) {
      return renderMonthProblem(c, deps, {
        problem: choice.problem,
        lang: negotiateLang(c.req.header("accept-language")),
      });
    }
    const report = await loadMonthlyReport(deps.kv, {
      month: choice.month,
      data,
      now,
    });
    const pdf = await renderMonthlyReportPdf(report, {
      colors: data.branding.colors,
    });
    return await sendStaffDownload(c, deps, {
      file: `informe-turismo-${choice.month}.pdf`,
      type: "application/pdf",
      body: pdf,
    });
  });
}

import type { AppDeps } from "@/deps.ts";
import {
  loadMonthlyReport,
  parseReportMonth,
  renderMonthlyReportPdf,
} from "@/lib/staff/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/**
 * `GET /panel/informe?mes=YYYY-MM` (admins and viewers): the month's
 * report for the town council as a PDF download (the last month over when
 * `mes` is absent); recorded in the audit log.
 */
export default function reportPage(deps: AppDeps) {
  return createPanelRouter(deps).get("/", async (c) => {
    const { data } = deps.data.current();
    const now = deps.now();
    const month = parseReportMonth(c.req.query("mes"), {
      now,
      timeZone: data.municipality.timeZone,
    });
    if (!month) {
      return renderPanelPage(c, deps, {
        title: "Ese mes no es válido",
        active: "exportar",
        status: 400,
        children: (
          <p class="lead">
            Escribe el mes como AAAA-MM, por ejemplo 2026-10.{" "}
            <a href="/panel/exportar">Volver a exportaciones</a>
          </p>
        ),
      });
    }
    const report = await loadMonthlyReport(deps.kv, { month, data, now });
    const pdf = await renderMonthlyReportPdf(report, {
      colors: data.branding.colors,
    });
    return await sendStaffDownload(c, deps, {
      file: `informe-turismo-${month}.pdf`,
      type: "application/pdf",
      body: pdf,
    });
  });
}

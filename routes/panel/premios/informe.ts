import type { AppDeps } from "@/deps.ts";
import { getPartner } from "@/lib/db/mod.ts";
import { apiMessage, NotFoundError } from "@/lib/errors/mod.ts";
import { negotiateLang } from "@/lib/i18n/mod.ts";
import { loadPrizeReport, renderPartnerReportPdf } from "@/lib/rewards/mod.ts";
import { getMonthSpan, parseExportMonth } from "@/lib/staff/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter } from "../_page.tsx";
import { renderMonthProblem } from "../_exports.tsx";

/**
 * `GET /panel/premios/:partnerId/informe.pdf?mes=YYYY-MM` (admins and
 * viewers): a partner business's own monthly PDF, to hand to it (the last
 * month over when `mes` is absent); audited like every download.
 */
export default function partnerReportPage(deps: AppDeps) {
  return createPanelRouter(deps).get("/:partnerId/informe.pdf", async (c) => {
    const { data } = deps.data.current();
    const now = deps.now();
    const { timeZone } = data.municipality;
    const choice = parseExportMonth(c.req.query("mes"), {
      now,
      timeZone,
      fallback: "previous",
    });
    if (choice.problem) {
      return renderMonthProblem(c, deps, {
        problem: choice.problem,
        lang: negotiateLang(c.req.header("accept-language")),
      });
    }
    const partner = (await getPartner(deps.kv, c.req.param("partnerId")))
      .value;
    if (!partner) {
      throw new NotFoundError(apiMessage("rewards.partner_not_found"));
    }
    const span = getMonthSpan(choice.month, { now, timeZone });
    const figures = await loadPrizeReport(deps.kv, {
      from: span.days[0],
      to: span.runningUntil ?? span.days.at(-1)!,
      attractionCount: data.attractions.length,
      partnerId: partner.id,
    });
    const pdf = await renderPartnerReportPdf({
      partner,
      month: choice.month,
      brand: data.branding.name,
      timeZone,
      issuedAt: now.toISOString(),
      figures,
    }, { color: data.branding.colors.primary });
    return await sendStaffDownload(c, deps, {
      file: `premios-${partner.id}-${choice.month}.pdf`,
      type: "application/pdf",
      body: pdf,
    });
  });
}

import type { PrizeReport } from "@/lib/rewards/mod.ts";
import { formatLongDate } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";

const LANG = DEFAULT_LANG;

const say = (key: string, values?: Record<string, string | number>) =>
  t(LANG, `panel_exports.${key}`, values);

/**
 * The partners' prizes over a span, as the council's report and the
 * workbook give them (lib/rewards/report.ts feeds all three): per prize,
 * the passports that unlocked it, its claims and redemptions, and the units
 * left today; then the same by day. Nothing when there is no prize.
 */
export function PrizeFigures(
  { report, heading }: { report: PrizeReport; heading: string },
) {
  if (report.prizes.length === 0) return null;
  const names = new Map(
    report.prizes.map((row) => [row.prize.id, row.prize.name.es]),
  );
  const count = (n: number | null) =>
    n === null ? say("notCounted") : n.toLocaleString("es-MX");
  return (
    <section class="chart prize-figures">
      <h2 id="cifras-premios">{heading}</h2>
      <p class="headlines__note">{t(LANG, "panel_rewards.figuresNote")}</p>
      <div
        class="table-scroll"
        tabIndex={0}
        role="region"
        aria-labelledby="cifras-premios"
      >
        <table class="console-table" data-table="prize-figures">
          <thead>
            <tr>
              <th scope="col">{say("colPrize")}</th>
              <th scope="col">{say("colPartner")}</th>
              <th scope="col">{say("colUnlocked")}</th>
              <th scope="col">{say("colClaimed")}</th>
              <th scope="col">{say("colRedeemed")}</th>
              <th scope="col">{say("colStockLeft")}</th>
            </tr>
          </thead>
          <tbody>
            {report.prizes.map((row) => (
              <tr key={row.prize.id} data-prize={row.prize.id}>
                <th scope="row">{row.prize.name.es}</th>
                <td>{row.partner?.name ?? row.prize.partnerId}</td>
                <td>{count(row.unlocked)}</td>
                <td>{count(row.claimed)}</td>
                <td>{count(row.redeemed)}</td>
                <td>{count(row.stockLeft)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.days.length > 0 && (
        <details class="prize-figures__days">
          <summary>{t(LANG, "panel_rewards.figuresByDay")}</summary>
          <div
            class="table-scroll"
            tabIndex={0}
            role="region"
            aria-label={t(LANG, "panel_rewards.figuresByDay")}
          >
            <table class="console-table" data-table="prize-days">
              <thead>
                <tr>
                  <th scope="col">{t(LANG, "panel_rewards.colDay")}</th>
                  <th scope="col">{say("colPrize")}</th>
                  <th scope="col">{say("colUnlocked")}</th>
                  <th scope="col">{say("colClaimed")}</th>
                  <th scope="col">{say("colRedeemed")}</th>
                </tr>
              </thead>
              <tbody>
                {report.days.map((day) => (
                  <tr key={`${day.day}|${day.prizeId}`}>
                    <th scope="row">{formatLongDate(day.day, LANG)}</th>
                    <td>{names.get(day.prizeId) ?? day.prizeId}</td>
                    <td>{count(day.unlocked)}</td>
                    <td>{count(day.claimed)}</td>
                    <td>{count(day.redeemed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  );
}

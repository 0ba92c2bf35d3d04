/**
 * What the exports page and its downloads (the report, the workbook, the
 * posters) share: their words (`locales/<lang>/panel_exports.json`), in
 * the language the browser asks for, and the console page that answers a
 * month a download cannot be of.
 */
import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { type Lang, t } from "@/lib/i18n/mod.ts";
import { formatReportMonth } from "@/lib/staff/mod.ts";
import { getLocalTime } from "@/lib/calendar/mod.ts";
import { renderPanelPage } from "./_page.tsx";

/** Values a message names. */
type MessageValues = Record<string, string | number>;

/** `panel_exports.<key>` in `lang`. */
export function sayExports(
  lang: Lang,
  key: string,
  values?: MessageValues,
): string {
  return t(lang, `panel_exports.${key}`, values);
}

/** The 400 page for a month that is not one, or has not begun. */
export function renderMonthProblem(
  c: Context<AppEnv>,
  deps: AppDeps,
  { problem, lang }: { problem: "invalid" | "future"; lang: Lang },
): Response {
  const { timeZone } = deps.data.current().data.municipality;
  const current = getLocalTime(deps.now(), timeZone).month;
  const say = (key: string, values?: MessageValues) =>
    sayExports(lang, key, values);
  return renderPanelPage(c, deps, {
    title: say(
      problem === "invalid" ? "monthInvalidTitle" : "monthFutureTitle",
    ),
    active: "exportar",
    status: 400,
    children: (
      <p class="lead" lang={lang}>
        {problem === "invalid"
          ? say("monthInvalid", { example: current })
          : say("monthFuture", { current: formatReportMonth(current, lang) })}
        {" "}
        <a href="/panel/exportar">{say("back")}</a>
      </p>
    ),
  });
}

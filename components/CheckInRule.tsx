import {
  acceptsPosition,
  type AttractionCheckInView,
  CHECK_IN_METHODS,
  CHECK_IN_WORDS,
  getMethodLabelKey,
  getMethodWordsKey,
  MAX_CHECK_IN_RADIUS_M,
  MIN_CHECK_IN_RADIUS_M,
} from "@/lib/check_in/mod.ts";
import { DEFAULT_LANG, t, tRich } from "@/lib/i18n/mod.ts";

/** The section's words (`locales/<lang>/panel_check_in.json`); the console is Spanish. */
const LANG = DEFAULT_LANG;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `${CHECK_IN_WORDS}.${key}`, values);
}

function trRich(key: string, values: Record<string, string | number>) {
  return tRich(LANG, `${CHECK_IN_WORDS}.${key}`, {
    ...values,
    b: (children) => <strong>{children}</strong>,
  });
}

/**
 * How visits are checked in at an attraction, on its console page: the
 * method and radius in force and where they come from; for admins, the
 * form that changes them (`POST <action>`), with the last problem beside
 * it. Viewers read it only.
 */
export function CheckInRuleSection(
  { rule, action, canEdit, problem, saved, setAtText }: {
    rule: AttractionCheckInView;
    action: string;
    canEdit: boolean;
    /** Why the last change was refused (nothing was saved). */
    problem?: string;
    /** The rule was just saved. */
    saved?: boolean;
    /** When an admin set it, in words; absent: the catalogue's default. */
    setAtText?: string;
  },
) {
  const method = t(LANG, getMethodWordsKey(rule.method));
  return (
    <section
      class="chart attraction-report__check-in"
      aria-labelledby="registro"
    >
      <h2 id="registro">{tr("title")}</h2>
      {saved && (
        <p class="notice notice--ok" role="status">
          {tr("saved", { method })}
        </p>
      )}
      <p>
        {tRich(LANG, `${CHECK_IN_WORDS}.inForce`, {
          method,
          rule: (children) => (
            <strong data-check-in-method={rule.method}>{children}</strong>
          ),
        })}
        {acceptsPosition(rule.method) &&
          trRich("withinRadius", { radius: rule.radiusM })}.{" "}
        {setAtText ? tr("setBy", { when: setAtText }) : tr("fromCatalogue")}
      </p>
      {!acceptsPosition(rule.method) && (
        <p>{tr("radiusIfOn", { radius: rule.radiusM })}</p>
      )}
      {problem && <p class="form-error" role="alert">{problem}</p>}
      {canEdit && (
        <form class="dashboard__range" method="post" action={action}>
          <fieldset>
            <legend>{tr("legend")}</legend>
            <label>
              {tr("methodLabel")}
              <select name="metodo">
                {CHECK_IN_METHODS.map((option) => (
                  <option
                    key={option}
                    value={option}
                    selected={option === rule.method}
                  >
                    {t(LANG, getMethodLabelKey(option))}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {tr("radiusLabel", {
                min: MIN_CHECK_IN_RADIUS_M,
                max: MAX_CHECK_IN_RADIUS_M,
              })}
              <input
                type="number"
                name="radio"
                inputMode="numeric"
                min={MIN_CHECK_IN_RADIUS_M}
                max={MAX_CHECK_IN_RADIUS_M}
                step={1}
                value={String(rule.radiusM)}
                required
              />
            </label>
            <button class="button" type="submit">{tr("save")}</button>
          </fieldset>
          <p class="chart__note">{tr("help")}</p>
        </form>
      )}
    </section>
  );
}

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { PrizeFigures } from "@/components/PrizeFigures.tsx";
import type { AppDeps } from "@/deps.ts";
import { addMonths, getLocalTime } from "@/lib/calendar/mod.ts";
import { getBadgeName } from "@/lib/badges/mod.ts";
import type { TourismData } from "@/lib/data/mod.ts";
import {
  getPartner,
  getPrize,
  issuePartnerPin,
  listPartners,
  type Partner,
  type Prize,
  savePartner,
  savePrize,
} from "@/lib/db/mod.ts";
import { ConflictError, NotFoundError } from "@/lib/errors/mod.ts";
import { formatDate, formatMonth } from "@/lib/format/mod.ts";
import { type AppEnv, getPublicOrigin, readForm } from "@/lib/http/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import {
  type FormResult,
  loadPrizeReport,
  parsePartnerForm,
  parsePrizeForm,
} from "@/lib/rewards/mod.ts";
import { getMonthSpan, getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "../_page.tsx";
import { PartnerFields, PrizeFields, type ShownForm } from "./_forms.tsx";

const LANG = DEFAULT_LANG;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `panel_rewards.${key}`, values);
}

/** What a prize takes, in words. */
export function describeRequirement(prize: Prize, data: TourismData): string {
  const { requirement } = prize;
  switch (requirement.kind) {
    case "stamps":
      return tr("requirement.stamps", { count: requirement.count });
    case "badge":
      return tr("requirement.badge", {
        badge: getBadgeName(LANG, { id: requirement.badgeId }),
      });
    case "route":
      return tr("requirement.route", {
        route: data.routes.find((r) => r.slug === requirement.routeSlug)
          ?.name ?? requirement.routeSlug,
      });
    case "attractions": {
      const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
      return tr("requirement.attractions", {
        list: new Intl.ListFormat("es").format(
          requirement.slugs.map((slug) => names.get(slug) ?? slug),
        ),
      });
    }
  }
}

/**
 * `/panel/premios`: the partner businesses and their prizes, for every
 * staff member to read; with the stock left of each and a warning for a
 * prize under a tenth of its units. Admins add and edit them (`GET
 * /comercio/nuevo|:id`, `POST /comercio`; `GET /premio/nuevo|:id`, `POST
 * /premio`), each save checked on the version the form was shown with, so a
 * second editor's save is refused with what is stored now; and give a
 * partner a new PIN (`POST /comercio/:id/pin`), shown once. Every change is
 * audited. A partner's monthly PDF is `./informe.ts`.
 */
export default function prizesPage(deps: AppDeps) {
  const list = async (c: Context<AppEnv>, notice?: string) => {
    const { data } = deps.data.current();
    const now = deps.now();
    const { timeZone } = data.municipality;
    const thisMonth = getLocalTime(now, timeZone).month;
    const lastMonth = addMonths(thisMonth, -1);
    const today = getMonthSpan(thisMonth, { now, timeZone });
    const [partners, report] = await Promise.all([
      listPartners(deps.kv),
      loadPrizeReport(deps.kv, {
        from: today.days[0],
        to: today.runningUntil ?? today.days.at(-1)!,
        attractionCount: data.attractions.length,
      }),
    ]);
    const admin = getStaff(c).role === "admin";
    const low = report.prizes.filter((row) =>
      row.lowStock && row.prize.status === "active"
    );
    return renderPanelPage(c, deps, {
      title: tr("title"),
      active: "premios",
      children: (
        <>
          <p class="lead">{tr("lead")}</p>
          {notice && <p class="notice notice--ok" role="status">{notice}</p>}
          {low.map((row) => (
            <p class="notice notice--warn" role="alert" key={row.prize.id}>
              {tr("lowStock", {
                left: row.stockLeft,
                total: row.prize.stockTotal,
                prize: row.prize.name.es,
                partner: row.partner?.name ?? row.prize.partnerId,
              })}
            </p>
          ))}
          {!admin && <p>{tr("readOnly")}</p>}
          <PrizeFigures report={report} heading={tr("figuresThisMonth")} />

          <h2>{tr("partners")}</h2>
          {admin && (
            <p>
              <a class="button" href="/panel/premios/comercio/nuevo">
                {tr("addPartner")}
              </a>
            </p>
          )}
          {partners.length === 0 ? <p>{tr("noPartners")}</p> : (
            <div
              class="table-scroll"
              tabIndex={0}
              role="region"
              aria-label={tr("partners")}
            >
              <table class="console-table" data-table="partners">
                <thead>
                  <tr>
                    <th scope="col">{tr("colName")}</th>
                    <th scope="col">{tr("colAddress")}</th>
                    <th scope="col">{tr("colProvider")}</th>
                    <th scope="col">{tr("colState")}</th>
                    <th scope="col">{tr("colActions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {partners.map((partner) => (
                    <tr key={partner.id} data-partner={partner.id}>
                      <td>{partner.name}</td>
                      <td>{partner.address}</td>
                      <td>
                        {data.providers.find((p) =>
                          p.slug === partner.providerSlug
                        )?.name ?? tr("providerNone")}
                      </td>
                      <td>{tr(partner.active ? "active" : "paused")}</td>
                      <td>
                        <ul class="button-row">
                          <li>
                            <a
                              href={`/panel/premios/${
                                encodeURIComponent(partner.id)
                              }/informe.pdf?mes=${lastMonth}`}
                            >
                              {tr("report", {
                                month: formatMonth(lastMonth, LANG),
                              })}
                            </a>
                          </li>
                          {admin && (
                            <li>
                              <a
                                href={`/panel/premios/comercio/${
                                  encodeURIComponent(partner.id)
                                }`}
                              >
                                {tr("edit")}
                              </a>
                            </li>
                          )}
                          {admin && (
                            <li>
                              <form
                                method="post"
                                action={`/panel/premios/comercio/${
                                  encodeURIComponent(partner.id)
                                }/pin`}
                              >
                                <button
                                  class="button button--secondary"
                                  type="submit"
                                >
                                  {tr("newPin")}
                                </button>
                              </form>
                            </li>
                          )}
                        </ul>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <h2>{tr("prizes")}</h2>
          {admin && partners.length > 0 && (
            <p>
              <a class="button" href="/panel/premios/premio/nuevo">
                {tr("addPrize")}
              </a>
            </p>
          )}
          {report.prizes.length === 0 ? <p>{tr("noPrizes")}</p> : (
            <div
              class="table-scroll"
              tabIndex={0}
              role="region"
              aria-label={tr("prizes")}
            >
              <table class="console-table" data-table="prizes">
                <thead>
                  <tr>
                    <th scope="col">{tr("colName")}</th>
                    <th scope="col">{tr("colPartner")}</th>
                    <th scope="col">{tr("colRequirement")}</th>
                    <th scope="col">{tr("colDates")}</th>
                    <th scope="col">{tr("colStock")}</th>
                    <th scope="col">{tr("colLimits")}</th>
                    <th scope="col">{tr("colState")}</th>
                    {admin && <th scope="col">{tr("colActions")}</th>}
                  </tr>
                </thead>
                <tbody>
                  {report.prizes.map(({ prize, partner, stockLeft }) => (
                    <tr key={prize.id} data-prize={prize.id}>
                      <td>{prize.name.es}</td>
                      <td>{partner?.name ?? prize.partnerId}</td>
                      <td>{describeRequirement(prize, data)}</td>
                      <td>
                        {tr("dates", {
                          from: formatDate(prize.validFrom, timeZone, LANG),
                          until: formatDate(prize.validUntil, timeZone, LANG),
                        })}
                      </td>
                      <td>
                        {tr("stock", {
                          left: stockLeft,
                          total: prize.stockTotal,
                        })}
                      </td>
                      <td>
                        {tr("limits", {
                          perPassport: prize.perPassport,
                          perDay: prize.stockPerDay === null
                            ? "none"
                            : String(prize.stockPerDay),
                          accounts: prize.requiresAccount ? "yes" : "no",
                        })}
                      </td>
                      <td>
                        {tr(prize.status === "active" ? "active" : "paused")}
                      </td>
                      {admin && (
                        <td>
                          <a
                            href={`/panel/premios/premio/${
                              encodeURIComponent(prize.id)
                            }`}
                          >
                            {tr("edit")}
                          </a>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ),
    });
  };

  const partnerForm = (
    c: Context<AppEnv>,
    shown: ShownForm<Partner>,
    status?: ContentfulStatusCode,
  ) => {
    const { data } = deps.data.current();
    return renderPanelPage(c, deps, {
      title: shown.current
        ? tr("partnerFormEdit", { name: shown.current.name })
        : tr("partnerFormNew"),
      active: "premios",
      status,
      children: <PartnerFields shown={shown} data={data} />,
    });
  };
  const prizeForm = async (
    c: Context<AppEnv>,
    shown: ShownForm<Prize>,
    status?: ContentfulStatusCode,
  ) => {
    const { data } = deps.data.current();
    return renderPanelPage(c, deps, {
      title: shown.current
        ? tr("prizeFormEdit", { name: shown.current.name.es })
        : tr("prizeFormNew"),
      active: "premios",
      status,
      children: (
        <PrizeFields
          shown={shown}
          data={data}
          partners={await listPartners(deps.kv)}
        />
      ),
    });
  };
  /**
   * A submitted partner or prize form: shown again with its errors and what
   * was typed (422); refused with the version stored now when another save
   * of the version it was shown with came first (409); else saved.
   */
  const submit = async <T,>(
    c: Context<AppEnv>,
    { form, read, parse, save, show }: {
      form: Record<string, string>;
      read: (id: string) => Promise<Deno.KvEntryMaybe<T>>;
      parse: (form: Record<string, string>, current: T | null) => FormResult<T>;
      save: (value: T, versionstamp: string | null) => Promise<unknown>;
      show: (
        shown: ShownForm<T>,
        status: ContentfulStatusCode,
      ) => Response | Promise<Response>;
    },
  ) => {
    const stored = form.id ? await read(form.id) : null;
    const current = stored?.value ?? null;
    const versionstamp = form.version || null;
    const parsed = parse(form, current);
    if (!parsed.ok) {
      return show(
        { current, versionstamp, typed: form, errors: parsed.errors },
        422,
      );
    }
    try {
      await save(parsed.value, versionstamp);
    } catch (error) {
      if (!(error instanceof ConflictError) || !stored) throw error;
      const now = await read(form.id);
      return show(
        { current: now.value, versionstamp: now.versionstamp, conflict: true },
        409,
      );
    }
    return c.redirect("/panel/premios?aviso=guardado", 303);
  };
  const found = <T,>(entry: Deno.KvEntryMaybe<T>) => {
    if (entry.value === null) throw new NotFoundError("No existe");
    return entry as Deno.KvEntry<T>;
  };

  return createPanelRouter(deps)
    .get(
      "/",
      (c) =>
        list(c, c.req.query("aviso") === "guardado" ? tr("saved") : undefined),
    )
    .use("/comercio/*", requireAdmin())
    .use("/premio/*", requireAdmin())
    .use("/comercio", requireAdmin())
    .use("/premio", requireAdmin())
    .get(
      "/comercio/nuevo",
      (c) => partnerForm(c, { current: null, versionstamp: null }),
    )
    .get("/comercio/:id", async (c) => {
      const entry = found(await getPartner(deps.kv, c.req.param("id")));
      return partnerForm(c, {
        current: entry.value,
        versionstamp: entry.versionstamp,
      });
    })
    .post("/comercio", async (c) =>
      submit(c, {
        form: await readForm(c),
        read: (id) => getPartner(deps.kv, id),
        parse: (form, current) =>
          parsePartnerForm(form, {
            data: deps.data.current().data,
            current,
            now: deps.now(),
          }),
        save: (partner, versionstamp) =>
          savePartner(deps.kv, {
            partner,
            versionstamp,
            staff: getStaff(c),
            now: deps.now(),
          }),
        show: (shown, status) => partnerForm(c, shown, status),
      }))
    .post("/comercio/:id/pin", async (c) => {
      const partner = found(await getPartner(deps.kv, c.req.param("id"))).value;
      const pin = await issuePartnerPin(deps.kv, {
        partnerId: partner.id,
        staff: getStaff(c),
        now: deps.now(),
      });
      const url = `${getPublicOrigin(c, deps.config)}/socio`;
      return renderPanelPage(c, deps, {
        title: tr("pinTitle", { partner: partner.name }),
        active: "premios",
        children: (
          <>
            <p class="pin-reveal" data-pin>
              {`${pin.slice(0, 4)} ${pin.slice(4)}`}
            </p>
            <p>{tr("pinShown", { url })}</p>
            <p class="muted">{tr("pinConfirm")}</p>
            <p>
              <a href="/panel/premios">{tr("cancel")}</a>
            </p>
          </>
        ),
      });
    })
    .get(
      "/premio/nuevo",
      (c) => prizeForm(c, { current: null, versionstamp: null }),
    )
    .get("/premio/:id", async (c) => {
      const entry = found(await getPrize(deps.kv, c.req.param("id")));
      return prizeForm(c, {
        current: entry.value,
        versionstamp: entry.versionstamp,
      });
    })
    .post("/premio", async (c) => {
      const partners = await listPartners(deps.kv);
      return submit(c, {
        form: await readForm(c),
        read: (id) => getPrize(deps.kv, id),
        parse: (form, current) =>
          parsePrizeForm(form, {
            data: deps.data.current().data,
            partners,
            current,
            now: deps.now(),
          }),
        save: (prize, versionstamp) =>
          savePrize(deps.kv, {
            prize,
            versionstamp,
            staff: getStaff(c),
            now: deps.now(),
          }),
        show: (shown, status) => prizeForm(c, shown, status),
      });
    });
}

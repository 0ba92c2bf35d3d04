import type { ComponentChildren } from "preact";
import {
  DataText,
  FallbackNote,
  getFallbackProps,
} from "@/components/DataText.tsx";
import { Icon } from "@/components/Icon.tsx";
import { Breadcrumbs, OnThisPage } from "@/components/PageNav.tsx";
import type { PrivacyContact } from "@/lib/data/mod.ts";
import { formatDate } from "@/lib/format/mod.ts";
import {
  DEFAULT_LANG,
  type Lang,
  localizePath,
  type RichValues,
  t,
  tRich,
} from "@/lib/i18n/mod.ts";
import {
  describeAppliesTo,
  describeRetention,
  getRecordText,
  type PersonalRecord,
  type RecordStore,
} from "@/lib/personal_data/mod.ts";

/** What the privacy notice shows: the data set's contact, the record table and where data goes. */
export interface PrivacyNoticeProps {
  /** The page's language; the Spanish notice is the binding one, the others say so. */
  lang: Lang;
  brandName: string;
  municipality: { name: string; state: string; timeZone: string };
  /** The data set's contact, from `localizeData(data, lang)`: untranslated texts are marked. */
  privacy: PrivacyContact;
  /** The data set is a demo: its contact is made up, and the notice says so. */
  demo: boolean;
  /** Every kind of record with personal data (lib/personal_data/retention.ts). */
  records: readonly PersonalRecord[];
  /** The WordPress site's host when tickets go to WordPress; none with the embedded CMS. */
  cmsHost?: string;
  /** The language-model provider's host when `OPENAI_BASE_URL` names it. */
  modelHost?: string;
  /** The maps' tile host (`MAP_TILE_URL`): a visitor's browser asks it for the tiles. */
  mapHost?: string;
}

/** The notice's path, where its Spanish (binding) version lives. */
export const PRIVACY_NOTICE_PATH = "/aviso-de-privacidad";

/** The passport page's data controls (download, correct, erase): routes/mi-pasaporte.tsx. */
const PASSPORT_DATA = "/mi-pasaporte#datos-titulo";

/** The page's sections, for its table of contents (and the short notices' links). */
const SECTIONS = [
  { id: "aviso-simplificado", key: "sectionSummary" },
  { id: "responsable", key: "sectionResponsible" },
  { id: "datos", key: "sectionData" },
  { id: "destinos", key: "sectionDestinations" },
  { id: "conservacion", key: "sectionRetention" },
  { id: "derechos", key: "sectionRights" },
  { id: "fundamento", key: "sectionLaw" },
];

/** A message of the notice (`locales/<lang>/page_privacy.json`). */
function tPrivacy(
  lang: Lang,
  key: string,
  values?: Record<string, string | number>,
): string {
  return t(lang, `page_privacy.${key}`, values);
}

/** How many days an unanswered question is kept, as the record table says. */
function getQuestionDays(records: readonly PersonalRecord[]): number {
  const kept = records.find((r) => r.id === "unanswered_questions")
    ?.retention[0]?.retention;
  return kept?.kind === "period" && kept.ms ? kept.ms / 86_400_000 : 0;
}

/**
 * The integral privacy notice (aviso de privacidad integral) with its
 * simplified summary on top: who is responsible, what is collected and
 * why, where it goes, how long each record lives (from the record table,
 * never retyped) and how to exercise each right. In another language it
 * is a faithful translation that says the Spanish notice is the binding
 * one, and links it.
 */
export function PrivacyNotice(props: PrivacyNoticeProps) {
  const {
    lang,
    privacy,
    municipality,
    demo,
    records,
    cmsHost,
    modelHost,
    mapHost,
  } = props;
  const tr = (key: string, values?: Record<string, string | number>) =>
    tPrivacy(lang, key, values);
  const rich = (key: string, values: RichValues) =>
    tRich(lang, `page_privacy.${key}`, values);
  const strong = (chunks: ComponentChildren) => <strong>{chunks}</strong>;
  const passportLink = (chunks: ComponentChildren) => (
    <a href={localizePath(lang, PASSPORT_DATA)}>{chunks}</a>
  );
  const unit = privacy.transparencyUnit;
  const updated = formatDate(privacy.updated, municipality.timeZone, lang);
  const office = <DataText of={privacy} field="office" lang={lang} />;
  // Who the chat's messages go to, named by host when known.
  const provider = modelHost
    ? tr("providerNamed", { host: modelHost })
    : tr("provider");
  const storeLabel = (store: RecordStore) =>
    ({
      kv: tr("storeKv"),
      cms: cmsHost ? tr("storeCmsHost", { host: cmsHost }) : tr("storeCms"),
      model_provider: modelHost
        ? tr("storeModelHost", { host: modelHost })
        : tr("storeModel"),
      memory: tr("storeMemory"),
      stdout: tr("storeStdout"),
    })[store];
  return (
    <>
      <section class="page-head page-head--info">
        <div class="container">
          <Breadcrumbs lang={lang} current={tr("title")} />
          <h1>{tr("title")}</h1>
          {lang !== DEFAULT_LANG && (
            <p class="notice privacy-translation" id="version-en-espanol">
              <Icon name="info" /> {rich("translationNote", {
                link: (chunks) => (
                  <a href={PRIVACY_NOTICE_PATH} hreflang={DEFAULT_LANG}>
                    {chunks}
                  </a>
                ),
              })}
            </p>
          )}
          <p class="lead">
            {tr("lead", {
              municipality: municipality.name,
              brand: props.brandName,
            })}
          </p>
          <p class="privacy-updated">
            {rich("updated", {
              date: updated,
              time: (chunks) => (
                <time dateTime={privacy.updated}>{chunks}</time>
              ),
            })}
          </p>
          {demo && (
            <p class="demo-mark" id="datos-demostracion">
              <Icon name="info" /> {rich("demo", { strong })}
            </p>
          )}
        </div>
      </section>
      <OnThisPage
        label={tr("onThisPage")}
        sections={SECTIONS.map((s) => ({ id: s.id, label: tr(s.key) }))}
      />

      <div class="container privacy">
        <section
          id="aviso-simplificado"
          class="tips"
          aria-labelledby="aviso-simplificado-titulo"
        >
          <h2 id="aviso-simplificado-titulo">{tr("summaryTitle")}</h2>
          <p>{rich("summary", { office, provider })}</p>
          <p>
            {rich("summaryRights", {
              passport: passportLink,
              unit: (chunks) => <a href="#responsable">{chunks}</a>,
            })}
          </p>
        </section>

        <section id="responsable" aria-labelledby="responsable-titulo">
          <h2 id="responsable-titulo">{tr("responsibleTitle")}</h2>
          <p>
            {rich("responsible", {
              municipality: municipality.name,
              state: municipality.state,
              office,
              address: privacy.address,
            })}
          </p>
          <h3>
            <DataText of={unit} field="name" lang={lang} />
          </h3>
          <p>{tr("unitIntro")}</p>
          <ul class="privacy-contact">
            <li>{rich("unitAddress", { address: unit.address, strong })}</li>
            <li>
              {rich("unitEmail", {
                email: <a href={`mailto:${unit.email}`}>{unit.email}</a>,
                strong,
              })}
            </li>
            <li>
              {rich("unitPhone", {
                phone: (
                  <a href={`tel:${unit.phone.replace(/[^\d+]/g, "")}`}>
                    {unit.phone}
                  </a>
                ),
                strong,
              })}
            </li>
            {unit.hours && (
              <li>
                {rich("unitHours", {
                  hours: <DataText of={unit} field="hours" lang={lang} />,
                  strong,
                })}
              </li>
            )}
          </ul>
        </section>

        <section id="datos" aria-labelledby="datos-titulo">
          <h2 id="datos-titulo">{tr("dataTitle")}</h2>
          <p>{tr("dataIntro")}</p>
          <h3 id="boleto">{tr("ticketTitle")}</h3>
          <p>{tr("ticket")}</p>
          <h3 id="pasaporte">{tr("passportTitle")}</h3>
          <p>{tr("passport")}</p>
          <h3 id="asistente">{tr("assistantTitle")}</h3>
          <p>{tr("assistant", { provider, days: getQuestionDays(records) })}</p>
          <h3 id="personal">{tr("staffTitle")}</h3>
          <p>{tr("staff")}</p>
          <h3 id="cookies">{tr("cookiesTitle")}</h3>
          <p>{tr("cookies")}</p>
        </section>

        <section id="destinos" aria-labelledby="destinos-titulo">
          <h2 id="destinos-titulo">{tr("destinationsTitle")}</h2>
          <ul class="plain-list">
            <li>{rich("destKv", { strong })}</li>
            <li>
              {cmsHost
                ? rich("destCmsHost", { host: cmsHost, strong })
                : rich("destCms", { strong })}
            </li>
            <li>{rich("destModel", { provider, strong })}</li>
            {mapHost && <li>{rich("destMap", { host: mapHost, strong })}</li>}
            <li>{rich("destNobody", { strong })}</li>
          </ul>
        </section>

        <section id="conservacion" aria-labelledby="conservacion-titulo">
          <h2 id="conservacion-titulo">{tr("retentionTitle")}</h2>
          <p>{tr("retentionIntro")}</p>
          <table class="retention-table">
            <caption>{tr("tableCaption")}</caption>
            <thead>
              <tr>
                <th scope="col">{tr("colRecord")}</th>
                <th scope="col">{tr("colHolds")}</th>
                <th scope="col">{tr("colPurpose")}</th>
                <th scope="col">{tr("colWhere")}</th>
                <th scope="col">{tr("colKept")}</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <tr key={record.id} id={`registro-${record.id}`}>
                  <th scope="row">{getRecordText(lang, record, "name")}</th>
                  <td data-label={tr("colHolds")}>
                    {getRecordText(lang, record, "holds")}
                  </td>
                  <td data-label={tr("colPurpose")}>
                    {getRecordText(lang, record, "purpose")}
                  </td>
                  <td data-label={tr("colWhere")}>
                    {storeLabel(record.store)}
                  </td>
                  <td data-label={tr("colKept")}>
                    <ul class="retention-rules">
                      {record.retention.map((rule, i) => {
                        const retention = describeRetention(
                          lang,
                          rule.retention,
                          record.store,
                        );
                        return (
                          <li key={i}>
                            {rule.appliesTo
                              ? rich("rule", {
                                who: describeAppliesTo(lang, rule.appliesTo),
                                retention,
                                strong,
                              })
                              : retention}
                          </li>
                        );
                      })}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section id="derechos" aria-labelledby="derechos-titulo">
          <h2 id="derechos-titulo">{tr("rightsTitle")}</h2>
          <p>{tr("rightsIntro")}</p>
          <dl class="privacy-rights">
            <dt id="acceso">{tr("accessTitle")}</dt>
            <dd>{rich("access", { passport: passportLink })}</dd>
            <dt id="rectificacion">{tr("rectificationTitle")}</dt>
            <dd>{rich("rectification", { passport: passportLink })}</dd>
            <dt id="cancelacion">{tr("cancellationTitle")}</dt>
            <dd>{rich("cancellation", { passport: passportLink })}</dd>
            <dt id="oposicion">{tr("objectionTitle")}</dt>
            <dd>{tr("objection")}</dd>
          </dl>
          <h3 id="solicitudes">{tr("requestsTitle")}</h3>
          <p>
            {rich("requests", {
              mail: (chunks) => <a href={`mailto:${unit.email}`}>{chunks}</a>,
              email: unit.email,
              address: unit.address,
            })}
          </p>
        </section>

        <section id="fundamento" aria-labelledby="fundamento-titulo">
          <h2 id="fundamento-titulo">{tr("lawTitle")}</h2>
          <p>
            {tr("lawIntro")}
            <FallbackNote of={privacy} field="laws" lang={lang} />
          </p>
          <ul {...getFallbackProps(privacy, "laws", "plain-list")}>
            {privacy.laws.map((law) => <li key={law}>{tr("law", { law })}</li>)}
          </ul>
          <p>{tr("changes")}</p>
        </section>
      </div>
    </>
  );
}

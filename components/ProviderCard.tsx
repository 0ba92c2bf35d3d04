import { getFallbackLang, type Provider } from "@/lib/data/mod.ts";
import { formatDistance } from "@/lib/format/mod.ts";
import { getMapsUrl } from "@/lib/geo/mod.ts";
import { type Lang, localizePath, t, tRich } from "@/lib/i18n/mod.ts";
import {
  type DirectoryEntry,
  formatWebsite,
  getTelUrl,
  getWhatsAppUrl,
} from "@/lib/services/mod.ts";
import { DataText, Fallback } from "./DataText.tsx";
import { BrandIcon, Icon } from "./Icon.tsx";
import type { PlaceHours } from "@/lib/hours/mod.ts";
import { HoursNow } from "./OpeningHours.tsx";

/** A message of the services pages (`locales/<lang>/page_services.json`). */
export function tServices(
  lang: Lang,
  key: string,
  values?: Record<string, string | number>,
): string {
  return t(lang, `page_services.${key}`, values);
}

const PRICE_LEVELS: Record<Provider["priceRange"], string> = {
  "$": "low",
  "$$": "medium",
  "$$$": "high",
};

function NewWindow({ lang }: { lang: Lang }) {
  return <span class="sr-only">{t(lang, "common.opensInNewWindow")}</span>;
}

/** `$$ · Precio medio`, the dollar signs hidden from screen readers. */
export function PriceRange(
  { range, lang }: { range: Provider["priceRange"]; lang: Lang },
) {
  return (
    <>
      <span aria-hidden="true">{range} ·</span>{" "}
      {tServices(lang, "priceRange", { level: PRICE_LEVELS[range] })}
    </>
  );
}

/**
 * A provider's ways to get in touch, as links: call, WhatsApp, e-mail,
 * website (as the data set has them) and the map. `full` spells out the
 * e-mail address and the website (a provider's page); a card keeps them short.
 */
export function ContactLinks(
  { provider, lang, full = false, map = true }: {
    provider: Provider;
    lang: Lang;
    full?: boolean;
    /** With the link to the map (a package's contact goes without it). */
    map?: boolean;
  },
) {
  const { contact } = provider;
  return (
    <ul class="contact-links">
      <li>
        <a class="contact-links__call" href={getTelUrl(contact.phone)}>
          <Icon name="phone" />
          <span class="sr-only">{tServices(lang, "callLabel")}</span>{" "}
          {contact.phone}
        </a>
      </li>
      {contact.whatsapp && (
        <li>
          <a
            href={getWhatsAppUrl(contact.whatsapp)}
            target="_blank"
            rel="noopener noreferrer"
          >
            <BrandIcon name="whatsapp" /> WhatsApp
            {full && (
              <span class="contact-links__detail">{contact.whatsapp}</span>
            )}
            <NewWindow lang={lang} />
          </a>
        </li>
      )}
      {contact.email && (
        <li>
          <a href={`mailto:${contact.email}`}>
            <Icon name="send" />{" "}
            {full ? contact.email : tServices(lang, "email")}
          </a>
        </li>
      )}
      {contact.website && (
        <li>
          <a href={contact.website} target="_blank" rel="noopener noreferrer">
            <Icon name="external" />{" "}
            {full ? formatWebsite(contact.website) : tServices(lang, "website")}
            <NewWindow lang={lang} />
          </a>
        </li>
      )}
      {map && (
        <li>
          <a
            href={getMapsUrl(provider.location)}
            target="_blank"
            rel="noopener noreferrer"
          >
            <Icon name="pin" /> {tServices(lang, "map")}
            <NewWindow lang={lang} />
          </a>
        </li>
      )}
    </ul>
  );
}

/** A provider's languages (`Español, Inglés`), marked when not translated. */
export function ProviderLanguages(
  { provider, lang }: { provider: Provider; lang: Lang },
) {
  return (
    <Fallback lang={lang} from={getFallbackLang(provider, "languages")}>
      {provider.languages?.join(", ")}
    </Fallback>
  );
}

/**
 * A provider in the directory: kind, name (to its page), distance from the
 * visitor when known, prices, hours, address, contact and the nearest
 * attractions with their distances. `entry` comes from a data set localized
 * to `lang` (`localizeData`): texts without a translation are marked.
 */
export function ProviderCard(
  { entry, lang, hours }: {
    entry: DirectoryEntry;
    lang: Lang;
    /** Whether it is open now, in words. */
    hours?: PlaceHours;
  },
) {
  const { provider, distanceKm, nearby } = entry;
  return (
    <article class="provider" id={`prestador-${provider.slug}`}>
      <p class="chip">{tServices(lang, "typeChip", { type: provider.type })}</p>
      <h3 class="provider__name">
        <a href={localizePath(lang, `/turismo/servicios/${provider.slug}`)}>
          {provider.name}
        </a>
      </h3>
      {distanceKm !== undefined && (
        <p class="provider__distance">
          <Icon name="locate" />
          <span>
            {tRich(lang, "page_services.distanceFromYou", {
              distance: formatDistance(distanceKm, lang),
              strong: (chunks) => <strong>{chunks}</strong>,
            })}
            <span class="sr-only">{tServices(lang, "inStraightLine")}</span>
          </span>
        </p>
      )}
      {hours && (
        <HoursNow line={hours.line} until={hours.validUntilMs} compact />
      )}
      <p class="provider__description">
        <DataText of={provider} field="description" lang={lang} />
      </p>
      <dl class="provider__facts">
        <div>
          <dt>
            <Icon name="cash" />
            <span class="sr-only">{tServices(lang, "prices")}</span>
          </dt>
          <dd>
            <PriceRange range={provider.priceRange} lang={lang} />
          </dd>
        </div>
        {provider.schedule && (
          <div>
            <dt>
              <Icon name="clock" />
              <span class="sr-only">{tServices(lang, "schedule")}</span>
            </dt>
            <dd>
              <DataText of={provider} field="schedule" lang={lang} />
            </dd>
          </div>
        )}
        <div>
          <dt>
            <Icon name="pin" />
            <span class="sr-only">{tServices(lang, "address")}</span>
          </dt>
          <dd>{provider.address}</dd>
        </div>
        {provider.languages && (
          <div>
            <dt>
              <Icon name="chat" />
              <span class="sr-only">{tServices(lang, "languages")}</span>
            </dt>
            <dd>
              <ProviderLanguages provider={provider} lang={lang} />
            </dd>
          </div>
        )}
      </dl>
      <ContactLinks provider={provider} lang={lang} />
      {nearby.length > 0 && (
        <div class="provider__nearby">
          <p class="provider__nearby-title">{tServices(lang, "nearby")}</p>
          <ul>
            {nearby.map(({ attraction, distanceKm }) => (
              <li key={attraction.slug}>
                <a
                  href={localizePath(
                    lang,
                    `/turismo/atractivos/${attraction.slug}`,
                  )}
                >
                  {attraction.name}
                </a>{" "}
                <span class="provider__km">
                  ({formatDistance(distanceKm, lang)})
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </article>
  );
}

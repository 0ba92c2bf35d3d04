import type { Provider } from "@/lib/data/tourism_data.ts";
import { formatDistance } from "@/lib/format/format.ts";
import { getMapsUrl } from "@/lib/geo/geo.ts";
import {
  type DirectoryEntry,
  formatWebsite,
  getTelUrl,
  getWhatsAppUrl,
  PRICE_RANGE_LABELS,
  PROVIDER_TYPE_LABELS,
} from "@/lib/services/directory.ts";
import { BrandIcon, Icon } from "./Icon.tsx";

const NEW_WINDOW = <span class="sr-only">(se abre en una ventana nueva)</span>;

/** `$$ · Precio medio`, the dollar signs hidden from screen readers. */
export function PriceRange({ range }: { range: Provider["priceRange"] }) {
  return (
    <>
      <span aria-hidden="true">{range} ·</span> {PRICE_RANGE_LABELS[range]}
    </>
  );
}

/**
 * A provider's ways to get in touch, as links: call, WhatsApp, e-mail,
 * website (as the data set has them) and the map. `full` spells out the
 * e-mail address and the website (a provider's page); a card keeps them short.
 */
export function ContactLinks(
  { provider, full = false }: { provider: Provider; full?: boolean },
) {
  const { contact } = provider;
  return (
    <ul class="contact-links">
      <li>
        <a class="contact-links__call" href={getTelUrl(contact.phone)}>
          <Icon name="phone" />
          <span class="sr-only">Llamar al</span> {contact.phone}
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
            {NEW_WINDOW}
          </a>
        </li>
      )}
      {contact.email && (
        <li>
          <a href={`mailto:${contact.email}`}>
            <Icon name="send" /> {full ? contact.email : "Correo"}
          </a>
        </li>
      )}
      {contact.website && (
        <li>
          <a href={contact.website} target="_blank" rel="noopener noreferrer">
            <Icon name="external" />{" "}
            {full ? formatWebsite(contact.website) : "Sitio web"}
            {NEW_WINDOW}
          </a>
        </li>
      )}
      <li>
        <a
          href={getMapsUrl(provider.location)}
          target="_blank"
          rel="noopener noreferrer"
        >
          <Icon name="pin" /> Ver en el mapa
          {NEW_WINDOW}
        </a>
      </li>
    </ul>
  );
}

/**
 * A provider in the directory: kind, name (to its page), distance from the
 * visitor when known, prices, hours, address, contact and the nearest
 * attractions with their distances.
 */
export function ProviderCard({ entry }: { entry: DirectoryEntry }) {
  const { provider, distanceKm, nearby } = entry;
  return (
    <article class="provider" id={`prestador-${provider.slug}`}>
      <p class="chip">{PROVIDER_TYPE_LABELS[provider.type].chip}</p>
      <h3 class="provider__name">
        <a href={`/turismo/servicios/${provider.slug}`}>{provider.name}</a>
      </h3>
      {distanceKm !== undefined && (
        <p class="provider__distance">
          <Icon name="locate" />
          <span>
            A <strong>{formatDistance(distanceKm)}</strong> de ti
            <span class="sr-only">, en línea recta</span>
          </span>
        </p>
      )}
      <p class="provider__description">{provider.description}</p>
      <dl class="provider__facts">
        <div>
          <dt>
            <Icon name="cash" />
            <span class="sr-only">Precios</span>
          </dt>
          <dd>
            <PriceRange range={provider.priceRange} />
          </dd>
        </div>
        {provider.schedule && (
          <div>
            <dt>
              <Icon name="clock" />
              <span class="sr-only">Horario</span>
            </dt>
            <dd>{provider.schedule}</dd>
          </div>
        )}
        <div>
          <dt>
            <Icon name="pin" />
            <span class="sr-only">Dirección</span>
          </dt>
          <dd>{provider.address}</dd>
        </div>
        {provider.languages && (
          <div>
            <dt>
              <Icon name="chat" />
              <span class="sr-only">Idiomas</span>
            </dt>
            <dd>{provider.languages.join(", ")}</dd>
          </div>
        )}
      </dl>
      <ContactLinks provider={provider} />
      {nearby.length > 0 && (
        <div class="provider__nearby">
          <p class="provider__nearby-title">Atractivos cerca</p>
          <ul>
            {nearby.map(({ attraction, distanceKm }) => (
              <li key={attraction.slug}>
                <a href={`/turismo/atractivos/${attraction.slug}`}>
                  {attraction.name}
                </a>{" "}
                <span class="provider__km">({formatDistance(distanceKm)})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </article>
  );
}

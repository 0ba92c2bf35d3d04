/**
 * The passport's prizes as the API gives them (`GET /api/turismo/prizes`)
 * and the passport page renders them: in the request's language, with the
 * partner's address, hours and map link, and the passport's claims (their
 * keys included: only ever for the passport's own bearer or session).
 */
import {
  listPrizesOfPassport,
  type PrizeClaim,
  type PrizeView,
} from "@/lib/db/mod.ts";
import type { RewardsData } from "@/lib/prizes/mod.ts";
import type { Lang } from "@/lib/i18n/mod.ts";
import type { LoadedData } from "@/lib/data/mod.ts";

/** What a prize's requirement reads of the data set. */
export function getRewardsData(loaded: LoadedData): RewardsData {
  return {
    attractionCount: loaded.totalAttractions,
    routes: new Map(
      loaded.data.routes.map((route) => [route.slug, route.attractions]),
    ),
  };
}

export function toClaim(claim: PrizeClaim) {
  const { claimId, reference, secret, claimedAt, redeemedAt } = claim;
  return { claimId, reference, secret, claimedAt, redeemedAt };
}

function mapUrl(location: { lat: number; lng: number } | null) {
  if (!location) return null;
  const { lat, lng } = location;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=18/${lat}/${lng}`;
}

function toPassportPrize(view: PrizeView, loaded: LoadedData, lang: Lang) {
  const { prize, partner } = view;
  const said = lang === "en" ? "en" : "es";
  const provider = partner.providerSlug === null
    ? undefined
    : loaded.data.providers.find((p) => p.slug === partner.providerSlug);
  const providerHours = provider
    ? provider.i18n?.en?.schedule && said === "en"
      ? provider.i18n.en.schedule
      : provider.schedule ??
        provider.openingHours ?? null
    : null;
  return {
    prizeId: prize.id,
    name: prize.name[said],
    description: prize.description[said],
    partner: {
      name: partner.name,
      address: partner.address || provider?.address || "",
      hours: partner.hours || providerHours,
      mapUrl: mapUrl(partner.location ?? provider?.location ?? null),
    },
    validUntil: prize.validUntil,
    progress: view.progress,
    refusal: view.refusal,
    requiresAccount: prize.requiresAccount,
    claimsLeft: view.claimsLeft,
    claims: view.claims.map(toClaim),
  };
}

/** A prize as the passport shows it. */
export type PassportPrizeView = ReturnType<typeof toPassportPrize>;

/** `userId`'s prizes, its progress and claims, in `lang`. */
export async function listPassportPrizes(
  kv: Deno.Kv,
  { userId, loaded, lang, now }: {
    userId: string;
    loaded: LoadedData;
    lang: Lang;
    now: Date;
  },
): Promise<PassportPrizeView[]> {
  const views = await listPrizesOfPassport(kv, {
    userId,
    data: getRewardsData(loaded),
    now,
    timeZone: loaded.data.municipality.timeZone,
  });
  return views.map((view) => toPassportPrize(view, loaded, lang));
}

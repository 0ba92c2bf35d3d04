/** A partner, its prize and PIN, and a tourist's claim, for the rewards tests. */
import {
  claimPrize,
  issuePartnerPin,
  newRewardsId,
  type Partner,
  type Prize,
  savePartner,
  savePrize,
} from "@/lib/db/rewards.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { type TestContext, verifyVisits } from "./test_utils.ts";

export const STAFF: StaffMember = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
};

export function timeZone(ctx: TestContext): string {
  return ctx.deps.data.current().data.municipality.timeZone;
}

/** A partner as the console saves it: `overrides` change any field. */
export function partnerFixture(
  now: Date,
  overrides: Partial<Partner> = {},
): Partner {
  return {
    id: newRewardsId(),
    name: "Café La Parroquia",
    providerSlug: null,
    address: "Calle Juárez 10",
    hours: "9:00–20:00",
    location: null,
    active: true,
    pinVersion: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...overrides,
  };
}

/** A prize of `partnerId` for five stamps, 10 units, once a passport. */
export function prizeFixture(
  partnerId: string,
  now: Date,
  overrides: Partial<Prize> = {},
): Prize {
  return {
    id: newRewardsId(),
    partnerId,
    name: { es: "10 % de descuento", en: "10% off" },
    description: {
      es: "En cualquier bebida de la carta",
      en: "On any drink on the menu",
    },
    requirement: { kind: "stamps", count: 5 },
    validFrom: "2020-01-01",
    validUntil: "2099-12-31",
    stockTotal: 10,
    stockPerDay: null,
    perPassport: 1,
    requiresAccount: false,
    status: "active",
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...overrides,
  };
}

/**
 * Stores a partner and its prizes through the store's own saves, as the
 * console does, on any KV handle (a test of running services opens their
 * KV file). One prize of {@linkcode prizeFixture} unless `prizes` says.
 */
export async function storePartnerWithPrizes(
  kv: Deno.Kv,
  now: Date,
  { partner: partnerFields = {}, prizes = [{}] }: {
    partner?: Partial<Partner>;
    prizes?: Partial<Prize>[];
  } = {},
): Promise<{ partner: Partner; prizes: Prize[] }> {
  const partner = await savePartner(kv, {
    partner: partnerFixture(now, partnerFields),
    versionstamp: null,
    staff: STAFF,
    now,
  });
  const saved: Prize[] = [];
  for (const fields of prizes) {
    saved.push(
      await savePrize(kv, {
        prize: prizeFixture(partner.id, now, fields),
        versionstamp: null,
        staff: STAFF,
        now,
      }),
    );
  }
  return { partner, prizes: saved };
}

/** A partner with one prize (five stamps) and its PIN. */
export function seedPartner(
  ctx: TestContext,
  name = "Café La Parroquia",
): Promise<{ partner: Partner; prize: Prize; pin: string }> {
  return seedPartnerInKv(ctx.deps.kv, ctx.clock.now(), name);
}

/** {@linkcode seedPartner} on any KV handle. */
export async function seedPartnerInKv(
  kv: Deno.Kv,
  now: Date,
  name = "Café La Parroquia",
): Promise<{ partner: Partner; prize: Prize; pin: string }> {
  const { partner, prizes: [prize] } = await storePartnerWithPrizes(kv, now, {
    partner: { name },
  });
  const pin = await issuePartnerPin(kv, {
    partnerId: partner.id,
    staff: STAFF,
    now,
  });
  return { partner, prize, pin };
}

/** A tourist with five verified stamps who claims `prize`: the claim. */
export async function seedClaim(ctx: TestContext, prize: Prize) {
  const userId = crypto.randomUUID();
  await verifyVisits(ctx, userId, 5);
  const { claim } = await claimPrize(ctx.deps.kv, {
    userId,
    prizeId: prize.id,
    guest: false,
    data: { attractionCount: 17, routes: new Map() },
    now: ctx.clock.now(),
    timeZone: timeZone(ctx),
  });
  return { userId, claim };
}

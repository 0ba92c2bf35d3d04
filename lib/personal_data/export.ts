/**
 * Everything the portal holds about a tourist, as one JSON document (the
 * rights of access and portability): the passport, its visits with ratings
 * and notes (hidden ones too), badges and counters, the ticket as KV keeps
 * it (the CMS post holds the same fields), the sessions (when, never their
 * ids or handles) and the identity links. The tourist's page, the API and
 * the staff console all build it here.
 */
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { readNote } from "@/lib/db/notes.ts";
import { getPassportLastSeen } from "@/lib/db/passport_activity.ts";
import { listIdentitiesOfUser, listSessionsOfUser } from "@/lib/db/sessions.ts";
import {
  getShareCodeOfUser,
  getTicket,
  type Ticket,
} from "@/lib/db/tickets.ts";
import { listCheckInReceipts } from "@/lib/db/check_ins.ts";
import { getUserStats, listBadges, listVisits } from "@/lib/db/visits.ts";
import {
  listClaimsOfUser,
  listPartners,
  listPrizes,
} from "@/lib/db/rewards.ts";

/** The format's name and version, first in the file. */
export const EXPORT_FORMAT = "turismo-datos-personales/1";

/** The exported ticket. */
export interface ExportedTicket {
  shareCode: string;
  name: string;
  email: string;
  phone: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** Where its post lives and its id there. */
  cms: { kind: string; postId: number };
  /** The public route page (a path; the file names the origin in `portal`). */
  routePath: string;
}

/** The whole document. */
export interface PersonalDataExport {
  format: typeof EXPORT_FORMAT;
  /** The portal's origin and name. */
  portal: { name: string; origin: string };
  /** ISO 8601. */
  exportedAt: string;
  /** Null for a ticket without a passport (a staff export by e-mail). */
  passport: {
    userId: string;
    kind: "guest" | "account";
    /** ISO 8601 of the earliest session or identity link still known, or null. */
    createdAt: string | null;
    /** The last day it was used (`YYYY-MM-DD`, UTC), or null. */
    lastUsedDay: string | null;
    counters: { visits: number; badges: number };
  } | null;
  visits: {
    visitId: string;
    attraction: { slug: string; name: string | null };
    /** When the server recorded it. */
    visitedAt: string;
    /** When the tourist checked in, by the device's clock (a check-in queued offline is recorded later). */
    checkedInAt: string;
    /** How it was checked in: guide code or the phone's position. */
    method: "code" | "gps";
    rating: number | null;
    notes: string | null;
    ratedAt: string | null;
    /** When staff hid the notes from the public pages, or null. */
    notesHiddenAt: string | null;
  }[];
  badges: { id: string; name: string; icon: string; unlockedAt: string }[];
  /**
   * The answers kept for a device's check-ins (a week, so a retry gets the
   * same answer): the id, when and what was answered. Never a code or a
   * position.
   */
  checkIns: { checkInId: string; answeredAt: string; status: number }[];
  /**
   * The passport's prize claims: which prize, its reference at the counter,
   * when claimed and redeemed. Never the secret that makes its code.
   */
  prizes: {
    claimId: string;
    prize: { id: string; name: string | null };
    partner: string | null;
    reference: string;
    claimedAt: string;
    redeemedAt: string | null;
  }[];
  tickets: ExportedTicket[];
  sessions: {
    createdAt: string;
    expiresAt: string;
    lastUsedDay: string | null;
    guest: boolean;
  }[];
  identities: { provider: string; subject: string; linkedAt: string }[];
}

/** What an export reads. */
export interface ExportDeps {
  kv: Deno.Kv;
  cms: { readonly kind: string };
  now: () => Date;
  data: { current(): LoadedData };
}

/**
 * The export of a passport (`userId`), with its ticket and any other
 * tickets named (`shareCodes`, a staff export by e-mail); or of tickets
 * alone (`userId` null).
 */
export async function exportPersonalData(
  deps: ExportDeps,
  { userId, shareCodes = [], origin }: {
    userId: string | null;
    shareCodes?: string[];
    origin: string;
  },
): Promise<PersonalDataExport> {
  const { kv } = deps;
  const loaded = deps.data.current();
  const codes = new Set(shareCodes.map((code) => code.toLowerCase()));
  let passport: PersonalDataExport["passport"] = null;
  let visits: PersonalDataExport["visits"] = [];
  let badges: PersonalDataExport["badges"] = [];
  let checkIns: PersonalDataExport["checkIns"] = [];
  let prizes: PersonalDataExport["prizes"] = [];
  let sessions: PersonalDataExport["sessions"] = [];
  let identities: PersonalDataExport["identities"] = [];
  if (userId) {
    const [
      storedVisits,
      storedBadges,
      stats,
      storedSessions,
      links,
      lastSeen,
      own,
      receipts,
    ] = await Promise.all([
      listVisits(kv, userId),
      listBadges(kv, userId),
      getUserStats(kv, userId),
      listSessionsOfUser(kv, userId),
      listIdentitiesOfUser(kv, userId),
      getPassportLastSeen(kv, userId),
      getShareCodeOfUser(kv, userId),
      listCheckInReceipts(kv, userId),
    ]);
    prizes = await exportClaims(kv, userId);
    if (own) codes.add(own.toLowerCase());
    visits = storedVisits.map((visit) => ({
      visitId: visit.visitId,
      attraction: {
        slug: visit.slug,
        name: loaded.attractionsBySlug.get(visit.slug)?.name ?? null,
      },
      visitedAt: visit.visitedAt,
      checkedInAt: visit.checkedInAt ?? visit.visitedAt,
      method: visit.method ?? "code",
      rating: visit.rating ?? null,
      notes: readNote(visit, "author"),
      ratedAt: visit.ratedAt ?? null,
      notesHiddenAt: visit.notesHiddenAt ?? null,
    }));
    badges = storedBadges.map((badge) => ({
      id: badge.id,
      name: badge.name,
      icon: badge.icon,
      unlockedAt: badge.unlockedAt,
    }));
    checkIns = receipts.map((receipt) => ({
      checkInId: receipt.checkInId,
      answeredAt: receipt.answeredAt,
      status: receipt.status,
    }));
    sessions = storedSessions.map((session) => ({
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      lastUsedDay: session.lastSeenDay ?? null,
      guest: session.guest === true,
    }));
    identities = links.map((link) => ({
      provider: link.issuer,
      subject: link.subject,
      linkedAt: link.createdAt,
    }));
    const guest = links.length === 0 &&
      (lastSeen ? lastSeen.guest : sessions.every((s) => s.guest));
    const created = [
      ...sessions.map((s) => s.createdAt),
      ...identities.map((i) => i.linkedAt),
    ].sort()[0] ?? null;
    passport = {
      userId,
      kind: guest ? "guest" : "account",
      createdAt: created,
      lastUsedDay: lastSeen?.day ?? null,
      counters: { visits: stats.visitCount, badges: stats.badgeCount },
    };
  }
  const tickets: ExportedTicket[] = [];
  for (const code of [...codes].sort()) {
    const ticket = await getTicket(kv, code);
    if (ticket) tickets.push(toExportedTicket(ticket, deps.cms.kind));
  }
  return {
    format: EXPORT_FORMAT,
    portal: { name: loaded.data.branding.name, origin },
    exportedAt: deps.now().toISOString(),
    passport,
    visits,
    badges,
    checkIns,
    prizes,
    tickets,
    sessions,
    identities,
  };
}

async function exportClaims(
  kv: Deno.Kv,
  userId: string,
): Promise<PersonalDataExport["prizes"]> {
  const claims = await listClaimsOfUser(kv, userId);
  if (claims.length === 0) return [];
  const [prizes, partners] = await Promise.all([
    listPrizes(kv),
    listPartners(kv),
  ]);
  return claims.map((claim) => ({
    claimId: claim.claimId,
    prize: {
      id: claim.prizeId,
      name: prizes.find((p) => p.id === claim.prizeId)?.name.es ?? null,
    },
    partner: partners.find((p) => p.id === claim.partnerId)?.name ?? null,
    reference: claim.reference,
    claimedAt: claim.claimedAt,
    redeemedAt: claim.redeemedAt,
  }));
}

function toExportedTicket(ticket: Ticket, cmsKind: string): ExportedTicket {
  return {
    shareCode: ticket.shareCode,
    name: ticket.name,
    email: ticket.email,
    phone: ticket.phone ?? null,
    createdAt: ticket.createdAt,
    cms: { kind: cmsKind, postId: ticket.wpId },
    routePath: `/ruta/${encodeURIComponent(ticket.shareCode)}`,
  };
}

/** What staff see of a request before exporting or erasing: counts only. */
export interface PersonalDataSummary {
  visits: number;
  ratings: number;
  notes: number;
  badges: number;
  sessions: number;
  identities: number;
  tickets: number;
}

/** Counts what an export would hold. */
export function summarizeExport(
  exported: PersonalDataExport,
): PersonalDataSummary {
  return {
    visits: exported.visits.length,
    ratings: exported.visits.filter((visit) => visit.rating !== null).length,
    notes: exported.visits.filter((visit) => visit.notes).length,
    badges: exported.badges.length,
    sessions: exported.sessions.length,
    identities: exported.identities.length,
    tickets: exported.tickets.length,
  };
}

/** The file name of a download: no personal data in it. */
export function getExportFileName(now: Date): string {
  return `mis-datos-${now.toISOString().slice(0, 10)}.json`;
}

/** `exported` as a download: indented JSON, named by the day, never cached. */
export function createExportDownload(
  exported: PersonalDataExport,
  now: Date,
): Response {
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=UTF-8",
      "Content-Disposition": `attachment; filename="${getExportFileName(now)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

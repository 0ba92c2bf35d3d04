/**
 * Every kind of record of the portal that holds personal data: what it
 * holds, why, where it lives and how long it is kept. The privacy notice
 * (`/aviso-de-privacidad`) and docs/PRIVACY.md's table are written from this
 * one table, and every period is the constant that enforces it, imported,
 * never retyped: the notice and the code cannot disagree.
 */
import { ROUTE_CARD_MEMORY_MS } from "@/lib/og/mod.ts";
import {
  type Config,
  DEFAULT_GUEST_PASSPORT_RETENTION_MONTHS,
} from "@/lib/config/config.ts";
import { KEY_FAMILIES, type KeyFamilyName, LIFETIMES } from "@/lib/db/keys.ts";
import { type Lang, t } from "@/lib/i18n/catalogue.ts";
import { CHAT_RATE_LIMIT } from "@/lib/limits/chat_limit.ts";
import { IP_BUDGET_WINDOW_MS } from "@/lib/limits/ip_budget.ts";
import { PAGE_TTL_MS, ROUTE_PAGE_TTL_MS } from "@/lib/pages/page_cache.ts";
import { GUEST_PASSPORTS_PER_ADDRESS } from "@/lib/passport/guest.ts";
import {
  GUIDE_CODE_ADDRESS_LIMIT,
  GUIDE_CODE_LIMIT,
} from "@/lib/check_in/rules.ts";
import { TICKETS_PER_ADDRESS } from "@/lib/tickets/create_ticket.ts";

/** Where a record lives. */
export type RecordStore =
  /** The portal's Deno KV database (key families in `keys`). */
  | "kv"
  /** The city's CMS: WordPress, or the embedded driver's posts in KV. */
  | "cms"
  /** The language-model provider the chat sends messages to. */
  | "model_provider"
  /** One instance's memory (caches), gone with a restart. */
  | "memory"
  /** The request log: standard output, to wherever the operator sends it. */
  | "stdout";

/** A period's unit. */
export type RetentionUnit = "seconds" | "minutes" | "hours" | "days" | "months";

/** From which moment a period counts. */
export type RetentionStart =
  /** The record was written. */
  | "created"
  /** The passport (any of its sessions or page tokens) was last used. */
  | "last_use"
  /** The last request that used it (a staff session: idle time). */
  | "last_request"
  /** The last hit of the limit (each hit is kept for the window). */
  | "last_hit"
  /** The last question of its group. */
  | "last_question"
  /** The erasure finished. */
  | "finished";

/** How long a record is kept. */
export type Retention =
  | {
    kind: "period";
    /** The period in `unit`, from the constant (or the setting) that enforces it. */
    amount: number;
    unit: RetentionUnit;
    from: RetentionStart;
    /** The period in milliseconds; null for months (calendar months vary). */
    ms: number | null;
    /** The environment variable that sets it, when the operator may change it. */
    setting?: string;
  }
  /** Kept until the person erases it (`/mi-pasaporte`) or asks staff to (`/panel/solicitudes`). */
  | { kind: "until_erased" }
  /** A staff member added on the console: kept until an admin removes them there (`/panel/personal`). */
  | { kind: "until_removed" }
  /** The portal keeps nothing: it is sent on (to the model provider, to stdout). */
  | { kind: "not_kept" };

/** A rule of a record that applies only to some passports. */
export interface RetentionRule {
  /** Which passports (or records) it applies to; absent: all. */
  appliesTo?: "guest" | "account" | "no_passport";
  retention: Retention;
}

/**
 * One kind of record that holds personal data. Its name, what it holds and
 * why are the catalogue's `page_privacy.record_<id>_name|holds|purpose`
 * ({@linkcode getRecordText}).
 */
export interface PersonalRecord {
  /** Stable id (tests, anchors, the catalogue's keys). */
  id: string;
  store: RecordStore;
  /** The KV key families (`KEY_FAMILIES` in lib/db/keys.ts) it lives under; empty off KV. */
  keyFamilies: readonly KeyFamilyName[];
  /** How long it is kept: one rule, or one per kind of passport. */
  retention: readonly RetentionRule[];
  /** Whether a tourist's export (`/mi-pasaporte`) includes it and erasure removes it. */
  exported: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A period in the largest unit that divides it exactly (a year of days stays 365 days). */
export function toPeriod(
  ms: number,
  from: RetentionStart,
): Extract<Retention, { kind: "period" }> {
  const [amount, unit]: [number, RetentionUnit] = ms % DAY === 0
    ? [ms / DAY, "days"]
    : ms % HOUR === 0
    ? [ms / HOUR, "hours"]
    : ms % MINUTE === 0
    ? [ms / MINUTE, "minutes"]
    : [ms / 1000, "seconds"];
  return { kind: "period", amount, unit, from, ms };
}

/** The lifetime of a key family written only with `expireIn`, as the key-family table gives it. */
function getFamilyPeriod(
  family: KeyFamilyName,
  from: RetentionStart,
): Extract<Retention, { kind: "period" }> {
  const { lifetime } = KEY_FAMILIES[family];
  if (lifetime.kind !== "expires") {
    throw new Error(`${family} is not written with expireIn`);
  }
  return toPeriod(lifetime.ms, from);
}

/** The period of an unused guest passport, from the configuration. */
function guestRetention(months: number): Retention {
  return {
    kind: "period",
    amount: months,
    unit: "months",
    from: "last_use",
    ms: null,
    setting: "GUEST_PASSPORT_RETENTION_MONTHS",
  };
}

/** A tourist's passport data: erased with an unused guest passport, or on request. */
function passportRules(months: number): RetentionRule[] {
  return [
    { appliesTo: "guest", retention: guestRetention(months) },
    { appliesTo: "account", retention: { kind: "until_erased" } },
  ];
}

/**
 * The table for a configuration: the guest passport's period is
 * `GUEST_PASSPORT_RETENTION_MONTHS`; every other period is a constant of
 * the code that enforces it.
 */
export function listPersonalRecords(
  { guestPassportRetentionMonths: months }: Pick<
    Config,
    "guestPassportRetentionMonths"
  >,
): PersonalRecord[] {
  const addressLimits = [
    CHAT_RATE_LIMIT.windowMs,
    GUIDE_CODE_ADDRESS_LIMIT.windowMs,
    GUEST_PASSPORTS_PER_ADDRESS.windowMs,
    TICKETS_PER_ADDRESS.windowMs,
  ];
  return [
    {
      id: "passport",
      store: "kv",
      keyFamilies: ["passports_last_seen", "passports_by_last_seen"],
      retention: passportRules(months),
      exported: true,
    },
    {
      id: "visits",
      store: "kv",
      keyFamilies: ["visits", "visits_by_id", "notes_by_time"],
      retention: passportRules(months),
      exported: true,
    },
    {
      id: "check_ins",
      store: "kv",
      keyFamilies: ["check_ins", "check_in_refusals"],
      retention: [{ retention: getFamilyPeriod("check_ins", "created") }],
      exported: true,
    },
    {
      id: "badges",
      store: "kv",
      keyFamilies: ["badges", "user_stats"],
      retention: passportRules(months),
      exported: true,
    },
    {
      id: "prize_claims",
      store: "kv",
      keyFamilies: ["prize_claims", "prize_claims_by_reference"],
      retention: passportRules(months),
      exported: true,
    },
    {
      id: "ticket",
      store: "kv",
      keyFamilies: ["tickets", "tickets_by_user", "tickets_by_email"],
      retention: [
        ...passportRules(months),
        { appliesTo: "no_passport", retention: { kind: "until_erased" } },
      ],
      exported: true,
    },
    {
      id: "cms_post",
      store: "cms",
      keyFamilies: ["cms_posts"],
      retention: [
        ...passportRules(months),
        { appliesTo: "no_passport", retention: { kind: "until_erased" } },
      ],
      exported: true,
    },
    {
      id: "ticket_claim",
      store: "kv",
      keyFamilies: ["ticket_claims"],
      retention: [{ retention: getFamilyPeriod("ticket_claims", "created") }],
      exported: false,
    },
    {
      id: "session",
      store: "kv",
      keyFamilies: ["sessions", "sessions_by_user"],
      retention: [
        {
          appliesTo: "guest",
          retention: toPeriod(LIFETIMES.guestSessionMs, "created"),
        },
        {
          appliesTo: "account",
          retention: toPeriod(LIFETIMES.accountSessionMs, "created"),
        },
      ],
      exported: true,
    },
    {
      id: "identity",
      store: "kv",
      keyFamilies: ["users_by_identity", "identities_by_user"],
      retention: [{ retention: { kind: "until_erased" } }],
      exported: true,
    },
    {
      id: "sign_in_flow",
      store: "kv",
      keyFamilies: ["oauth_flows"],
      retention: [{ retention: getFamilyPeriod("oauth_flows", "created") }],
      exported: false,
    },
    {
      id: "user_rate_limits",
      store: "kv",
      keyFamilies: ["rate_limits"],
      retention: [{
        retention: toPeriod(GUIDE_CODE_LIMIT.windowMs, "last_hit"),
      }],
      exported: false,
    },
    {
      id: "address_rate_limits",
      store: "kv",
      keyFamilies: ["rate_limits"],
      retention: [{
        retention: toPeriod(Math.max(...addressLimits), "last_hit"),
      }],
      exported: false,
    },
    {
      id: "ip_budget",
      store: "memory",
      keyFamilies: [],
      retention: [{ retention: toPeriod(IP_BUDGET_WINDOW_MS, "last_hit") }],
      exported: false,
    },
    {
      id: "share_card",
      store: "kv",
      keyFamilies: ["route_cards", "route_card_parts"],
      retention: [{ retention: getFamilyPeriod("route_cards", "created") }],
      exported: false,
    },
    {
      id: "page_caches",
      store: "memory",
      keyFamilies: [],
      retention: [{
        retention: toPeriod(
          Math.max(PAGE_TTL_MS, ROUTE_PAGE_TTL_MS, ROUTE_CARD_MEMORY_MS),
          "created",
        ),
      }],
      exported: false,
    },
    {
      id: "chat",
      store: "model_provider",
      keyFamilies: [],
      retention: [{ retention: { kind: "not_kept" } }],
      exported: false,
    },
    {
      id: "unanswered_questions",
      store: "kv",
      keyFamilies: ["unanswered_questions", "unanswered_questions_by_rank"],
      retention: [{
        retention: getFamilyPeriod("unanswered_questions", "last_question"),
      }],
      exported: false,
    },
    {
      id: "erasure",
      store: "kv",
      keyFamilies: ["erasures", "erasures_pending", "erasures_by_user"],
      retention: [{
        retention: toPeriod(LIFETIMES.erasureRecordKeptMs, "finished"),
      }],
      exported: false,
    },
    {
      id: "staff_session",
      store: "kv",
      keyFamilies: ["staff_sessions"],
      retention: [{
        retention: getFamilyPeriod("staff_sessions", "last_request"),
      }],
      exported: false,
    },
    {
      id: "staff_member",
      store: "kv",
      keyFamilies: ["staff_members"],
      retention: [{ retention: { kind: "until_removed" } }],
      exported: false,
    },
    {
      id: "staff_link",
      store: "kv",
      keyFamilies: ["staff_links", "staff_links_by_staff"],
      retention: [{ retention: getFamilyPeriod("staff_links", "created") }],
      exported: false,
    },
    {
      id: "audit",
      store: "kv",
      keyFamilies: ["staff_actions"],
      retention: [{ retention: getFamilyPeriod("staff_actions", "created") }],
      exported: false,
    },
    {
      id: "request_log",
      store: "stdout",
      keyFamilies: [],
      retention: [{ retention: { kind: "not_kept" } }],
      exported: false,
    },
  ];
}

/** The table with the default configuration (`GUEST_PASSPORT_RETENTION_MONTHS` unset). */
export const PERSONAL_RECORDS: readonly PersonalRecord[] = listPersonalRecords({
  guestPassportRetentionMonths: DEFAULT_GUEST_PASSPORT_RETENTION_MONTHS,
});

/** A message of the privacy notice (`locales/<lang>/page_privacy.json`). */
function tPrivacy(
  lang: Lang,
  key: string,
  values?: Record<string, string | number>,
): string {
  return t(lang, `page_privacy.${key}`, values);
}

/** A record's name, contents or purpose in `lang`: the catalogue's `page_privacy.record_<id>_<part>`. */
export function getRecordText(
  lang: Lang,
  record: Pick<PersonalRecord, "id">,
  part: "name" | "holds" | "purpose",
): string {
  return tPrivacy(lang, `record_${record.id}_${part}`);
}

/**
 * A period as the notice states it, from the catalogue: `24 meses sin
 * usarse`, `365 days after it is created`. What is not kept says who has it
 * instead (the model provider, the server's log).
 */
export function describeRetention(
  lang: Lang,
  retention: Retention,
  store: RecordStore,
): string {
  switch (retention.kind) {
    case "period": {
      let amount = tPrivacy(lang, "amount", {
        unit: retention.unit,
        amount: retention.amount,
      });
      // 176 hours reads better with its days beside it.
      if (retention.unit === "hours" && retention.amount >= 48) {
        amount = tPrivacy(lang, "amountAboutDays", {
          amount,
          days: Math.round(retention.amount / 24),
        });
      }
      return tPrivacy(lang, "period", { amount, from: retention.from });
    }
    case "until_erased":
      return tPrivacy(lang, "untilErased");
    case "until_removed":
      return tPrivacy(lang, "untilRemoved");
    case "not_kept":
      return tPrivacy(
        lang,
        store === "model_provider"
          ? "notKeptModel"
          : store === "stdout"
          ? "notKeptStdout"
          : "notKept",
      );
  }
}

/** Whom a rule applies to, from the catalogue: `Pasaporte de invitado`. */
export function describeAppliesTo(
  lang: Lang,
  appliesTo: NonNullable<RetentionRule["appliesTo"]>,
): string {
  return tPrivacy(lang, "ruleWho", { who: appliesTo });
}

// docs/PRIVACY.md names where each record lives as an operator looks for it.
const STORE_WORDS: Record<RecordStore, string> = {
  kv: "KV",
  cms: "the CMS",
  model_provider: "the model provider",
  memory: "memory (per instance)",
  stdout: "stdout",
};

/**
 * docs/PRIVACY.md's table of personal records, in English with the notice's
 * own words, one row per record: `lib/personal_data/retention_test.ts`
 * checks docs/PRIVACY.md holds exactly this, so the two cannot drift apart.
 */
export function renderPersonalRecordsTable(
  records: readonly PersonalRecord[] = PERSONAL_RECORDS,
): string {
  const lang = "en";
  const rows = records.map((record) => [
    getRecordText(lang, record, "name"),
    getRecordText(lang, record, "holds"),
    `${STORE_WORDS[record.store]}${
      record.keyFamilies.length
        ? `: ${record.keyFamilies.map((key) => `\`${key}\``).join(", ")}`
        : ""
    }`,
    record.retention.map(({ appliesTo, retention }) => {
      const kept = describeRetention(lang, retention, record.store);
      const setting = retention.kind === "period" && retention.setting
        ? ` (\`${retention.setting}\`)`
        : "";
      return appliesTo
        ? `${describeAppliesTo(lang, appliesTo)}: ${kept}${setting}`
        : `${kept}${setting}`;
    }).join("; "),
  ]);
  const lines = [
    "| Record | Holds | Where | Kept |",
    "| --- | --- | --- | --- |",
    ...rows.map((cells) =>
      `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`
    ),
  ];
  return lines.join("\n");
}

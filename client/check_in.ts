/**
 * The one check-in submit both islands send (an attraction's "Registrar mi
 * visita" and the passport's code form): the typed guide code to
 * `POST /api/turismo/verify-visit` with the session's token, and the answer
 * as what the tourist sees. Free of UI, so it is tested in Deno.
 */
import type { Translate } from "./messages.ts";
import {
  type ApiResult,
  describeFailure,
  describeVerifyError,
  type JsonBody,
} from "./session_client.ts";

/** A badge as the API reports it (docs/API.md, milestone badges). */
export type ApiBadge = {
  id: string;
  name: string;
  icon: string;
};

/** What a check-in came to, worded from the island's `session` messages. */
export type CheckInResult =
  /** Recorded: the visit, its attraction and the badge it unlocked. */
  | { kind: "ok"; visitId: string; slug: string; badge: ApiBadge | null }
  /** This passport had already verified it (409): the first visit, and its message. */
  | { kind: "already"; visitId: string; slug: string; text: string }
  /** Nothing recorded: an empty code, a wrong one, a lockout, no network. */
  | { kind: "error"; text: string; isEmpty?: boolean };

/** Guide codes are letters and digits; case and spaces do not matter. */
export function normalizeCode(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase();
}

/**
 * Sends `code` (normalised; an empty one is not sent) as the session's
 * user, through `api` (`createSessionApi`), and says what came of it.
 * `onSending` is called just before the request goes (the island's busy
 * state). Never throws: a failure before any answer is an `error` too.
 */
export async function submitCheckIn(
  api: {
    post(path: string, body: (userId: string) => JsonBody): Promise<ApiResult>;
  },
  { code, t, onSending }: {
    code: string;
    t: Translate;
    onSending?: () => void;
  },
): Promise<CheckInResult> {
  const typed = normalizeCode(code);
  if (!typed) {
    return { kind: "error", text: t("session.emptyCode"), isEmpty: true };
  }
  onSending?.();
  let result: ApiResult;
  try {
    result = await api.post(
      "/api/turismo/verify-visit",
      (userId) => ({ code: typed, userId }),
    );
  } catch (error) {
    return { kind: "error", text: describeFailure(error, t) };
  }
  const body = result.body;
  if (result.status === 200) {
    return {
      kind: "ok",
      visitId: String(body.visitId),
      slug: String(body.atractivo),
      badge: (body.badge as ApiBadge | null) ?? null,
    };
  }
  if (result.status === 409 && typeof body.visitId === "string") {
    return {
      kind: "already",
      visitId: body.visitId,
      slug: String(body.atractivo),
      text: describeVerifyError(result, t),
    };
  }
  return { kind: "error", text: describeVerifyError(result, t) };
}

/**
 * A badge's name in the island's language: its catalogue message
 * (`badges.<id>.name`, from the shared `badges` namespace), else the name
 * the API gave.
 */
export function sayBadgeName(
  t: Translate,
  badge: { id: string; name: string },
): string {
  const key = `badges.${badge.id}.name`;
  const said = t(key);
  return said === key ? badge.name : said;
}

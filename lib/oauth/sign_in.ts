import { signOwnToken } from "@/lib/auth/tokens.ts";
import {
  consumeOAuthFlow,
  createSession,
  deleteSession,
  getOrCreateUserForIdentity,
  getSession,
  saveOAuthFlow,
  type Session,
} from "@/lib/db/sessions.ts";
import type { Config } from "@/lib/config/config.ts";
import type { DataStore } from "@/lib/data/data_store.ts";
import type { OnDataChange } from "@/lib/db/changes.ts";
import { LIFETIMES } from "@/lib/db/keys.ts";
import { mergePassports } from "@/lib/db/passports.ts";
import { recordSessionUse } from "@/lib/db/passport_activity.ts";
import {
  getOidcClient,
  type OidcIdentity,
  OidcSignInError,
} from "./oidc_client.ts";

/** How long a session lasts; the cookie's Max-Age matches. */
export const SESSION_TTL_MS = LIFETIMES.accountSessionMs;
/** How long the provider has to send the user back. */
export const FLOW_TTL_MS = LIFETIMES.oauthFlowMs;
/** Lifetime of the bearer tokens pages get for the API. */
export const SESSION_TOKEN_TTL_SECONDS = 600;
/** Where a sign-in lands when it was given no usable `next`. */
export const DEFAULT_NEXT = "/mi-pasaporte";

/** What the sign-in needs: the OIDC settings, KV, the clock, and for a guest's merge the data set and the change log. */
export interface SignInDeps {
  config: Pick<Config, "oidc">;
  kv: Deno.Kv;
  now: () => Date;
  data: DataStore;
  onChange: OnDataChange;
}

/** Sign-in was asked for but no OIDC provider is configured: a 503 page. */
export class SignInNotConfiguredError extends Error {
  override name = "SignInNotConfiguredError";
}

/** A stand-in origin that `next` is resolved against. */
const NEXT_BASE = "https://portal.invalid";

/**
 * `next` when it is a path on this site, else {@linkcode DEFAULT_NEXT}.
 * Judged after normalising it as a browser would (URL resolution against
 * the site: `/.//host`, `/..//host` and `/a/..//host` all become `//host`),
 * so what is checked is what the browser will follow. Refused: anything
 * that does not start with `/`, that resolves off the site or to `//host`
 * (a browser reads it as another host), and any whitespace, control
 * character or backslash (browsers strip tabs and newlines and read `\` as
 * `/`).
 */
export function getSafeNextPath(next: string | undefined | null): string {
  if (!next || next.length > 512 || !next.startsWith("/")) return DEFAULT_NEXT;
  // deno-lint-ignore no-control-regex
  if (/[\s\x00-\x1f\x7f\\]/.test(next)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(next, NEXT_BASE);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== NEXT_BASE) return DEFAULT_NEXT;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? DEFAULT_NEXT : path;
}

/**
 * Starts a sign-in: a fresh `state`, `nonce` and PKCE verifier, kept in KV
 * under the state for {@linkcode FLOW_TTL_MS}; returns the provider address
 * to send the browser to and the state to bind to the browser. A staff
 * sign-in (`purpose: "staff"`) also asks for the e-mail address and ends
 * in a staff session instead of a passport.
 */
export async function startSignIn(
  { config, kv, now }: SignInDeps,
  { next, purpose }: { next?: string | null; purpose?: "staff" },
): Promise<{ redirectTo: URL; state: string }> {
  if (!config.oidc) {
    throw new SignInNotConfiguredError("OIDC_ISSUER is not set");
  }
  const authorization = await getOidcClient(config.oidc).createAuthorization({
    withEmail: purpose === "staff",
  });
  await saveOAuthFlow(kv, authorization.state, {
    codeVerifier: authorization.codeVerifier,
    nonce: authorization.nonce,
    next: getSafeNextPath(next),
    expiresAt: now().getTime() + FLOW_TTL_MS,
    ...(purpose ? { purpose } : {}),
  }, { ttlMs: FLOW_TTL_MS });
  return { redirectTo: authorization.url, state: authorization.state };
}

/**
 * Completes a sign-in from the provider's redirect. The `state` must be the
 * one this browser started (`browserState`, from its cookie) and is consumed
 * atomically, so a replayed callback fails before the code is ever sent;
 * then the code is exchanged with the PKCE verifier and the ID token checked
 * (nonce, issuer, audience, signature). The identity maps to a stable user
 * id; the session gets a new random id, and the browser's previous session,
 * if any, is ended: a guest passport's visits, ratings, badges and ticket
 * move into the account first (`mergePassports`), so signing in keeps
 * everything. A staff sign-in stops at the verified identity: the staff
 * console decides whether it is staff (`lib/staff/sign_in.ts`), and no
 * tourist session or user is made for it.
 */
export async function finishSignIn(
  { config, kv, now, data, onChange }: SignInDeps,
  { callbackUrl, browserState, previousSessionId }: {
    callbackUrl: URL;
    browserState: string | undefined;
    previousSessionId: string | undefined;
  },
): Promise<
  | { purpose: "tourist"; sessionId: string; session: Session; next: string }
  | { purpose: "staff"; identity: OidcIdentity }
> {
  if (!config.oidc) {
    throw new SignInNotConfiguredError("OIDC_ISSUER is not set");
  }
  const state = callbackUrl.searchParams.get("state");
  if (!state || state !== browserState) {
    throw new OidcSignInError(
      "The callback's state is not the one this browser started",
    );
  }
  const flow = await consumeOAuthFlow(kv, state, now());
  if (!flow) {
    throw new OidcSignInError("Unknown, already used or expired state");
  }
  const identity = await getOidcClient(config.oidc).completeAuthorization(
    callbackUrl,
    {
      state,
      nonce: flow.nonce,
      codeVerifier: flow.codeVerifier,
      withEmail: flow.purpose === "staff",
    },
  ).catch((error) => {
    if (error instanceof OidcSignInError) error.next = flow.next;
    throw error;
  });
  if (flow.purpose === "staff") return { purpose: "staff", identity };
  const { userId } = await getOrCreateUserForIdentity(kv, {
    issuer: identity.issuer,
    subject: identity.subject,
    now: now(),
    timeZone: data.current().data.municipality.timeZone,
  });
  const { sessionId, session } = await createSession(kv, {
    userId,
    name: identity.name,
    now: now(),
    ttlMs: SESSION_TTL_MS,
  });
  if (previousSessionId) {
    const previous = await getSession(kv, previousSessionId, now());
    if (previous?.guest && previous.userId !== userId) {
      const merged = await mergePassports(kv, {
        from: previous.userId,
        into: userId,
        now: now(),
        totalAttractions: data.current().totalAttractions,
        timeZone: data.current().data.municipality.timeZone,
      });
      onChange({
        kind: "merge",
        fromUserId: previous.userId,
        intoUserId: userId,
        slugs: merged.slugs,
      });
    }
    await deleteSession(kv, previousSessionId);
  }
  return { purpose: "tourist", sessionId, session, next: flow.next };
}

/**
 * The live session a cookie names, or `null` (none, unknown, tampered or
 * expired). Its use is recorded (at most one write a day): an unused guest
 * passport is erased after `GUEST_PASSPORT_RETENTION_MONTHS`.
 */
export async function getSignedInSession(
  { kv, now }: Pick<SignInDeps, "kv" | "now">,
  sessionId: string | undefined,
): Promise<Session | null> {
  const session = sessionId ? await getSession(kv, sessionId, now()) : null;
  return session ? await recordSessionUse(kv, session, now()) : null;
}

/** Ends a session (sign-out). */
export async function signOut(
  { kv }: Pick<SignInDeps, "kv">,
  sessionId: string | undefined,
): Promise<void> {
  if (sessionId) await deleteSession(kv, sessionId);
}

/**
 * A short-lived bearer token for the session's user, signed with the
 * service's own key: the API verifies it like any other token, so pages and
 * external clients share one authentication path. It names its session
 * (`sid`), so signing out ends it at once.
 */
export async function issueSessionToken(
  { signingSecret, now }: { signingSecret: Uint8Array; now: () => Date },
  session: Session,
): Promise<{ token: string; expiresIn: number }> {
  const token = await signOwnToken(signingSecret, session.userId, {
    expiresInSeconds: SESSION_TOKEN_TTL_SECONDS,
    now: now(),
    sessionHandle: session.handle,
  });
  return { token, expiresIn: SESSION_TOKEN_TTL_SECONDS };
}

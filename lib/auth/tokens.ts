import * as jose from "jose";
import {
  apiMessage,
  ServiceUnavailableError,
  UnauthorizedError,
} from "@/lib/errors/mod.ts";
import type { AuthUser } from "@/lib/types/user.ts";

/** The issuer and audience of tokens the service signs itself (dev tokens, page sessions). */
export const SELF_ISSUER = "urn:turismo:service";
export const SELF_AUDIENCE = "urn:turismo:api";

/** Asymmetric algorithms accepted from a JWKS; `none` and HMAC never are. */
const JWKS_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "EdDSA",
];
const HMAC_ALGORITHMS = ["HS256"];

/**
 * The longest an own token may live (`exp - iat`): dev tokens are printed
 * for people, and a leaked one must not outlive a month.
 */
export const MAX_OWN_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
/** How far in the future an `iat` may be (clocks drift); later ones are refused. */
export const MAX_CLOCK_SKEW_SECONDS = 60;

export interface TokenVerifier {
  /** Verifies a bearer token; throws {@linkcode UnauthorizedError} when it is not good. */
  verify(token: string, options?: VerifyOptions): Promise<AuthUser>;
}

/** How much of a token's standing {@linkcode TokenVerifier.verify} reads. */
export interface VerifyOptions {
  /**
   * The caller's own transaction reads the user id's tombstone and refuses
   * an erased user with nothing written (`UserErasedError`), so a token
   * without a browser session needs no read of its own: one KV read less
   * per verify-visit. A token with a session still has it read.
   */
  erasureCheckedByCaller?: boolean;
}

export interface TokenVerifierOptions {
  /** The service's own secret (see `getOrCreateSigningSecret`). */
  ownSecret: Uint8Array;
  /** An external provider's HS256 secret, e.g. Supabase's JWT secret. */
  secret?: string;
  /** An external OIDC provider's JWKS address. */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** The clock `exp` is checked against; tests move it. */
  now?: () => Date;
  /**
   * The token's user and session as the store holds them, in one read:
   * whether the user id was erased (every token of it is refused, for
   * good) and, with `sessionHandle` (an own token's `sid` claim), whether
   * that browser session is still signed in (a token of an ended session
   * is refused). Without it, no user id counts as erased and a token with
   * a `sid` is refused.
   */
  getStanding?: (
    userId: string,
    sessionHandle?: string,
  ) => Promise<{ erased: boolean; sessionLive: boolean }>;
}

/** Own tokens remembered as verified (about 0.5 KB each), the oldest dropped first. */
const MAX_VERIFIED_OWN_TOKENS = 10_000;

/**
 * Builds the one verifier of bearer tokens. A token whose (unverified) `iss`
 * is the service's own is checked against the service's secret; any other
 * against the configured provider: HS256 with `secret`, or an asymmetric
 * algorithm with `jwksUrl`. The signature check then decides; `exp` and `sub`
 * are required, and an `iat` more than a minute ahead is refused. Own tokens
 * also need an `iat`, live at most 30 days, and when issued for a browser
 * session (`sid`) die with it. A token of an erased user id, own or not, is
 * refused for good.
 */
export function createTokenVerifier(
  options: TokenVerifierOptions,
): TokenVerifier {
  // Imported once: jose would import a raw secret on every verification.
  const ownKey = importHmacKey(options.ownSecret);
  const externalKey = options.secret
    ? importHmacKey(new TextEncoder().encode(options.secret))
    : undefined;
  const jwks = options.jwksUrl
    ? jose.createRemoteJWKSet(new URL(options.jwksUrl), {
      timeoutDuration: 5_000,
      cooldownDuration: 30_000,
    })
    : undefined;

  const now = options.now ?? (() => new Date());
  /**
   * Own tokens whose signature and claims were checked, by their exact
   * text, until they expire: a tourist's token is sent with each visit,
   * rating and check-in, and WebCrypto's HMAC costs about 0.2 ms of the
   * main thread each time (docs/PERFORMANCE.md). The session and erasure
   * standing is still read on every request.
   */
  const verifiedOwn = new Map<
    string,
    { user: AuthUser; sessionHandle?: string; expMs: number }
  >();

  /** The token's user and, for an own page token, its session's handle: signature and claims checked. */
  async function verifySigned(
    token: string,
  ): Promise<{ user: AuthUser; sessionHandle?: string }> {
    let claims: jose.JWTPayload;
    let header: jose.ProtectedHeaderParameters;
    try {
      claims = jose.decodeJwt(token);
      header = jose.decodeProtectedHeader(token);
    } catch {
      throw new UnauthorizedError(apiMessage("auth.notJwt"));
    }
    const known = verifiedOwn.get(token);
    if (known) {
      if (now().getTime() < known.expMs) {
        return { user: known.user, sessionHandle: known.sessionHandle };
      }
      verifiedOwn.delete(token);
    }
    try {
      if (claims.iss === SELF_ISSUER) {
        const verified = await jose.jwtVerify(token, await ownKey, {
          algorithms: HMAC_ALGORITHMS,
          issuer: SELF_ISSUER,
          audience: SELF_AUDIENCE,
          requiredClaims: ["exp", "sub"],
          currentDate: now(),
        });
        if (typeof verified.payload.iat !== "number") {
          throw new UnauthorizedError(
            apiMessage("auth.invalidClaim", { claim: "iat" }),
          );
        }
        checkIssuedAt(
          verified.payload,
          now(),
          MAX_OWN_TOKEN_LIFETIME_SECONDS,
        );
        const { sid } = verified.payload;
        if (sid !== undefined && typeof sid !== "string") {
          throw new UnauthorizedError(apiMessage("auth.sessionEnded"));
        }
        const result = { user: toUser(verified), sessionHandle: sid };
        if (verifiedOwn.size >= MAX_VERIFIED_OWN_TOKENS) {
          verifiedOwn.delete(verifiedOwn.keys().next().value!);
        }
        verifiedOwn.set(token, {
          ...result,
          expMs: verified.payload.exp! * 1000,
        });
        return result;
      }
      checkIssuedAt(claims, now());
      const external = {
        issuer: options.issuer,
        audience: options.audience,
        requiredClaims: ["exp", "sub"],
        currentDate: now(),
      };
      if (header.alg?.startsWith("HS")) {
        if (!externalKey) {
          throw new UnauthorizedError(apiMessage("auth.algorithm"));
        }
        return {
          user: toUser(
            await jose.jwtVerify(token, await externalKey, {
              ...external,
              algorithms: HMAC_ALGORITHMS,
            }),
          ),
        };
      }
      if (!jwks) {
        throw new UnauthorizedError(apiMessage("auth.algorithm"));
      }
      return {
        user: toUser(
          await jose.jwtVerify(token, jwks, {
            ...external,
            algorithms: JWKS_ALGORITHMS,
          }),
        ),
      };
    } catch (error) {
      throw toAuthError(error);
    }
  }

  return {
    async verify(token, { erasureCheckedByCaller = false } = {}) {
      const { user, sessionHandle } = await verifySigned(token);
      if (erasureCheckedByCaller && sessionHandle === undefined) return user;
      // Outside the signature's error mapping: a store that fails is a 500,
      // not the identity provider's keys.
      const standing = await options.getStanding?.(user.id, sessionHandle);
      if (standing?.erased) {
        throw new UnauthorizedError(apiMessage("auth.erased"));
      }
      if (sessionHandle !== undefined && !standing?.sessionLive) {
        throw new UnauthorizedError(apiMessage("auth.sessionEnded"));
      }
      return user;
    },
  };
}

/**
 * Signs a token for `userId` with the service's own secret, for at most
 * {@linkcode MAX_OWN_TOKEN_LIFETIME_SECONDS}. With `sessionHandle` (a page
 * token) it is valid only while that session is signed in.
 */
export async function signOwnToken(
  secret: Uint8Array,
  userId: string,
  { expiresInSeconds = 3600, now = new Date(), sessionHandle }: {
    expiresInSeconds?: number;
    now?: Date;
    sessionHandle?: string;
  } = {},
): Promise<string> {
  if (
    !(expiresInSeconds > 0 &&
      expiresInSeconds <= MAX_OWN_TOKEN_LIFETIME_SECONDS)
  ) {
    throw new RangeError(
      `A token lives at most ${MAX_OWN_TOKEN_LIFETIME_SECONDS / 86400} days`,
    );
  }
  const issuedAt = Math.floor(now.getTime() / 1000);
  return await new jose.SignJWT(sessionHandle ? { sid: sessionHandle } : {})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(SELF_ISSUER)
    .setAudience(SELF_AUDIENCE)
    .setSubject(userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + expiresInSeconds)
    .sign(secret);
}

/** An HS256 verification key, for jose to use as it is. */
function importHmacKey(secret: Uint8Array): Promise<CryptoKey> {
  const key = crypto.subtle.importKey(
    "raw",
    secret as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  // A failure surfaces where the key is awaited, not as an unhandled rejection.
  key.catch(() => {});
  return key;
}

/**
 * Refuses an `iat` more than {@linkcode MAX_CLOCK_SKEW_SECONDS} ahead of
 * `now` (a token "from the future" would outlive its stated lifetime) and,
 * with `maxLifetime`, an `exp` further than that from `iat`.
 */
function checkIssuedAt(
  claims: jose.JWTPayload,
  now: Date,
  maxLifetime?: number,
): void {
  const { iat, exp } = claims;
  if (iat === undefined) return;
  if (typeof iat !== "number") {
    throw new UnauthorizedError(
      apiMessage("auth.invalidClaim", { claim: "iat" }),
    );
  }
  if (iat > now.getTime() / 1000 + MAX_CLOCK_SKEW_SECONDS) {
    throw new UnauthorizedError(apiMessage("auth.issuedInFuture"));
  }
  if (
    maxLifetime !== undefined && typeof exp === "number" &&
    exp - iat > maxLifetime
  ) {
    throw new UnauthorizedError(apiMessage("auth.tooLong"));
  }
}

function toUser({ payload }: jose.JWTVerifyResult): AuthUser {
  if (typeof payload.sub !== "string" || payload.sub === "") {
    throw new UnauthorizedError(apiMessage("auth.noSubject"));
  }
  return { id: payload.sub };
}

function toAuthError(error: unknown): Error {
  if (error instanceof UnauthorizedError) return error;
  if (error instanceof jose.errors.JWTExpired) {
    return new UnauthorizedError(apiMessage("auth.expired"));
  }
  if (error instanceof jose.errors.JWTClaimValidationFailed) {
    return new UnauthorizedError(
      apiMessage("auth.invalidClaim", { claim: error.claim }),
    );
  }
  if (
    error instanceof jose.errors.JWKSTimeout ||
    (error instanceof Error && !(error instanceof jose.errors.JOSEError))
  ) {
    return new ServiceUnavailableError(apiMessage("auth.keysUnavailable"));
  }
  return new UnauthorizedError(apiMessage("auth.badSignature"));
}

import * as oauth from "oauth4webapi";
import { type Config, isLoopbackUrl } from "@/lib/config/config.ts";
import { cleanText } from "@/lib/text/clean.ts";

/** The OIDC settings of {@linkcode Config}. */
export type OidcConfig = NonNullable<Config["oidc"]>;

/** What the portal asks the provider for: an identity and a display name. */
const SCOPE = "openid profile";
/** A staff sign-in also asks for the e-mail address, which `STAFF` may list. */
const STAFF_SCOPE = "openid profile email";
/** How long discovered provider metadata is trusted before it is read again. */
const METADATA_TTL_MS = 60 * 60 * 1000;

/** The provider did not answer, timed out, or answered with a server error: a 502 page. */
export class OidcUnavailableError extends Error {
  override name = "OidcUnavailableError";
}

/**
 * The sign-in cannot be completed: the provider refused the code, the user
 * cancelled, or a check (state, nonce, PKCE, issuer, signature) failed. A
 * 400 page; the user starts again.
 */
export class OidcSignInError extends Error {
  override name = "OidcSignInError";
  /**
   * The page the sign-in was to return to, when its flow was found (the
   * provider refused or the user cancelled): its error page speaks that
   * page's language.
   */
  next?: string;
  /** The provider's `error` parameter, e.g. `access_denied` when the user cancelled. */
  get providerError(): string | undefined {
    return this.cause instanceof oauth.AuthorizationResponseError
      ? this.cause.error
      : undefined;
  }
}

/** The identity an ID token vouches for. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  name: string | null;
  /**
   * The e-mail address in lower case, only when the provider says it is
   * verified and only when asked for (`withEmail`); otherwise `null`.
   */
  email: string | null;
}

/** The parameters a sign-in needs to remember between the redirect and the callback. */
export interface OidcAuthorization {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * An OpenID Connect relying party for one provider: authorization code flow
 * with PKCE (S256), `state` and `nonce`. Every call to the provider has a
 * timeout; failures become {@linkcode OidcUnavailableError} or
 * {@linkcode OidcSignInError}.
 */
export interface OidcClient {
  /**
   * Builds the provider's authorization address for a new sign-in; with
   * `withEmail` (a staff sign-in) it asks for the e-mail address too.
   */
  createAuthorization(
    options?: { withEmail?: boolean },
  ): Promise<OidcAuthorization>;
  /**
   * Validates the callback (`state`, `iss`, errors), exchanges the code with
   * the PKCE verifier, and checks the ID token (nonce, audience, issuer,
   * expiry, signature).
   */
  completeAuthorization(
    callbackUrl: URL,
    expected: {
      state: string;
      nonce: string;
      codeVerifier: string;
      /** Read the verified e-mail address (a staff sign-in, which asked for it). */
      withEmail?: boolean;
    },
  ): Promise<OidcIdentity>;
}

const clients = new WeakMap<OidcConfig, OidcClient>();

/**
 * The client for a configuration, created once so that its discovered
 * metadata and the provider's keys are cached across requests.
 */
export function getOidcClient(config: OidcConfig): OidcClient {
  let client = clients.get(config);
  if (!client) {
    client = createOidcClient(config);
    clients.set(config, client);
  }
  return client;
}

/** Creates a client; prefer {@linkcode getOidcClient}, which caches discovery. */
export function createOidcClient(config: OidcConfig): OidcClient {
  const issuer = new URL(config.issuer);
  const client: oauth.Client = { client_id: config.clientId };
  const requestOptions = {
    signal: () => AbortSignal.timeout(config.timeoutMs),
    // Plain http only for a provider on this machine (tests, local dev);
    // the configuration refuses it anywhere else.
    [oauth.allowInsecureRequests]: isLoopbackUrl(config.issuer),
  };

  let metadata:
    | { value: Promise<oauth.AuthorizationServer>; at: number }
    | null = null;
  function discover(): Promise<oauth.AuthorizationServer> {
    if (metadata && Date.now() - metadata.at < METADATA_TTL_MS) {
      return metadata.value;
    }
    const value = (async () => {
      try {
        const response = await oauth.discoveryRequest(issuer, {
          ...requestOptions,
          algorithm: "oidc",
        });
        return await oauth.processDiscoveryResponse(issuer, response);
      } catch (error) {
        metadata = null; // Try again at the next request.
        throw toUnavailable(error, "discovery");
      }
    })();
    metadata = { value, at: Date.now() };
    return value;
  }

  return {
    async createAuthorization({ withEmail = false } = {}) {
      const as = await discover();
      if (!as.authorization_endpoint) {
        throw new OidcUnavailableError(
          "The provider has no authorization_endpoint",
        );
      }
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const nonce = oauth.generateRandomNonce();
      const url = new URL(as.authorization_endpoint);
      url.searchParams.set("client_id", config.clientId);
      url.searchParams.set("redirect_uri", config.redirectUri);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", withEmail ? STAFF_SCOPE : SCOPE);
      url.searchParams.set("state", state);
      url.searchParams.set("nonce", nonce);
      url.searchParams.set(
        "code_challenge",
        await oauth.calculatePKCECodeChallenge(codeVerifier),
      );
      url.searchParams.set("code_challenge_method", "S256");
      return { url, state, nonce, codeVerifier };
    },

    async completeAuthorization(callbackUrl, expected) {
      const as = await discover();
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(
          as,
          client,
          callbackUrl,
          expected.state,
        );
      } catch (error) {
        throw toSignInError(error, "callback");
      }
      let response: Response;
      try {
        response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          getClientAuth(as, config.clientSecret),
          params,
          config.redirectUri,
          expected.codeVerifier,
          requestOptions,
        );
      } catch (error) {
        throw toUnavailable(error, "token");
      }
      let claims: oauth.IDToken | undefined;
      let result: oauth.TokenEndpointResponse;
      try {
        result = await oauth.processAuthorizationCodeResponse(
          as,
          client,
          response,
          { expectedNonce: expected.nonce, requireIdToken: true },
        );
        claims = oauth.getValidatedIdTokenClaims(result);
        // The token came straight from the provider, but over plain http
        // on loopback that is no proof: check the signature every time.
        await oauth.validateApplicationLevelSignature(
          as,
          response,
          requestOptions,
        );
      } catch (error) {
        if (isUnavailable(error)) throw toUnavailable(error, "token");
        throw toSignInError(error, "token");
      }
      if (!claims) throw new OidcSignInError("No ID token");
      let name = readName(claims);
      // The e-mail address is read only when it was asked for (a staff
      // sign-in): a tourist's is never taken.
      const wantsEmail = expected.withEmail === true;
      let email = wantsEmail ? readVerifiedEmail(claims) : null;
      if (name === null || (wantsEmail && email === null)) {
        const info = await fetchUserInfo(as, claims.sub, result.access_token);
        name ??= info ? readName(info) : null;
        if (wantsEmail && info) email ??= readVerifiedEmail(info);
      }
      return { issuer: claims.iss, subject: claims.sub, name, email };
    },
  };

  /**
   * Providers that keep profile claims out of the ID token (as the OIDC
   * spec suggests when an access token is issued) give the name and the
   * e-mail address at userinfo. A greeting depends on the name, and a
   * staff member listed by subject needs no address, so a failure here is
   * logged and the sign-in goes on without them.
   */
  async function fetchUserInfo(
    as: oauth.AuthorizationServer,
    subject: string,
    accessToken: string,
  ): Promise<Record<string, unknown> | null> {
    if (!as.userinfo_endpoint) return null;
    try {
      const response = await oauth.userInfoRequest(
        as,
        client,
        accessToken,
        requestOptions,
      );
      return await oauth.processUserInfoResponse(
        as,
        client,
        subject,
        response,
      );
    } catch (error) {
      console.warn(`Sign-in: userinfo failed: ${describe(error)}`);
      return null;
    }
  }
}

/**
 * HTTP Basic with the client secret, the OAuth default, unless the provider
 * says it only takes the secret in the form body.
 */
function getClientAuth(
  as: oauth.AuthorizationServer,
  secret: string,
): oauth.ClientAuth {
  const methods = as.token_endpoint_auth_methods_supported;
  return methods && !methods.includes("client_secret_basic") &&
      methods.includes("client_secret_post")
    ? oauth.ClientSecretPost(secret)
    : oauth.ClientSecretBasic(secret);
}

/** A display name from ID token or userinfo claims, at most 120 characters. */
function readName(claims: Record<string, unknown>): string | null {
  for (const claim of ["name", "preferred_username", "given_name"]) {
    const value = claims[claim];
    const name = typeof value === "string" ? cleanText(value, 120) : "";
    if (name) return name;
  }
  return null;
}

/** The `email` claim in lower case when `email_verified` is true, else `null`. */
function readVerifiedEmail(claims: Record<string, unknown>): string | null {
  const email = claims.email;
  if (claims.email_verified !== true || typeof email !== "string") return null;
  const trimmed = email.trim().toLowerCase();
  return trimmed.length > 0 && trimmed.length <= 254 ? trimmed : null;
}

/** Network failures, timeouts and provider-side errors (5xx, not JSON, bad metadata). */
function isUnavailable(error: unknown): boolean {
  if (error instanceof DOMException) {
    return error.name === "TimeoutError" || error.name === "AbortError";
  }
  if (error instanceof oauth.ResponseBodyError) return error.status >= 500;
  if (error instanceof oauth.OperationProcessingError) {
    const cause = error.cause;
    if (cause instanceof Response && cause.status >= 500) return true;
    return error.code === oauth.RESPONSE_IS_NOT_JSON ||
      error.code === oauth.RESPONSE_IS_NOT_CONFORM;
  }
  // fetch() rejects with a TypeError when the connection fails; oauth4webapi's
  // own argument errors are TypeErrors too, but carry a code.
  return error instanceof TypeError && !("code" in error);
}

function toUnavailable(error: unknown, step: string): Error {
  if (
    error instanceof OidcUnavailableError || error instanceof OidcSignInError
  ) {
    return error;
  }
  if (step !== "discovery" && !isUnavailable(error)) {
    return toSignInError(error, step);
  }
  return new OidcUnavailableError(
    `Identity provider ${step} failed: ${describe(error)}`,
    { cause: error },
  );
}

function toSignInError(error: unknown, step: string): Error {
  if (
    error instanceof OidcUnavailableError || error instanceof OidcSignInError
  ) {
    return error;
  }
  const known = error instanceof oauth.AuthorizationResponseError ||
    error instanceof oauth.ResponseBodyError ||
    error instanceof oauth.OperationProcessingError ||
    error instanceof oauth.UnsupportedOperationError;
  if (!known) throw error;
  return new OidcSignInError(`Sign-in ${step} refused: ${describe(error)}`, {
    cause: error,
  });
}

function describe(error: unknown): string {
  if (error instanceof oauth.AuthorizationResponseError) {
    return `${error.error}${
      error.error_description ? ` (${error.error_description})` : ""
    }`;
  }
  if (error instanceof oauth.ResponseBodyError) {
    return `${error.status} ${error.error}`;
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string"
      ? `${code}: ${error.message}`
      : `${error.name}: ${error.message}`;
  }
  return String(error);
}

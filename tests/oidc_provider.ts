/**
 * A real OpenID Connect provider for tests: `npm:oidc-provider` (a certified
 * implementation) served with `node:http` on a loopback port. It knows one
 * confidential client that must use PKCE, and logs in any account name with
 * any password through its development login form; consent is granted
 * automatically for that client, as a first-party client would have it.
 */
import { createServer, type Server } from "node:http";
import * as jose from "jose";
import { Provider } from "oidc-provider";
import type { Page } from "playwright-core";
import { createTestContext, serveApp, type TestContext } from "./test_utils.ts";

export interface TestOidcProvider {
  /** The issuer identifier, e.g. `http://127.0.0.1:40123`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** How many requests the token endpoint answered (to see a code was not exchanged twice). */
  tokenRequests(): number;
  /** How many requests the provider got for a path, e.g. the discovery document. */
  requests(path: string): number;
  /** Stops the provider (idempotent): it refuses connections from then on. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a provider on 127.0.0.1, port 0, with a client whose only redirect
 * URI is `redirectUri`.
 */
export async function startOidcProvider(
  { redirectUri, clientId = "turismo-test", clientSecret }: {
    redirectUri: string;
    clientId?: string;
    clientSecret?: string;
  },
): Promise<TestOidcProvider> {
  const secret = clientSecret ?? `secreto-${crypto.randomUUID()}`;
  const server: Server = createServer();
  await new Promise<void>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve())
  );
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;

  // Its own signing key, so that the provider does not fall back to its
  // published development keys (and does not warn about them).
  const { privateKey } = await jose.generateKeyPair("RS256", {
    extractable: true,
  });
  const jwk = { ...await jose.exportJWK(privateKey), alg: "RS256", use: "sig" };

  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: secret,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    }],
    jwks: { keys: [jwk] },
    cookies: { keys: [crypto.randomUUID()] },
    pkce: { required: () => true },
    // Explicit lifetimes (seconds), which also keeps the provider from
    // printing a notice for each default it falls back to.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    features: { devInteractions: { enabled: true } },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name"],
    },
    findAccount: (_ctx: unknown, accountId: string) => ({
      accountId,
      claims: () => ({
        sub: accountId,
        email: `${accountId}@ejemplo.mx`,
        email_verified: true,
        name: `Turista ${accountId}`,
      }),
    }),
    // Consent for the test client is implied: a grant of what it asked for.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const grantId = ctx.oidc.result?.consent?.grantId ??
        ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return await ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope(ctx.oidc.params.scope ?? "openid");
      await grant.save();
      return grant;
    },
  });
  // Silence the provider's own error logging of expected failures.
  provider.on("server_error", () => {});

  const counts = new Map<string, number>();
  const callback = provider.callback();
  server.on("request", (req, res) => {
    const path = new URL(req.url ?? "/", issuer).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    callback(req, res);
  });

  let stopped: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopped ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return stopped;
  }

  return {
    issuer,
    clientId,
    clientSecret: secret,
    tokenRequests: () => counts.get("/token") ?? 0,
    requests: (path) => counts.get(path) ?? 0,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** The app's settings for signing in at `provider`, the app being at `baseUrl`. */
export function oidcEnv(
  provider: TestOidcProvider,
  baseUrl: string,
): Record<string, string> {
  return {
    BASE_URL: baseUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
  };
}

/** The app served on a loopback port and a provider it signs in at. */
export interface AppWithProvider extends AsyncDisposable {
  ctx: TestContext;
  provider: TestOidcProvider;
  /** The app's origin, e.g. `http://127.0.0.1:40124`. */
  origin: string;
}

/**
 * Serves the app on a loopback port, wired to a provider on another. The
 * app's clock starts at the real time, because the provider's ID tokens and
 * the API's check of session tokens read the real clock. Use with
 * `await using`.
 */
export async function startAppWithProvider(
  { beforeAnswer }: {
    /** Awaited before the app answers a request (a test holds one back). */
    beforeAnswer?: (req: Request) => Promise<void> | undefined;
  } = {},
): Promise<AppWithProvider> {
  // The app's port must be known before the provider registers its callback.
  let handler: Deno.ServeHandler = () => new Response(null, { status: 503 });
  const server = serveApp((req, info) => handler(req, info));
  const { origin } = server;
  const provider = await startOidcProvider({
    redirectUri: `${origin}/auth/callback`,
  });
  const ctx = await createTestContext({
    clockStart: new Date(),
    env: oidcEnv(provider, origin),
  });
  handler = async (req, info) => {
    await beforeAnswer?.(req);
    return await ctx.app.fetch(req, info);
  };
  return {
    ctx,
    provider,
    origin,
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await provider[Symbol.asyncDispose]();
      await ctx[Symbol.asyncDispose]();
    },
  };
}

// The parts of oidc-provider's Koa context that the grant loader reads.
// deno-lint-ignore no-explicit-any
type ProviderContext = { oidc: any };

/**
 * Signs in from the passport page open in `page` (`/mi-pasaporte` or
 * `/en/mi-pasaporte`): its sign-in link, then the provider's login form as
 * `login` (any password), back on that passport.
 */
export async function signInAtProvider(
  page: Page,
  { login = "maria", linkName = "Iniciar sesión" } = {},
): Promise<void> {
  const passport = page.url();
  await page.getByRole("link", { name: linkName }).first().click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("secreto");
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(passport);
}

import { STAFF_ROLES, type StaffRole } from "@/lib/types/staff.ts";
import { DEFAULT_DATA_PATH } from "@/lib/data/tourism_data.ts";
import { KNOWN_LICENSES, type OpenDataLicense } from "@/lib/config/licenses.ts";
import { isEmailAddress } from "@/lib/text/email.ts";
import {
  EnvValueError,
  fail,
  flag,
  httpUrl,
  integer,
  matching,
  oneOf,
  optional,
  orDefault,
  text,
} from "./env_values.ts";

/** How long an unused guest passport is kept when `GUEST_PASSPORT_RETENTION_MONTHS` is not set. */
export const DEFAULT_GUEST_PASSPORT_RETENTION_MONTHS = 24;

/** OpenStreetMap's own tiles: what the maps show unless `MAP_TILE_URL` says otherwise. */
export const DEFAULT_MAP_TILE_URL =
  "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
/** The credit OpenStreetMap's licence asks for under its tiles. */
export const DEFAULT_MAP_TILE_ATTRIBUTION = "© OpenStreetMap contributors";

const optionalText = optional(text({ trim: true }));
const optionalUrl = optional(httpUrl);

/** Every environment variable the service reads: how its text is read, with its default. */
const ENV = {
  PORT: orDefault(integer(0, 65535), "8000"),
  LISTEN_HOST: orDefault(text(), "127.0.0.1"),
  BASE_URL: optional((value) =>
    matching(
      /^https?:\/\/[^/?#]+\/?$/,
      "must be an origin like https://turismo.example.gob.mx, without a path",
    )(httpUrl(value))
  ),
  KV_PATH: optional((value) => {
    const path = text({ trim: true })(value);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) && !/^https?:\/\//i.test(path)) {
      fail(
        "must be a file path, :memory:, or a KV Connect URL (http or https)",
      );
    }
    return path;
  }),
  TOURISM_DATA: orDefault(text(), DEFAULT_DATA_PATH),
  CONTENT_SOURCE: orDefault(oneOf("kv", "file"), "kv"),

  AUTH_JWT_SECRET: optional(text({ minLength: 32 })),
  AUTH_JWKS_URL: optionalUrl,
  AUTH_ISSUER: optionalText,
  AUTH_AUDIENCE: optionalText,

  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODEL: orDefault(text(), "gpt-4o-mini"),

  WP_URL: optionalUrl,
  WP_USER: optionalText,
  WP_APP_PASSWORD: optionalText,
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_REDIRECT_URI: optionalUrl,
  STAFF: orDefault((value) => {
    try {
      return parseStaffList(value);
    } catch (error) {
      return fail((error as Error).message);
    }
  }, ""),

  WP_POST_TYPE: orDefault(
    matching(/^[a-z0-9_-]+$/, "must be a REST base like posts"),
    "posts",
  ),

  ALLOWED_ORIGINS: orDefault((value) => value, ""),
  TRUST_PROXY: orDefault((value) => {
    const v = value.trim().toLowerCase();
    if (["", "0", "false", "no", "off"].includes(v)) return 0;
    if (flag(v)) return 1;
    if (/^\d+$/.test(v) && Number(v) <= 10) return Number(v);
    return fail(
      "must be the number of proxies of yours in front (0-10), or true (1) / false (0)",
    );
  }, ""),
  LOG_REQUESTS: orDefault(flag, "true"),
  IP_BUDGET_PER_MINUTE: orDefault(integer(0, 4000), "300"),
  CHAT_DAILY_LIMIT: orDefault(integer(0), "0"),
  REQUEST_BODY_TIMEOUT_MS: orDefault(integer(100, 120_000), "10000"),
  RENDER_WORKERS: orDefault(integer(1, 8), "1"),
  GUEST_PASSPORT_RETENTION_MONTHS: orDefault(
    integer(1, 120),
    String(DEFAULT_GUEST_PASSPORT_RETENTION_MONTHS),
  ),
  RENDER_WORKER_START: orDefault(
    oneOf("first-card", "first-page", "boot"),
    "first-card",
  ),
  RENDER_WORKER_IDLE_SECONDS: orDefault(integer(1, 3600), "20"),
  MAP_TILE_URL: orDefault((value) => {
    const url = value.trim();
    try {
      return { url, imageSource: getTileImageSource(url) };
    } catch (error) {
      return fail((error as Error).message);
    }
  }, DEFAULT_MAP_TILE_URL),
  MAP_TILE_ATTRIBUTION: orDefault(
    text({ trim: true }),
    DEFAULT_MAP_TILE_ATTRIBUTION,
  ),
  OPEN_DATA_LICENSE: orDefault((value): OpenDataLicense => {
    const [name, path] = value.trim().split(/\s*,\s*/);
    const known = KNOWN_LICENSES[name];
    if (known && !path) return known;
    if (name && path && URL.canParse(path) && /^https?:/.test(path)) {
      return { name, title: name, path };
    }
    return fail(
      `must be one of ${
        Object.keys(KNOWN_LICENSES).join(", ")
      }, or "<identifier>,<https URL of its text>"`,
    );
  }, "CC-BY-4.0"),
};

type EnvName = keyof typeof ENV;

/** The variables' values, each as its reader gives it. */
type EnvValues = { [K in EnvName]: ReturnType<(typeof ENV)[K]> };

/**
 * Every variable {@linkcode parseConfig} reads, from the table itself: what
 * a process started by the tests must not inherit from a developer's shell.
 */
export const ENV_NAMES: readonly EnvName[] = Object.keys(ENV) as EnvName[];

/** The service's configuration, parsed once at start-up. */
export interface Config {
  port: number;
  hostname: string;
  /** Public origin without a trailing slash; `undefined` means "the request's own origin". */
  baseUrl?: string;
  /**
   * A KV file, `:memory:`, a KV Connect URL (`denokv`, with
   * `DENO_KV_ACCESS_TOKEN`), or `undefined` for the platform's own KV (Deno
   * Deploy).
   */
  kvPath?: string;
  /**
   * Where earlier versions kept the default KV file (`./data/turismo.kv`,
   * beside the data set): moved to {@linkcode DEFAULT_KV_PATH} at start.
   * Set only when `KV_PATH` is not.
   */
  legacyKvPath?: string;
  /** Running on Deno Deploy (`DENO_DEPLOYMENT_ID` is set). */
  onDeploy: boolean;
  tourismDataPath: string;
  /**
   * Where the content lives (lib/content): `kv`, published from the console
   * and seeded from `tourismDataPath` on a new KV; or `file`, the data set
   * file itself, re-read when it changes.
   */
  contentSource: "kv" | "file";
  auth: {
    secret?: string;
    jwksUrl?: string;
    issuer?: string;
    audience?: string;
  };
  openai: { apiKey?: string; baseUrl?: string; model: string };
  wordpress?: {
    url: string;
    user: string;
    appPassword: string;
    postType: string;
  };
  /** The portal's own sign-in with an OpenID Connect provider; `undefined` when not configured. */
  oidc?: {
    /** The issuer identifier; discovery reads `<issuer>/.well-known/openid-configuration`. */
    issuer: string;
    clientId: string;
    clientSecret: string;
    /** The one callback address registered with the provider. */
    redirectUri: string;
    /** Timeout of each call to the provider, in milliseconds. */
    timeoutMs: number;
  };
  /**
   * Who may sign in to the staff console with the OIDC provider (`STAFF`),
   * each by verified e-mail address or by subject, with a role. Empty
   * without OIDC: then staff come in by `deno task staff-link`.
   */
  staff: StaffEntry[];
  allowedOrigins: string[];
  /**
   * How many proxies of the operator's own stand in front (`TRUST_PROXY`):
   * the client is the `X-Forwarded-For` entry that many from the right; 0
   * uses the connection's address.
   */
  trustedProxyHops: number;
  logRequests: boolean;
  /** Requests one IP may make per minute before a 429 (docs/API.md, limits); 0 turns the budget off. */
  ipBudgetPerMinute: number;
  /** Model calls the chat may make a day across all instances; 0 is no ceiling. */
  chatDailyLimit: number;
  /** How long a request body may take to arrive before a 408. */
  bodyTimeoutMs: number;
  /** Workers drawing share cards at once (each about 100 MiB). */
  renderWorkers: number;
  /** When the first render worker starts (`RENDER_WORKER_START`; lib/og/pool.ts). */
  renderWorkerStart: "first-card" | "first-page" | "boot";
  /** A render worker with nothing to do this long exits (`RENDER_WORKER_IDLE_SECONDS`). */
  renderWorkerIdleMs: number;
  /** The licence of the open data at /datos (`OPEN_DATA_LICENSE`). */
  openDataLicense: OpenDataLicense;
  /**
   * A guest passport unused this many months is erased with everything it
   * holds (`GUEST_PASSPORT_RETENTION_MONTHS`, default 24).
   */
  guestPassportRetentionMonths: number;
  /**
   * The maps' tile source (`MAP_TILE_URL`, `MAP_TILE_ATTRIBUTION`): the
   * template Leaflet fills in, the credit shown under every map, and the
   * CSP source that lets the map pages load those images.
   */
  mapTiles: MapTiles;
}

/** Where the maps' tiles come from (`Config.mapTiles`). */
export interface MapTiles {
  /** `https://host/{z}/{x}/{y}.png`, optionally `{s}.` first in the host and `{r}`. */
  url: string;
  /** Plain text, shown under the map (never as HTML). */
  attribution: string;
  /** The `img-src` source of the tile host: `https://host`, `https://*.host` with `{s}`. */
  imageSource: string;
}

/** One identity of `STAFF`: an e-mail address (lower case) or a provider subject, and its role. */
export type StaffEntry =
  & { role: StaffRole }
  & ({ email: string; subject?: never } | { subject: string; email?: never });

/**
 * The calendar the dashboard's counters use when a caller names none
 * (tests, benches, scripts): the shipped data set's municipality's. The
 * service always passes the data set's own (`municipality.timeZone`).
 */
export const DEFAULT_TIME_ZONE = "America/Mexico_City";

/**
 * The default KV file: in a folder of its own, owner-only, never beside the
 * data set (see `DataStore`).
 */
export const DEFAULT_KV_PATH = "./state/turismo.kv";
const LEGACY_KV_PATH = "./data/turismo.kv";

/** A bad environment: the message names every offending variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses the environment into a {@linkcode Config}, throwing a
 * {@linkcode ConfigError} that names each bad variable.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of ENV_NAMES) {
    const value = env[name] === "" ? undefined : env[name];
    try {
      values[name] = ENV[name](value);
    } catch (error) {
      if (!(error instanceof EnvValueError)) throw error;
      problems.push(`${name}: ${error.message}`);
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid environment: ${problems.join("; ")}`);
  }
  const e = values as EnvValues;
  const onDeploy = Boolean(env.DENO_DEPLOYMENT_ID);

  const wpVars = [e.WP_URL, e.WP_USER, e.WP_APP_PASSWORD];
  if (wpVars.some(Boolean) && !wpVars.every(Boolean)) {
    throw new ConfigError(
      "Invalid environment: WP_URL, WP_USER and WP_APP_PASSWORD must be set together",
    );
  }
  const oidc = parseOidc(e);
  if (e.STAFF.length > 0 && !oidc) {
    throw new ConfigError(
      "Invalid environment: STAFF lists who signs in to the panel with the OIDC provider: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too (without a provider, use deno task staff-link)",
    );
  }
  const allowedOrigins = e.ALLOWED_ORIGINS.split(",").map((o) => o.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new ConfigError(
        `Invalid environment: ALLOWED_ORIGINS: "${origin}" is not an origin like https://example.org`,
      );
    }
  }

  return {
    port: e.PORT,
    hostname: e.LISTEN_HOST,
    baseUrl: e.BASE_URL?.replace(/\/+$/, ""),
    kvPath: e.KV_PATH ?? (onDeploy ? undefined : DEFAULT_KV_PATH),
    legacyKvPath: e.KV_PATH || onDeploy ? undefined : LEGACY_KV_PATH,
    onDeploy,
    tourismDataPath: e.TOURISM_DATA,
    contentSource: e.CONTENT_SOURCE,
    auth: {
      secret: e.AUTH_JWT_SECRET,
      jwksUrl: e.AUTH_JWKS_URL,
      issuer: e.AUTH_ISSUER,
      audience: e.AUTH_AUDIENCE,
    },
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.OPENAI_BASE_URL,
      model: e.OPENAI_MODEL,
    },
    wordpress: e.WP_URL
      ? {
        url: e.WP_URL.replace(/\/+$/, ""),
        user: e.WP_USER!,
        appPassword: e.WP_APP_PASSWORD!,
        postType: e.WP_POST_TYPE,
      }
      : undefined,
    oidc,
    staff: e.STAFF,
    allowedOrigins,
    trustedProxyHops: e.TRUST_PROXY,
    logRequests: e.LOG_REQUESTS,
    ipBudgetPerMinute: e.IP_BUDGET_PER_MINUTE,
    chatDailyLimit: e.CHAT_DAILY_LIMIT,
    bodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_MS,
    renderWorkers: e.RENDER_WORKERS,
    renderWorkerStart: e.RENDER_WORKER_START,
    renderWorkerIdleMs: e.RENDER_WORKER_IDLE_SECONDS * 1000,
    openDataLicense: e.OPEN_DATA_LICENSE,
    guestPassportRetentionMonths: e.GUEST_PASSPORT_RETENTION_MONTHS,
    mapTiles: {
      url: e.MAP_TILE_URL.url,
      attribution: e.MAP_TILE_ATTRIBUTION,
      imageSource: e.MAP_TILE_URL.imageSource,
    },
  };
}

/**
 * `STAFF`: a comma-separated list of `role:identity`, the role `admin` or
 * `viewer`, the identity an e-mail address or `sub:<subject>`, e.g.
 * `admin:ana@municipio.gob.mx,viewer:sub:1234`. An identity listed twice is
 * an error (which role would win?).
 */
export function parseStaffList(value: string): StaffEntry[] {
  const entries: StaffEntry[] = [];
  const seen = new Set<string>();
  for (const raw of value.split(",")) {
    const item = raw.trim();
    if (!item) continue;
    const colon = item.indexOf(":");
    const role = item.slice(0, colon).trim().toLowerCase();
    const identity = item.slice(colon + 1).trim();
    if (colon < 0 || !STAFF_ROLES.includes(role as StaffRole)) {
      throw new Error(
        `"${item}" must be role:identity, the role admin, editor or viewer (e.g. admin:ana@municipio.gob.mx or viewer:sub:1234)`,
      );
    }
    let entry: StaffEntry;
    if (identity.toLowerCase().startsWith("sub:")) {
      const subject = identity.slice(4).trim();
      if (!subject) throw new Error(`"${item}" names an empty subject`);
      entry = { role: role as StaffRole, subject };
    } else {
      const email = identity.toLowerCase();
      if (!isEmailAddress(email)) {
        throw new Error(
          `"${item}": ${
            identity || "(empty)"
          } is neither an e-mail address nor sub:<subject>`,
        );
      }
      entry = { role: role as StaffRole, email };
    }
    const id = entry.email ?? `sub:${entry.subject}`;
    if (seen.has(id)) throw new Error(`${id} is listed more than once`);
    seen.add(id);
    entries.push(entry);
  }
  return entries;
}

/**
 * The Content-Security-Policy source of a tile template's host, so the
 * pages with a map may load its images and nothing else may: `{s}` (a
 * subdomain Leaflet picks) is allowed only as the first label, and becomes
 * `*.`; the path must have `{z}`, `{x}` and `{y}`. Plain http only on the
 * local machine (tests, development). Throws with the reason.
 */
export function getTileImageSource(template: string): string {
  const match = /^(https?):\/\/((?:\{s\}\.)?[a-z0-9.-]+(?::\d+)?)(\/[^?#]*)/i
    .exec(template);
  if (!match) {
    throw new Error(
      "must be an http or https tile template like https://tile.openstreetmap.org/{z}/{x}/{y}.png",
    );
  }
  const [, scheme, host, path] = match;
  for (const part of ["{z}", "{x}", "{y}"]) {
    if (!path.includes(part)) throw new Error(`must contain ${part}`);
  }
  const origin = `${scheme.toLowerCase()}://${
    host.toLowerCase().replace(/^\{s\}\./, "*.")
  }`;
  if (
    scheme.toLowerCase() === "http" && !isLoopbackUrl(origin.replace("*.", ""))
  ) {
    throw new Error("must be https (http only on 127.0.0.1 or localhost)");
  }
  return origin;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether `url` may be plain http: only on the local machine (development, tests). */
export function isLoopbackUrl(url: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(url).hostname);
}

function parseOidc(e: EnvValues): Config["oidc"] {
  const fail = (message: string): never => {
    throw new ConfigError(`Invalid environment: ${message}`);
  };
  const vars = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
  if (!vars.some(Boolean)) {
    if (e.OIDC_REDIRECT_URI) fail("OIDC_REDIRECT_URI needs OIDC_ISSUER");
    return undefined;
  }
  if (!vars.every(Boolean)) {
    fail(
      "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together",
    );
  }
  // Kept as given: an issuer must match its discovery document exactly,
  // trailing slash included (Auth0's has one, Google's does not).
  const issuer = e.OIDC_ISSUER!;
  if (new URL(issuer).protocol !== "https:" && !isLoopbackUrl(issuer)) {
    fail("OIDC_ISSUER: must be https (http only on 127.0.0.1 or localhost)");
  }
  const baseUrl = e.BASE_URL?.replace(/\/+$/, "");
  const redirectUri = e.OIDC_REDIRECT_URI ??
    (baseUrl ? `${baseUrl}/auth/callback` : undefined) ??
    fail(
      "OIDC_REDIRECT_URI: set it or BASE_URL (it defaults to BASE_URL/auth/callback)",
    );
  const redirect = new URL(redirectUri);
  if (!redirect.pathname.endsWith("/auth/callback") || redirect.search) {
    fail("OIDC_REDIRECT_URI: must end in /auth/callback, without a query");
  }
  if (baseUrl && redirect.origin !== new URL(baseUrl).origin) {
    fail(
      "OIDC_REDIRECT_URI: must be on BASE_URL's origin (the session cookie is set there)",
    );
  }
  if (redirect.protocol !== "https:" && !isLoopbackUrl(redirectUri)) {
    fail(
      "OIDC_REDIRECT_URI: must be https (http only on 127.0.0.1 or localhost)",
    );
  }
  return {
    issuer,
    clientId: e.OIDC_CLIENT_ID!,
    clientSecret: e.OIDC_CLIENT_SECRET!,
    redirectUri,
    timeoutMs: 10_000,
  };
}

/**
 * The `--env-file` option of main.ts (`--env-file=.env` or `--env-file
 * .env`); any other argument is a {@linkcode ConfigError}. Read by hand:
 * node:util's `parseArgs` would start Deno's Node layer, a few
 * milliseconds and megabytes of every start, for this one option.
 */
export function readEnvFileOption(args: readonly string[]): string | undefined {
  let path: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith("--env-file=")) {
      path = arg.slice("--env-file=".length);
    } else if (arg === "--env-file" && i + 1 < args.length) {
      path = args[++i];
    } else {
      throw new ConfigError(
        `Unknown argument ${arg}: the only option is --env-file=<path>`,
      );
    }
  }
  return path || undefined;
}

/**
 * Reads a dotenv file (`deno task start` passes `--env-file=.env`) into the
 * process environment, so KV Connect's `DENO_KV_ACCESS_TOKEN` is seen too.
 * Variables already set win, as with Deno's own `--env-file`; a missing file
 * is no error (a fresh checkout has none). Returns the names it set. The
 * parser (node:util's) is imported only when there is a file.
 */
export async function applyEnvFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw new ConfigError(
      `${path}: cannot be read: ${(error as Error).message}`,
    );
  }
  const { parseEnv } = await import("node:util");
  const applied: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (value === undefined || Deno.env.get(name) !== undefined) continue;
    Deno.env.set(name, value);
    applied.push(name);
  }
  return applied;
}

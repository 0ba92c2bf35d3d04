/**
 * The process around the app: checks that must pass before anything is
 * written, the start-up summary, and serving until a signal with a graceful
 * stop. `main.ts` strings these together.
 */
import type { Hono } from "hono";
import { type Config, ConfigError } from "@/lib/config/config.ts";
import { DataError } from "@/lib/data/tourism_data.ts";
import { type DataStore } from "@/lib/data/data_store.ts";
import { describeKvPath, KvStartError } from "@/lib/db/kv.ts";
import { MANIFEST_PATH } from "@/lib/pages/assets.ts";

/** What the process around the app needs of the app's dependencies. */
export interface ServiceDeps {
  config: Config;
  data: DataStore;
  cms: { readonly kind: string };
  openai?: unknown;
  createdSigningSecret: boolean;
  close(): Promise<void>;
}

/** The service cannot start: `message` is the one line that says why and what to do. */
export class StartError extends Error {
  override name = "StartError";
}

/**
 * How long a stop waits for requests in flight. Deno Deploy kills an
 * instance 5 s after its SIGINT, so there the flush must come sooner.
 */
export function getShutdownTimeoutMs(config: Pick<Config, "onDeploy">): number {
  return config.onDeploy ? 4_000 : 10_000;
}

/**
 * What must hold before KV is opened, so that a start that cannot succeed
 * writes nothing: the port is free (off Deploy, where the platform picks
 * it), and on Deploy the build step has run (without `static/build/` every
 * page would lose its styles and islands) and KV exists at all.
 */
export function checkStartConditions(config: Config): void {
  if (config.onDeploy) {
    try {
      Deno.statSync(MANIFEST_PATH);
    } catch {
      throw new StartError(
        "static/build/ is missing: Deno Deploy must run `deno task build` (deno.json's deploy.build); see docs/DEPLOY.md",
      );
    }
    if (!config.kvPath && typeof Deno.openKv !== "function") {
      throw new StartError(
        "No Deno KV database is assigned to this app: `deno deploy database provision <name> --kind denokv`, then `deno deploy database assign <name> --app <app>`",
      );
    }
    return;
  }
  if (config.port === 0) return;
  try {
    Deno.listen({ hostname: config.hostname, port: config.port }).close();
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new StartError(
        `Port ${config.port} on ${config.hostname} is already in use (another copy of the service?): stop it or set PORT`,
      );
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new StartError(
        `Not allowed to listen on ${config.hostname}:${config.port}: choose a PORT above 1023`,
      );
    }
    throw error;
  }
}

/** One line that says what the service runs on. */
export function describeService(deps: ServiceDeps): string {
  const { config } = deps;
  const { data, version } = deps.data.current();
  const auth = [
    config.auth.secret && "HS256 secret",
    config.auth.jwksUrl && "JWKS",
    "own tokens",
  ].filter(Boolean).join(" + ");
  return `Serving ${data.municipality.name}: ${
    describeKvPath(config.kvPath)
  }, content ${version} (${
    config.contentSource === "kv" ? "published in KV" : config.tourismDataPath
  }), ` +
    `CMS ${deps.cms.kind}, model ${
      deps.openai ? config.openai.model : "not configured"
    }, auth ${auth}, sign-in ${config.oidc ? "OIDC" : "not configured"}`;
}

/**
 * Warnings worth a loud line at start. On Deploy a new signing secret means
 * KV was empty: right at an app's very first start, and at every start when
 * no database is assigned (then KV is each instance's own memory).
 */
export function getStartWarnings(deps: ServiceDeps): string[] {
  const warnings: string[] = [];
  if (
    deps.config.onDeploy && deps.config.kvPath === undefined &&
    deps.createdSigningSecret
  ) {
    warnings.push(
      "KV was empty at this start. Unless this is the app's first start, no Deno KV database is assigned to the app and every instance keeps its own data in memory (lost at each restart): assign one with `deno deploy database assign <name> --app <app>`",
    );
  }
  return warnings;
}

/**
 * Serves `app` until SIGINT or SIGTERM, then stops: no new connections,
 * requests in flight finish (at most {@linkcode getShutdownTimeoutMs}), the
 * dependencies close (the per-IP budget writes its counts, KV closes) and
 * the process exits 0. Another signal a second later exits at once.
 */
export function serveUntilStopped(
  app: Pick<Hono, "fetch">,
  deps: ServiceDeps,
): Deno.HttpServer {
  const { config } = deps;
  const server = Deno.serve(
    { port: config.port, hostname: config.hostname },
    app.fetch,
  );
  const timeoutMs = getShutdownTimeoutMs(config);
  let stoppingSince: number | undefined;
  const stop = async (signal: Deno.Signal) => {
    if (stoppingSince !== undefined) {
      // Ctrl-C reaches both `deno task` and the service, and the task
      // forwards it: a copy within a second is the same request.
      if (Date.now() - stoppingSince < 1_000) return;
      console.warn(`${signal} again: exiting without waiting`);
      Deno.exit(1);
    }
    stoppingSince = Date.now();
    console.info(
      `${signal}: finishing the requests in flight (at most ${
        timeoutMs / 1000
      } s), then stopping`,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finished = await Promise.race([
      server.shutdown().then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      console.warn(`Requests still open after ${timeoutMs / 1000} s were cut`);
    }
    await deps.close();
    console.info("Stopped");
    Deno.exit(0);
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM"];
  for (const signal of signals) {
    Deno.addSignalListener(signal, () => void stop(signal));
  }
  return server;
}

/**
 * The message of an error that stops the start, or `undefined` for an
 * unexpected one (which is thrown with its stack).
 */
export function describeStartError(error: unknown): string | undefined {
  if (
    error instanceof StartError || error instanceof ConfigError ||
    error instanceof DataError || error instanceof KvStartError
  ) {
    return error.message;
  }
  return undefined;
}

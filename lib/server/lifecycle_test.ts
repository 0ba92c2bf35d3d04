import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "@/lib/config/config.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import {
  DataError,
  DEFAULT_DATA_PATH,
  loadTourismData,
} from "@/lib/data/tourism_data.ts";
import { KvStartError } from "@/lib/db/kv.ts";
import {
  checkStartConditions,
  describeService,
  describeStartError,
  getShutdownTimeoutMs,
  getStartWarnings,
  type ServiceDeps,
  StartError,
} from "./lifecycle.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const LIFECYCLE = new URL("./lifecycle.ts", import.meta.url).href;
const SECRET = "s3cr3t-s3cr3t-s3cr3t-s3cr3t-s3cr3t-0001";

const data = new DataStore(await loadTourismData(DEFAULT_DATA_PATH), {
  onWarning: () => {},
});

function serviceDeps(
  env: Record<string, string>,
  overrides: Partial<ServiceDeps> = {},
): ServiceDeps {
  return {
    config: parseConfig(env),
    data,
    cms: { kind: "kv" },
    createdSigningSecret: false,
    close: () => Promise.resolve(),
    ...overrides,
  };
}

/** A port nothing listens on (just now). */
function getFreePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

Deno.test("checkStartConditions: a start that cannot listen stops before anything is written", async (t) => {
  await t.step(
    "a taken port is a StartError naming the port and what to do",
    () => {
      using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const { port } = listener.addr;
      assert.throws(
        () => checkStartConditions(parseConfig({ PORT: String(port) })),
        (error) =>
          error instanceof StartError &&
          error.message ===
            `Port ${port} on 127.0.0.1 is already in use (another copy of the service?): stop it or set PORT`,
      );
    },
  );

  await t.step("a free port passes and is left free for the server", () => {
    const port = getFreePort();
    checkStartConditions(parseConfig({ PORT: String(port) }));
    using listener = Deno.listen({ hostname: "127.0.0.1", port });
    assert.equal(listener.addr.port, port);
  });

  await t.step("port 0 (any free port) is not tried", () => {
    checkStartConditions(parseConfig({ PORT: "0" }));
  });

  await t.step(
    "on Deno Deploy the port is the platform's: a taken one is not checked",
    () => {
      using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      checkStartConditions(
        parseConfig({
          PORT: String(listener.addr.port),
          DENO_DEPLOYMENT_ID: "abc",
        }),
      );
    },
  );
});

Deno.test("describeStartError: the known reasons are one line, anything else is thrown", () => {
  let configError: unknown;
  try {
    parseConfig({ PORT: "ochenta" });
  } catch (error) {
    configError = error;
  }
  assert.ok(configError instanceof ConfigError);
  for (
    const error of [
      new StartError("Port 8000 is taken"),
      configError,
      new DataError("data/turismo.json: attractions.0.lat: expected number"),
      new KvStartError("state/turismo.kv is still open in another process"),
    ]
  ) {
    assert.equal(describeStartError(error), error.message);
  }
  assert.equal(describeStartError(new TypeError("a bug")), undefined);
  assert.equal(describeStartError("a string"), undefined);
});

Deno.test("describeService: one line of what runs, without a secret", () => {
  const { data: loaded, version } = data.current();
  const plain = describeService(serviceDeps({ KV_PATH: ":memory:" }));
  assert.equal(
    plain,
    `Serving ${loaded.municipality.name}: KV :memory:, content ${version} (published in KV), ` +
      "CMS kv, model not configured, auth own tokens, sign-in not configured",
  );

  const full = describeService(serviceDeps({
    KV_PATH: "https://kv.ejemplo.mx/v2/db-9f3c?access_token=tok-123",
    AUTH_JWT_SECRET: SECRET,
    AUTH_JWKS_URL: "https://idp.ejemplo.mx/jwks",
    OPENAI_API_KEY: "sk-key-456",
    OIDC_ISSUER: "https://idp.ejemplo.mx",
    OIDC_CLIENT_ID: "turismo",
    OIDC_CLIENT_SECRET: "oidc-secret-789",
    BASE_URL: "https://turismo.ejemplo.mx",
  }, { cms: { kind: "wordpress" }, openai: {} }));
  assert.match(full, /: KV Connect https:\/\/kv\.ejemplo\.mx, /);
  assert.match(full, /CMS wordpress, model gpt-4o-mini, /);
  assert.match(full, /auth HS256 secret \+ JWKS \+ own tokens, sign-in OIDC$/);
  for (
    const secret of ["db-9f3c", "tok-123", SECRET, "sk-key-456", "oidc-secret"]
  ) {
    assert.ok(!full.includes(secret), secret);
  }
});

Deno.test("getStartWarnings: KV that was empty on Deploy is said loudly", async (t) => {
  await t.step(
    "on Deploy with the platform's KV, a new signing secret warns",
    () => {
      const [warning, ...others] = getStartWarnings(
        serviceDeps({ DENO_DEPLOYMENT_ID: "abc" }, {
          createdSigningSecret: true,
        }),
      );
      assert.deepEqual(others, []);
      assert.match(warning, /^KV was empty at this start\./);
      assert.match(warning, /deno deploy database assign <name> --app <app>/);
    },
  );

  await t.step(
    "no warning when the secret was found, KV is a path, or off Deploy",
    () => {
      for (
        const [env, createdSigningSecret] of [
          [{ DENO_DEPLOYMENT_ID: "abc" }, false],
          [{ DENO_DEPLOYMENT_ID: "abc", KV_PATH: "/data/turismo.kv" }, true],
          [{}, true],
        ] as const
      ) {
        assert.deepEqual(
          getStartWarnings(serviceDeps(env, { createdSigningSecret })),
          [],
          JSON.stringify(env),
        );
      }
    },
  );
});

/** How long `/slow` of the served stand-in app takes to answer. */
const SLOW_MS = 1_500;

/**
 * `serveUntilStopped` in a process of its own (a signal stops it and it
 * calls `Deno.exit`), serving a stand-in app: `/slow` answers after
 * {@linkcode SLOW_MS}, `/forever` never; its dependencies' `close()` logs
 * `deps closed`.
 */
async function startServing(
  { onDeploy = false }: { onDeploy?: boolean } = {},
) {
  const code = `
    import { serveUntilStopped } from ${JSON.stringify(LIFECYCLE)};
    const app = {
      async fetch(request) {
        const path = new URL(request.url).pathname;
        console.log("request " + path);
        if (path === "/slow") {
          await new Promise((resolve) => setTimeout(resolve, ${SLOW_MS}));
          return new Response("finished");
        }
        if (path === "/forever") await new Promise(() => {});
        return new Response("ok");
      },
    };
    const server = serveUntilStopped(app, {
      config: { port: 0, hostname: "127.0.0.1", onDeploy: ${onDeploy} },
      async close() {
        console.log("deps closed");
      },
    });
    console.log("port " + server.addr.port);
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const pumps = Promise.all([child.stdout, child.stderr].map(async (stream) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output += text;
    }
  }));
  let exited = false;
  const status = child.status.then((status) => {
    exited = true;
    return status;
  });
  const waitFor = async (pattern: RegExp, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(output)) {
      if (Date.now() > deadline || exited) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.match(output, pattern);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await waitFor(/port \d+/);
  const port = Number(/port (\d+)/.exec(output)![1]);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    child,
    status,
    isRunning: () => !exited,
    output: () => output,
    waitFor,
    async [Symbol.asyncDispose]() {
      if (!exited) child.kill("SIGKILL");
      await status;
      await pumps;
    },
  };
}

/** Whether a new connection to `port` is refused, tried for up to a second. */
async function isRefused(port: number): Promise<boolean> {
  const deadline = Date.now() + 1_000;
  while (Date.now() < deadline) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    } catch (error) {
      if (error instanceof Deno.errors.ConnectionRefused) return true;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

Deno.test("serveUntilStopped: a signal stops the service gracefully", async (t) => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    await t.step(
      `${signal}: the request in flight finishes, new connections are refused, then the dependencies close and it exits 0`,
      async () => {
        await using service = await startServing();
        const ok = await fetch(`${service.origin}/`);
        assert.equal(await ok.text(), "ok");
        const slow = fetch(`${service.origin}/slow`);
        await service.waitFor(/request \/slow/);
        service.child.kill(signal);
        await service.waitFor(new RegExp(`${signal}: finishing the requests`));
        assert.ok(await isRefused(service.port), "no new connection");
        assert.ok(!service.output().includes("deps closed"), "not yet");
        const res = await slow;
        assert.equal(res.status, 200);
        assert.equal(await res.text(), "finished");
        const { code } = await service.status;
        assert.equal(code, 0, service.output());
        assert.match(
          service.output(),
          new RegExp(
            `${signal}: finishing the requests in flight \\(at most 10 s\\), then stopping\\n` +
              "deps closed\\nStopped\\n",
          ),
        );
      },
    );
  }

  await t.step(
    "the same signal again within a second is ignored; a second later it exits 1 at once",
    async () => {
      await using service = await startServing();
      const forever = fetch(`${service.origin}/forever`).then(
        () => "answered",
        () => "cut",
      );
      await service.waitFor(/request \/forever/);
      service.child.kill("SIGTERM");
      await service.waitFor(/SIGTERM: finishing/);
      const firstAt = Date.now();
      // Ctrl-C reaches both `deno task` and the service: the copy is ignored.
      service.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.ok(service.isRunning(), "a copy of the signal does not stop it");
      assert.doesNotMatch(service.output(), /again/);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, firstAt + 1_200 - Date.now()))
      );
      const secondAt = Date.now();
      service.child.kill("SIGTERM");
      const { code } = await service.status;
      assert.equal(code, 1, service.output());
      assert.ok(Date.now() - secondAt < 2_000, "without waiting");
      assert.match(service.output(), /SIGTERM again: exiting without waiting/);
      assert.equal(await forever, "cut");
    },
  );

  await t.step(
    "on Deploy a request open past 4 s is cut; the dependencies still close and it exits 0",
    async () => {
      assert.equal(getShutdownTimeoutMs({ onDeploy: true }), 4_000);
      assert.equal(getShutdownTimeoutMs({ onDeploy: false }), 10_000);
      await using service = await startServing({ onDeploy: true });
      const forever = fetch(`${service.origin}/forever`).then(
        () => "answered",
        () => "cut",
      );
      await service.waitFor(/request \/forever/);
      const signalAt = Date.now();
      service.child.kill("SIGTERM");
      const { code } = await service.status;
      const elapsedMs = Date.now() - signalAt;
      assert.equal(code, 0, service.output());
      assert.ok(elapsedMs >= 3_900 && elapsedMs < 8_000, `${elapsedMs} ms`);
      assert.match(
        service.output(),
        /at most 4 s[\s\S]*Requests still open after 4 s were cut\ndeps closed\nStopped\n/,
      );
      assert.equal(await forever, "cut");
    },
  );
});

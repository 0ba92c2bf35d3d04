import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "./config.ts";

Deno.test("config", async (t) => {
  await t.step("defaults need nothing set", () => {
    const config = parseConfig({});
    assert.equal(config.port, 8000);
    // Not beside the data set: see DataStore and docs/OPERATIONS.md "State and KV".
    assert.equal(config.kvPath, "./state/turismo.kv");
    assert.equal(config.tourismDataPath, "./data/turismo.json");
    assert.equal(config.wordpress, undefined);
    assert.equal(config.openai.apiKey, undefined);
    assert.deepEqual(config.allowedOrigins, []);
  });

  await t.step(
    "the maps' tiles: OpenStreetMap by default, an operator's template with its CSP source",
    () => {
      assert.deepEqual(parseConfig({}).mapTiles, {
        url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        attribution: "© OpenStreetMap contributors",
        imageSource: "https://tile.openstreetmap.org",
      });
      const own = parseConfig({
        MAP_TILE_URL: "https://{s}.Tiles.example.org/mapa/{z}/{x}/{y}{r}.png",
        MAP_TILE_ATTRIBUTION: "© Mapas del Estado",
      }).mapTiles;
      assert.equal(own.imageSource, "https://*.tiles.example.org");
      assert.equal(own.attribution, "© Mapas del Estado");
      assert.equal(
        parseConfig({ MAP_TILE_URL: "http://127.0.0.1:9123/{z}/{x}/{y}.png" })
          .mapTiles.imageSource,
        "http://127.0.0.1:9123",
      );
      for (
        const [url, reason] of [
          ["http://tiles.example.org/{z}/{x}/{y}.png", /must be https/],
          ["https://tiles.example.org/{z}/{x}.png", /must contain \{y\}/],
          ["tiles.example.org/{z}/{x}/{y}.png", /tile template/],
          ["https://a.{s}.example.org/{z}/{x}/{y}.png", /tile template/],
          ["https://tiles.example.org'; script-src *", /tile template/],
        ] as const
      ) {
        assert.throws(
          () => parseConfig({ MAP_TILE_URL: url }),
          (error: Error) =>
            error instanceof ConfigError &&
            /MAP_TILE_URL: /.test(error.message) && reason.test(error.message),
          url,
        );
      }
    },
  );

  await t.step("on Deno Deploy without KV_PATH the platform KV is used", () => {
    assert.equal(parseConfig({ DENO_DEPLOYMENT_ID: "abc" }).kvPath, undefined);
    assert.equal(parseConfig({ DENO_DEPLOYMENT_ID: "abc" }).onDeploy, true);
    assert.equal(parseConfig({}).onDeploy, false);
  });

  await t.step(
    "KV_PATH takes a file, :memory: or a KV Connect URL, nothing else",
    () => {
      for (
        const value of [
          "/var/lib/turismo/turismo.kv",
          ":memory:",
          "https://kv.ejemplo.gob.mx",
          "http://127.0.0.1:4512",
        ]
      ) {
        assert.equal(parseConfig({ KV_PATH: value }).kvPath, value);
      }
      assert.throws(
        () => parseConfig({ KV_PATH: "ftp://kv.example/turismo" }),
        /KV_PATH: must be a file path, :memory:, or a KV Connect URL/,
      );
    },
  );

  await t.step("TRUST_PROXY is a number of proxies; true is one", () => {
    const hops = (value: string) =>
      parseConfig({ TRUST_PROXY: value }).trustedProxyHops;
    assert.equal(parseConfig({}).trustedProxyHops, 0);
    assert.equal(hops("false"), 0);
    assert.equal(hops("true"), 1);
    assert.equal(hops("1"), 1);
    assert.equal(hops("2"), 2);
    assert.throws(() => hops("sometimes"), /TRUST_PROXY: must be the number/);
    assert.throws(() => hops("99"), /TRUST_PROXY/);
  });

  await t.step(
    "the old default file is moved only when KV_PATH is not set",
    () => {
      assert.equal(parseConfig({}).legacyKvPath, "./data/turismo.kv");
      assert.equal(
        parseConfig({ KV_PATH: "./data/turismo.kv" }).legacyKvPath,
        undefined,
      );
      assert.equal(
        parseConfig({ DENO_DEPLOYMENT_ID: "abc" }).legacyKvPath,
        undefined,
      );
    },
  );

  await t.step(
    "the per-IP budget defaults to 300 a minute and 0 turns it off",
    () => {
      assert.equal(parseConfig({}).ipBudgetPerMinute, 300);
      assert.equal(
        parseConfig({ IP_BUDGET_PER_MINUTE: "0" }).ipBudgetPerMinute,
        0,
      );
      assert.equal(
        parseConfig({ IP_BUDGET_PER_MINUTE: "1200" }).ipBudgetPerMinute,
        1200,
      );
      for (const bad of ["-1", "muchas", "4001", "2.5"]) {
        assert.throws(
          () => parseConfig({ IP_BUDGET_PER_MINUTE: bad }),
          /IP_BUDGET_PER_MINUTE/,
        );
      }
    },
  );

  await t.step("a bad value stops start-up naming the variable", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: "ocho mil" }, /PORT/],
      [{ PORT: "70000" }, /PORT/],
      [{ BASE_URL: "turismo.example" }, /BASE_URL/],
      [{ AUTH_JWT_SECRET: "short" }, /AUTH_JWT_SECRET: .*32/],
      [{ AUTH_JWKS_URL: "ftp://idp.example/jwks" }, /AUTH_JWKS_URL/],
      [{ OPENAI_BASE_URL: "nope" }, /OPENAI_BASE_URL/],
      [
        { WP_URL: "http://127.0.0.1:8089" },
        /WP_URL, WP_USER and WP_APP_PASSWORD/,
      ],
      [{ WP_POST_TYPE: "Bad Type" }, /WP_POST_TYPE/],
      [{ RENDER_WORKERS: "0" }, /RENDER_WORKERS/],
      [{ RENDER_WORKERS: "many" }, /RENDER_WORKERS/],
      [
        { ALLOWED_ORIGINS: "https://a.example, https://b.example/path" },
        /ALLOWED_ORIGINS: "https:\/\/b.example\/path"/,
      ],
    ];
    for (const [env, message] of cases) {
      assert.throws(() => parseConfig(env), (error: Error) => {
        assert.ok(
          error instanceof ConfigError,
          `${JSON.stringify(env)} throws ConfigError`,
        );
        assert.match(error.message, message);
        return true;
      });
    }
  });

  await t.step(
    "OIDC sign-in is configured by three variables set together",
    () => {
      const oidc = {
        OIDC_ISSUER: "https://accounts.google.com",
        OIDC_CLIENT_ID: "id-123",
        OIDC_CLIENT_SECRET: "secreto",
      };
      assert.equal(parseConfig({}).oidc, undefined);
      assert.deepEqual(
        parseConfig({ ...oidc, BASE_URL: "https://turismo.example/" }).oidc,
        {
          issuer: "https://accounts.google.com",
          clientId: "id-123",
          clientSecret: "secreto",
          redirectUri: "https://turismo.example/auth/callback",
          timeoutMs: 10_000,
        },
      );
      assert.equal(
        parseConfig({
          ...oidc,
          OIDC_REDIRECT_URI: "https://turismo.example/portal/auth/callback",
        }).oidc?.redirectUri,
        "https://turismo.example/portal/auth/callback",
      );
      assert.equal(
        parseConfig({
          ...oidc,
          OIDC_ISSUER: "http://127.0.0.1:9000",
          BASE_URL: "http://127.0.0.1:8000",
        }).oidc?.issuer,
        "http://127.0.0.1:9000",
      );
      const bad: [Record<string, string>, RegExp][] = [
        [
          { OIDC_ISSUER: "https://idp.example" },
          /OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together/,
        ],
        [
          { ...oidc, OIDC_CLIENT_SECRET: "", BASE_URL: "https://t.example" },
          /set together/,
        ],
        [{ ...oidc }, /OIDC_REDIRECT_URI: set it or BASE_URL/],
        [
          {
            ...oidc,
            OIDC_ISSUER: "http://idp.example",
            BASE_URL: "https://t.example",
          },
          /OIDC_ISSUER: must be https/,
        ],
        [{ ...oidc, OIDC_ISSUER: "idp.example" }, /OIDC_ISSUER/],
        [
          { ...oidc, OIDC_REDIRECT_URI: "https://turismo.example/login" },
          /OIDC_REDIRECT_URI: must end in \/auth\/callback/,
        ],
        [
          {
            ...oidc,
            BASE_URL: "https://turismo.example",
            OIDC_REDIRECT_URI: "https://otro.example/auth/callback",
          },
          /OIDC_REDIRECT_URI: must be on BASE_URL's origin/,
        ],
        [
          { OIDC_REDIRECT_URI: "https://turismo.example/auth/callback" },
          /OIDC_REDIRECT_URI needs OIDC_ISSUER/,
        ],
      ];
      for (const [env, message] of bad) {
        assert.throws(() => parseConfig(env), (error: Error) => {
          assert.ok(error instanceof ConfigError, JSON.stringify(env));
          assert.match(error.message, message);
          return true;
        });
      }
    },
  );

  await t.step(
    "each bad variable is named with what it must be, never its value",
    () => {
      const env = {
        PORT: "ocho mil",
        RENDER_WORKERS: "2.5",
        CONTENT_SOURCE: "s3",
        AUTH_JWT_SECRET: "secreto-corto",
        OPENAI_BASE_URL: "ftp://modelo.example",
        LISTEN_HOST: "127.0.0.1",
      };
      assert.throws(() => parseConfig(env), (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(
          error.message,
          "Invalid environment: PORT: must be a number; " +
            "CONTENT_SOURCE: must be one of kv, file; " +
            "AUTH_JWT_SECRET: must be at least 32 characters; " +
            "OPENAI_BASE_URL: must be an http or https URL, like https://example.org; " +
            "RENDER_WORKERS: must be a whole number",
        );
        assert.ok(!error.message.includes("secreto-corto"));
        return true;
      });
    },
  );

  await t.step("values are parsed and normalised", () => {
    const config = parseConfig({
      PORT: "9000",
      BASE_URL: "https://turismo.example/",
      ALLOWED_ORIGINS: "https://a.example, https://b.example",
      TRUST_PROXY: "true",
      WP_URL: "http://127.0.0.1:8089/",
      WP_USER: "admin",
      WP_APP_PASSWORD: "abcd efgh",
      WP_POST_TYPE: "turismo-tickets",
    });
    assert.equal(config.port, 9000);
    assert.equal(config.baseUrl, "https://turismo.example");
    assert.deepEqual(config.allowedOrigins, [
      "https://a.example",
      "https://b.example",
    ]);
    assert.equal(config.trustedProxyHops, 1);
    assert.deepEqual(config.wordpress, {
      url: "http://127.0.0.1:8089",
      user: "admin",
      appPassword: "abcd efgh",
      postType: "turismo-tickets",
    });
  });
});

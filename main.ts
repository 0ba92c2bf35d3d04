import { createApp } from "./lib/app.ts";
import { ConfigError, parseConfig } from "./lib/config.ts";
import { DataError } from "./lib/data.ts";
import { openDeps } from "./lib/deps.ts";

if (import.meta.main) {
  try {
    const config = parseConfig(Deno.env.toObject());
    const deps = await openDeps(config);
    deps.data.watch();
    const app = createApp(deps);
    const { data } = deps.data.current();
    console.info(
      `Serving ${data.municipality.name}: KV ${
        config.kvPath ?? "(platform)"
      }, data ${deps.data.current().version}, ` +
        `CMS ${deps.cms.kind}, model ${
          deps.openai ? config.openai.model : "not configured"
        }, ` +
        `auth ${
          [
            config.auth.secret && "HS256 secret",
            config.auth.jwksUrl && "JWKS",
            "own tokens",
          ].filter(Boolean).join(" + ")
        }`,
    );
    Deno.serve({ port: config.port, hostname: config.hostname }, app.fetch);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataError) {
      console.error(error.message);
      Deno.exit(1);
    }
    throw error;
  }
}

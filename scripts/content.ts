/**
 * The content's import and export, the data set file's format both ways:
 *
 *   deno task content:import [file]   publishes the file (default: TOURISM_DATA)
 *   deno task content:export [file]   writes what is published (default: stdout)
 *
 * Reads `.env` like `deno task start`, so it works on the same KV; a
 * running service (every instance) takes an imported version within a
 * second. An import is validated in full and checked against the guide
 * codes the console gave; the published text is the file's bytes, so an
 * export after an import gives the same file. With `CONTENT_SOURCE=file`
 * the file is the content and there is nothing to import.
 */
import { parseArgs } from "node:util";
import { applyEnvFile, ConfigError, parseConfig } from "@/lib/config/mod.ts";
import { openContent } from "@/lib/content/content_store.ts";
import {
  ContentInvalidError,
  publishText,
  readPublishedText,
} from "@/lib/content/publish.ts";
import { DataError } from "@/lib/data/mod.ts";
import { openKv } from "@/lib/db/mod.ts";
import { ContentConflictError } from "@/lib/db/content.ts";
import { assertNoGuideCodeClashes } from "@/lib/passport/guide_codes.ts";

const USAGE =
  "Usage: deno task content:import [file.json]\n       deno task content:export [file.json]";

function fail(message: string, code = 2): never {
  console.error(message);
  Deno.exit(code);
}

const { positionals, values } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { "env-file": { type: "string" } },
});
const [command, file, ...extra] = positionals;
if (!["import", "export"].includes(command) || extra.length > 0) fail(USAGE);

let config;
try {
  if (values["env-file"]) await applyEnvFile(values["env-file"]);
  config = parseConfig(Deno.env.toObject());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  fail(error.message);
}
if (config.contentSource === "file") {
  fail(
    `CONTENT_SOURCE=file: ${config.tourismDataPath} is the content itself; there is nothing to ${command}.`,
  );
}
if (config.kvPath === ":memory:") {
  fail("KV_PATH is :memory:, so no running service would see this.");
}

const kv = await openKv(config.kvPath);
try {
  const now = () => new Date();
  const check = (next: Parameters<typeof assertNoGuideCodeClashes>[1]) =>
    assertNoGuideCodeClashes(kv, next, now());
  // Seeds a new KV from TOURISM_DATA first, as a start would.
  const content = await openContent(kv, {
    source: "kv",
    path: config.tourismDataPath,
    onDeploy: false,
    check,
    now,
    log: () => {},
  });
  try {
    if (command === "import") {
      const path = file ?? config.tourismDataPath;
      const text = await Deno.readTextFile(path).catch((error) =>
        fail(`${path}: cannot be read: ${error.message}`)
      );
      const outcome = await publishText(
        { kv, data: content.data, now, check },
        { text, source: "import", by: `import (${path})` },
      );
      if ("unchanged" in outcome) {
        console.log(
          `${path} is already the published content (version ${
            outcome.unchanged.digest.slice(0, 12)
          }).`,
        );
      } else {
        const { published } = outcome;
        console.log(
          `Published ${path} as version ${
            published.digest.slice(0, 12)
          } (${published.id}); every instance shows it within a second.`,
        );
        for (const line of published.changes) console.log(`  ${line}`);
      }
    } else {
      const published = await readPublishedText(kv);
      if (!published) fail("KV holds no content.", 1);
      if (file) {
        await Deno.writeTextFile(file, published.text);
        console.error(
          `Wrote version ${
            published.version.digest.slice(0, 12)
          } (published ${published.version.publishedAt} by ${published.version.by}) to ${file}.`,
        );
      } else {
        await Deno.stdout.write(new TextEncoder().encode(published.text));
      }
    }
  } finally {
    await content.close();
  }
} catch (error) {
  if (error instanceof ContentInvalidError) {
    fail(`Not published: ${error.problems.join("\n  ")}`, 1);
  }
  if (error instanceof ContentConflictError || error instanceof DataError) {
    fail(`Not published: ${error.message}`, 1);
  }
  throw error;
} finally {
  kv.close();
}

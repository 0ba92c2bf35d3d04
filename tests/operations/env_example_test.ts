/**
 * `.env.example` is what an operator copies: it names every variable the
 * config schema reads, and every value it sets is the code's own default,
 * so copying it changes nothing until a line is edited.
 */
import assert from "node:assert/strict";
import { ENV_NAMES, parseConfig } from "@/lib/config/config.ts";

const EXAMPLE = new URL("../../.env.example", import.meta.url);

/** `NAME=value` lines, set or commented out (`# NAME=value`). */
async function readExample(): Promise<
  { name: string; value: string; isSet: boolean }[]
> {
  const lines = (await Deno.readTextFile(EXAMPLE)).split("\n");
  return lines.flatMap((line) => {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    return match
      ? [{ name: match[2], value: match[3], isSet: match[1] === undefined }]
      : [];
  });
}

Deno.test(".env.example and the config schema", async (t) => {
  const example = await readExample();
  // Variables the platform sets rather than the operator, named for them.
  const platform = new Set(["DENO_KV_ACCESS_TOKEN"]);

  await t.step("names every variable the schema reads", () => {
    const named = new Set(example.map((line) => line.name));
    const missing = ENV_NAMES.filter((name) => !named.has(name));
    assert.deepEqual(missing, [], `.env.example lacks ${missing.join(", ")}`);
  });

  await t.step("names no variable the service does not read", () => {
    const known = new Set<string>([...ENV_NAMES, ...platform]);
    const unknown = example.filter((line) => !known.has(line.name));
    assert.deepEqual(unknown.map((line) => line.name), []);
  });

  await t.step("every value it sets is the code's default", () => {
    const defaults = parseConfig({});
    for (const { name, value } of example.filter((line) => line.isSet)) {
      assert.deepEqual(
        parseConfig({ [name]: value }),
        defaults,
        `${name}=${value} in .env.example is not the default`,
      );
    }
  });
});

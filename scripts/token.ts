/**
 * Prints a bearer token for a user id, signed with the service's own secret
 * from the configured KV: `deno task token [userId] [--hours N]`. Without a
 * user id, a new random one is used and printed to stderr.
 */
import { parseArgs } from "node:util";
import { signOwnToken } from "../lib/auth.ts";
import { parseConfig } from "../lib/config.ts";
import { openKv } from "../lib/db/kv.ts";
import { getOrCreateSigningSecret } from "../lib/db/secrets.ts";

const { positionals, values } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { hours: { type: "string", default: "24" } },
});
const userId = positionals[0] ?? crypto.randomUUID();
const hours = Number(values.hours);
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!uuid.test(userId) || !(hours > 0)) {
  console.error("Usage: deno task token [userId (a UUID)] [--hours N]");
  Deno.exit(2);
}

const config = parseConfig(Deno.env.toObject());
if (config.kvPath === ":memory:") {
  console.error(
    "KV_PATH is :memory:, so no running service would accept this token.",
  );
  Deno.exit(2);
}
const kv = await openKv(config.kvPath);
const secret = await getOrCreateSigningSecret(kv);
kv.close();
if (!positionals[0]) console.error(`userId: ${userId}`);
console.log(
  await signOwnToken(secret, userId, { expiresInSeconds: hours * 3600 }),
);

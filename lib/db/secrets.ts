import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

/**
 * Returns the service's own JWT signing secret, creating it on first use
 * (`created`: this KV had none, so it was empty or new). Several instances
 * starting at once agree on one secret: the first commit wins and the
 * others read it back.
 */
export async function getOrCreateSigningSecret(
  kv: Deno.Kv,
): Promise<{ secret: Uint8Array; created: boolean }> {
  const key = keys.signingSecret();
  for (let attempt = 0; attempt < 20; attempt++) {
    const existing = await kv.get<Uint8Array>(key);
    if (existing.value) return { secret: existing.value, created: false };
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const result = await commit(
      kv.atomic().check({ key, versionstamp: null }).set(key, secret),
    );
    if (result.ok) return { secret, created: true };
  }
  throw new Error("Could not create or read the signing secret");
}

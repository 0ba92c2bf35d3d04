import { keys } from "./keys.ts";

/** Opens Deno KV: a file, `:memory:`, or the platform's own KV when `path` is undefined. */
export async function openKv(path?: string): Promise<Deno.Kv> {
  if (path && path !== ":memory:") {
    const directory = path.slice(0, path.lastIndexOf("/"));
    if (directory) await Deno.mkdir(directory, { recursive: true });
  }
  return await Deno.openKv(path);
}

/** Returned by a transaction attempt whose commit lost a race. */
export const CONFLICT: unique symbol = Symbol("conflict");

/** Thrown when a transaction kept losing races past its bound. */
export class TransactionConflictError extends Error {
  override name = "TransactionConflictError";
}

/**
 * Commits `operation`, turning a thrown "database is locked" (several
 * processes on one KV file) into a lost race: a commit that threw was not
 * applied, so it is retried like a failed check.
 */
export async function commit(
  operation: Deno.AtomicOperation,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  try {
    return await operation.commit();
  } catch (error) {
    if (
      error instanceof TypeError && /database is locked/i.test(error.message)
    ) {
      return { ok: false };
    }
    throw error;
  }
}

/**
 * Runs `attempt` (read, check, write in one `kv.atomic()`) until it returns
 * anything but {@linkcode CONFLICT}, with jittered back-off, at most
 * `maxAttempts` times.
 */
export async function runTransaction<T>(
  attempt: () => Promise<T | typeof CONFLICT>,
  { maxAttempts = 100 }: { maxAttempts?: number } = {},
): Promise<T> {
  for (let i = 0; i < maxAttempts; i++) {
    const result = await attempt();
    if (result !== CONFLICT) return result;
    const ceiling = Math.min(50, 2 ** Math.min(i, 6));
    await new Promise((resolve) =>
      setTimeout(resolve, Math.random() * ceiling)
    );
  }
  throw new TransactionConflictError(
    `Transaction still conflicting after ${maxAttempts} attempts`,
  );
}

/** Throws when KV does not answer a read. */
export async function pingKv(kv: Deno.Kv): Promise<void> {
  await kv.get(keys.health());
}

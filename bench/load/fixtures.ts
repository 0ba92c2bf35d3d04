/**
 * The data the runs use: the KV files seeded before the services start, and
 * the files the Lua scripts read (users with their tokens, guide codes,
 * slugs, share codes never asked for), fresh ones where a run needs them.
 */
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { openKv } from "@/lib/db/kv.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import { seedRouteUser } from "../seed.ts";
import {
  COLD_CODES_PER_RUN,
  DATA_PATH,
  MEMORY_CARDS,
  RATE_USERS,
  ROUTE_CODE,
  VERIFY_USERS_PER_RUN,
} from "./config.ts";

export interface Fixtures {
  secret: Uint8Array;
  slugs: string[];
  codes: string[];
  rateUsers: string[];
  routeUser: string;
}

/** Share codes for the cold-card runs: one pool of new codes per run. */
export function makeColdPools(runs: number): string[][] {
  return Array.from(
    { length: runs },
    (_, r) =>
      Array.from(
        { length: COLD_CODES_PER_RUN },
        (_, i) => `cold${r}-${i}-${crypto.randomUUID().slice(0, 6)}`,
      ),
  );
}

/** Share codes of the tickets the memory phase makes. */
export function makeMemoryCodes(count = MEMORY_CARDS): string[] {
  return Array.from(
    { length: count },
    (_, i) => `mem-${i}-${crypto.randomUUID().slice(0, 6)}`,
  );
}

/**
 * Seeds a fresh KV file: the route page's ticket and visits, users to rate,
 * and a ticket per cold share code, saved straight into KV (no write goes
 * through the service, so none has a card drawn: asking for one renders it).
 */
export async function seed(
  kvPath: string,
  { coldCodes }: { coldCodes: string[] },
): Promise<Fixtures> {
  const loaded = await loadTourismData(DATA_PATH);
  const slugs = loaded.data.attractions.map((a) => a.slug);
  const codeBySlug = new Map(
    [...loaded.slugByGuideCode].map(([code, slug]) => [slug, code]),
  );
  const kv = await openKv(kvPath);
  try {
    const { secret } = await getOrCreateSigningSecret(kv);
    const now = new Date();
    const totalAttractions = loaded.totalAttractions;
    const routeUser = await seedRouteUser(kv, slugs, { now, totalAttractions });
    const ticket = (shareCode: string, name: string, wpId: number) =>
      saveTicket(kv, {
        shareCode,
        name,
        email: `${shareCode}@ejemplo.mx`,
        phone: null,
        wpId,
        userId: routeUser,
        createdAt: now.toISOString(),
      });
    await ticket(ROUTE_CODE, "María José Ñúñez", 1);
    for (const [i, code] of coldCodes.entries()) {
      await ticket(code, `Viajera ${i}`, 100 + i);
    }
    const rateUsers = Array.from(
      { length: RATE_USERS },
      () => crypto.randomUUID(),
    );
    await Promise.all(rateUsers.map(async (userId) => {
      for (const slug of slugs) {
        await recordVisit(kv, { userId, slug, now, totalAttractions });
      }
    }));
    return {
      secret,
      slugs,
      codes: slugs.map((slug) => codeBySlug.get(slug)!),
      rateUsers,
      routeUser,
    };
  } finally {
    kv.close();
  }
}

/** Writes `<id> <own token>` lines, as verify.lua and rate.lua read them. */
export async function writeUsersFile(
  path: string,
  secret: Uint8Array,
  users: string[],
): Promise<void> {
  const lines = await Promise.all(
    users.map(async (id) =>
      `${id} ${await signOwnToken(secret, id, { expiresInSeconds: 7200 })}`
    ),
  );
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
}

/** The files in the run's temp dir the Lua scripts and direct runs use. */
export class RunFiles {
  readonly codesFile: string;
  readonly slugsFile: string;
  #usersFiles = 0;
  #coldRun = 0;
  #directKv = 0;

  constructor(readonly dir: string, readonly coldPools: string[][]) {
    this.codesFile = `${dir}/codes.txt`;
    this.slugsFile = `${dir}/slugs.txt`;
  }

  /** Writes the guide codes, the slugs and `service`'s users to rate. */
  async writeShared(fixtures: Fixtures, service: { name: string }) {
    await Deno.writeTextFile(this.codesFile, fixtures.codes.join("\n") + "\n");
    await Deno.writeTextFile(this.slugsFile, fixtures.slugs.join("\n") + "\n");
    await writeUsersFile(
      this.rateUsersFile(service),
      fixtures.secret,
      fixtures.rateUsers,
    );
  }

  /** The users to rate on a service (written for the main service only). */
  rateUsersFile(service: { name: string }): string {
    return `${this.dir}/rate-users-${service.name}.txt`;
  }

  /** A new file of users never seen, with tokens signed by `secret`. */
  async verifyUsersFile(secret: Uint8Array): Promise<string> {
    const file = `${this.dir}/users-${this.#usersFiles++}.txt`;
    const ids = Array.from(
      { length: VERIFY_USERS_PER_RUN },
      () => crypto.randomUUID(),
    );
    await writeUsersFile(file, secret, ids);
    return file;
  }

  /** The next cold pool's share codes, written to a file. */
  async coldCodesFile(): Promise<string> {
    const file = `${this.dir}/cold-${this.#coldRun}.txt`;
    await Deno.writeTextFile(
      file,
      this.coldPools[this.#coldRun++].join("\n") + "\n",
    );
    return file;
  }

  /** A path for a new KV file (a direct run's). */
  freshKv(): string {
    return `${this.dir}/direct-${this.#directKv++}.kv`;
  }
}

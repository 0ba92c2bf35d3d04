/**
 * Prints a single-use sign-in link to the staff console, valid 15 minutes:
 * `deno task staff-link <email> [--role admin|editor|viewer] [--base-url URL]`
 * (role `viewer` unless told). With `STAFF` set, only for someone it lists,
 * with the role it gives them (STAFF is checked again on every request).
 * `deno task staff-link <email> --revoke` ends every session of that
 * person at once (audited). The way in on the embedded defaults (no
 * identity provider); whoever can run it can read the service's KV anyway.
 * Reads `.env` like `deno task start`, so it writes to the same KV; the link
 * goes to `--base-url`, else `BASE_URL`, else `http://<LISTEN_HOST>:<PORT>`.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { applyEnvFile, ConfigError, parseConfig } from "@/lib/config/mod.ts";
import {
  KvStartError,
  moveLegacyKvFile,
  openKv,
  removeStaffMemberSessions,
} from "@/lib/db/mod.ts";
import { createStaffSignInLink } from "@/lib/staff/mod.ts";
import { STAFF_ROLES, type StaffRole } from "@/lib/types/mod.ts";

const USAGE =
  "Usage: deno task staff-link <email> [--role admin|editor|viewer] [--base-url https://turismo.example.gob.mx]\n       deno task staff-link <email> --revoke";

function fail(message: string): never {
  console.error(message);
  Deno.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      role: { type: "string" },
      revoke: { type: "boolean", default: false },
      "base-url": { type: "string" },
      "env-file": { type: "string" },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const { positionals, values } = parsed;
const email = positionals[0]?.trim().toLowerCase() ?? "";
if (positionals.length !== 1 || !z.email().safeParse(email).success) {
  fail(`Give one e-mail address.\n${USAGE}`);
}
const role = (values.role ?? "viewer") as StaffRole;
if (!STAFF_ROLES.includes(role)) {
  fail(`--role must be admin, editor or viewer.\n${USAGE}`);
}
if (values.revoke && values.role !== undefined) {
  fail(`--revoke takes no --role.\n${USAGE}`);
}

let config;
try {
  if (values["env-file"]) await applyEnvFile(values["env-file"]);
  config = parseConfig(Deno.env.toObject());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  fail(error.message);
}
const listed = config.staff.find((entry) => entry.email === email);
if (!values.revoke && config.staff.length > 0) {
  if (!listed) {
    fail(
      `STAFF is set and does not list ${email}: add it there first (STAFF is checked on every request, so a link for someone it does not list would not work).`,
    );
  }
  if (values.role !== undefined && listed.role !== role) {
    fail(`STAFF gives ${email} the role ${listed.role}; change it there.`);
  }
}
if (config.kvPath === ":memory:") {
  fail("KV_PATH is :memory:, so no running service would accept this link.");
}
const host = config.hostname.includes(":")
  ? `[${config.hostname}]`
  : config.hostname;
const baseUrl = values["base-url"] ?? config.baseUrl ??
  `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${config.port}`;
if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
  fail(`--base-url must be an http or https URL.\n${USAGE}`);
}
try {
  if (config.legacyKvPath && config.kvPath) {
    await moveLegacyKvFile(config.legacyKvPath, config.kvPath);
  }
} catch (error) {
  if (!(error instanceof KvStartError)) throw error;
  fail(error.message);
}
const kv = await openKv(config.kvPath);
try {
  if (values.revoke) {
    const ended = await removeStaffMemberSessions(kv, {
      staffId: email,
      now: new Date(),
    });
    console.log(
      `Ended ${ended} staff session(s) of ${email}.${
        listed ? " Remove them from STAFF too, or they can sign in again." : ""
      }`,
    );
  } else {
    const { url } = await createStaffSignInLink(kv, {
      email,
      role: listed?.role ?? role,
      baseUrl,
      now: new Date(),
    });
    console.log(
      `Staff sign-in link for ${email} (${
        listed?.role ?? role
      }), single use, valid 15 minutes: ${url}`,
    );
    const unanswered = await checkServiceAnswers(baseUrl);
    if (unanswered) console.error(unanswered);
  }
} finally {
  kv.close();
}

/**
 * Why the link may not open the running service, or "" when a portal
 * answers at `baseUrl`. Only a loopback address is tried (a public
 * `BASE_URL` is the operator's word): a service started with another
 * `PORT` than this task read is the usual reason.
 */
async function checkServiceAnswers(baseUrl: string): Promise<string> {
  const { hostname } = new URL(baseUrl);
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(hostname)) return "";
  try {
    const res = await fetch(new URL("/healthz", baseUrl), {
      signal: AbortSignal.timeout(2000),
    });
    const body = await res.json().catch(() => null);
    if (res.ok && /^(ok|degraded)$/.test(body?.status)) return "";
  } catch {
    // Nothing listens there, or it did not answer in time: said below.
  }
  return `No portal answers at ${baseUrl} now. If the service runs on another port, give this task the same PORT (PORT=8080 deno task staff-link ...) or --base-url; the link works once it opens the service on the same KV.`;
}

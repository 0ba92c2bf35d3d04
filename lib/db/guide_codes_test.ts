import assert from "node:assert/strict";
import { MAX_CHECK_IN_AGE_MS } from "@/lib/check_in/names.ts";
import { saveGuideCode } from "./guide_codes.ts";
import { keys } from "./keys.ts";

/** A KV whose atomic writes' `expireIn`, by key, are recorded. */
function recordExpiries(kv: Deno.Kv) {
  const expiries = new Map<string, number | undefined>();
  const proxy = new Proxy(kv, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (name !== "atomic") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const operation = target.atomic();
        const set = operation.set.bind(operation);
        operation.set = (key, v, options) => {
          expiries.set(JSON.stringify(key), options?.expireIn);
          set(key, v, options);
          return operation;
        };
        return operation;
      };
    },
  });
  return { kv: proxy, expiries };
}

Deno.test("saveGuideCode keeps a grace code's index entry long enough for a check-in synced 72 hours late", async () => {
  using kv = await Deno.openKv(":memory:");
  const spy = recordExpiries(kv);
  const graceMs = 7 * 24 * 3_600_000;
  const result = await saveGuideCode(spy.kv, {
    slug: "plaza-principal",
    current: "PLZ4KA",
    code: "NEW7CODE",
    graceMs,
    staff: {
      id: "ana@municipio.gob.mx",
      email: "ana@municipio.gob.mx",
      role: "admin",
    },
    now: new Date("2026-11-20T18:00:00Z"),
    auditTarget: "plaza-principal",
  });
  assert.equal(result.status, "saved");
  const expireIn = spy.expiries.get(
    JSON.stringify(keys.guideCodeByCode("PLZ4KA")),
  );
  assert.ok(expireIn !== undefined, "the grace code's index entry expires");
  assert.ok(
    expireIn >= graceMs + MAX_CHECK_IN_AGE_MS,
    `${expireIn} < grace + 72 h`,
  );
});

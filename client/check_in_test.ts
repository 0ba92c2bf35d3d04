import assert from "node:assert/strict";
import { sayBadgeName, submitCheckIn } from "./check_in.ts";
import { createTranslate } from "./messages.ts";
import type { ApiResult, JsonBody } from "./session_client.ts";
import { getIslandMessages } from "@/lib/i18n/island_messages.ts";

/** A check-in island's `t` in a language, from the real catalogue. */
function translate(lang: string) {
  const { messages, locale } = getIslandMessages(lang, "checkin", {
    shared: ["session", "rating", "badges"],
  });
  return createTranslate(messages, locale);
}

/** An API that answers `result` (or throws it) and records what was sent. */
function answering(result: ApiResult | Error) {
  const sent: { path: string; body: JsonBody }[] = [];
  return {
    sent,
    post(path: string, body: (userId: string) => JsonBody) {
      sent.push({ path, body: body("u-1") });
      return result instanceof Error
        ? Promise.reject(result)
        : Promise.resolve(result);
    },
  };
}

Deno.test("submitCheckIn", async (t) => {
  const t_es = translate("es");

  await t.step("an empty code is not sent, and says so", async () => {
    const api = answering({ status: 200, body: {} });
    let sending = 0;
    const result = await submitCheckIn(api, {
      code: "  ",
      t: t_es,
      onSending: () => sending++,
    });
    assert.deepEqual(result, {
      kind: "error",
      text: t_es("session.emptyCode"),
      isEmpty: true,
    });
    assert.deepEqual(api.sent, []);
    assert.equal(sending, 0);
  });

  await t.step(
    "the code goes normalised as the session's user; a 200 is the visit and its badge",
    async () => {
      const badge = { id: "explorador", name: "Explorador", icon: "🧭" };
      const api = answering({
        status: 200,
        body: { visitId: "v-1", atractivo: "plaza-principal", badge },
      });
      const result = await submitCheckIn(api, { code: " ab 12c ", t: t_es });
      assert.deepEqual(api.sent, [{
        path: "/api/turismo/verify-visit",
        body: { code: "AB12C", userId: "u-1" },
      }]);
      assert.deepEqual(result, {
        kind: "ok",
        visitId: "v-1",
        slug: "plaza-principal",
        badge,
      });
    },
  );

  await t.step("a 409 is the first visit, with its message", async () => {
    const api = answering({
      status: 409,
      body: { visitId: "v-0", atractivo: "plaza-principal" },
    });
    assert.deepEqual(await submitCheckIn(api, { code: "X", t: t_es }), {
      kind: "already",
      visitId: "v-0",
      slug: "plaza-principal",
      text: t_es("session.verifyAlready"),
    });
  });

  await t.step(
    "a wrong code, a lockout and no network are errors",
    async () => {
      const cases: [ApiResult | Error, string][] = [
        [
          { status: 404, body: { remainingAttempts: 3 } },
          t_es("session.verifyNotFoundAttempts", { left: 3 }),
        ],
        [
          { status: 429, body: {}, retryAfter: 120 },
          t_es("session.verifyTooMany", { minutes: 2 }),
        ],
        [new TypeError("Failed to fetch"), t_es("session.offline")],
      ];
      for (const [answer, text] of cases) {
        assert.deepEqual(
          await submitCheckIn(answering(answer), { code: "X", t: t_es }),
          { kind: "error", text },
        );
      }
    },
  );
});

Deno.test("sayBadgeName: the catalogue's name by id, else the API's", () => {
  const badge = { id: "leyenda", name: "Leyenda", icon: "👑" };
  assert.equal(sayBadgeName(translate("en"), badge), "Legend");
  assert.equal(sayBadgeName(translate("es"), badge), "Leyenda");
  assert.equal(
    sayBadgeName(translate("en"), { id: "retirada", name: "Retirada" }),
    "Retirada",
  );
});

import assert from "node:assert/strict";
import {
  describeQueuedCheckIn,
  findLatestCheckIn,
  findPageStamp,
  formatMetres,
  sayBadgeName,
  submitCheckIn,
} from "./check_in.ts";
import type { QueuedCheckIn } from "./check_in_queue.ts";
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

/** A queued check-in made on `slug`'s page, with `fields` over it. */
function queued(
  slug: string | null,
  fields: Partial<QueuedCheckIn> = {},
): QueuedCheckIn {
  return {
    checkInId: crypto.randomUUID(),
    slug,
    code: "AB12",
    claimedAt: "2026-11-20T18:00:00.000Z",
    status: "pending",
    ...fields,
  };
}

Deno.test("describeQueuedCheckIn: what a queued check-in came to, in the page's language", async (t) => {
  const t_es = translate("es");
  const t_en = translate("en");
  const say = (item: QueuedCheckIn, lang = "es") =>
    describeQueuedCheckIn(item, {
      t: lang === "es" ? t_es : t_en,
      locale: lang === "es" ? "es-MX" : "en-US",
      name: "Plaza Principal",
    });

  await t.step("pending, and a recorded visit with its badge", () => {
    assert.deepEqual(say(queued("plaza")), { kind: "pending" });
    const badge = { id: "explorador", name: "Explorador", icon: "🧭" };
    assert.deepEqual(
      say(queued("plaza", {
        status: "verified",
        visitId: "v-1",
        atractivo: "la-rojena",
        badge,
      })),
      { kind: "ok", visitId: "v-1", slug: "la-rojena", badge },
    );
  });

  await t.step("put off by the server: pending, and why", () => {
    assert.deepEqual(
      say(queued("plaza", { deferred: { status: 429, retryAfter: 290 } })),
      {
        kind: "pending",
        text:
          "Demasiados códigos incorrectos seguidos. Guardamos este código y lo enviaremos en 5 minutos.",
      },
    );
    assert.deepEqual(say(queued("plaza", { deferred: { status: 503 } })), {
      kind: "pending",
      text: t_es("pendingServer"),
    });
  });

  await t.step("already stamped: the first visit, at its attraction", () => {
    assert.deepEqual(
      say(queued("plaza", {
        status: "rejected",
        refusal: { status: 409, reason: "already_visited" },
        visitId: "v-0",
        atractivo: "plaza",
      })),
      { kind: "already", visitId: "v-0", slug: "plaza" },
    );
  });

  await t.step(
    "refusals are worded from their reason, in the page's language, not the server's words",
    () => {
      const refused = (refusal: QueuedCheckIn["refusal"]) =>
        queued("plaza", {
          status: "rejected",
          refusal,
          message: "del servidor",
        });
      assert.deepEqual(
        say(refused({ status: 404, remainingAttempts: 9 })),
        {
          kind: "error",
          text:
            "Ese código no corresponde a ningún atractivo. Revísalo e inténtalo de nuevo. Te quedan 9 intentos.",
        },
      );
      assert.deepEqual(
        say(refused({
          status: 422,
          reason: "outside_radius",
          distanceM: 812,
          radiusM: 150,
        })),
        {
          kind: "error",
          text:
            "Estás a 812 m de Plaza Principal. Para registrar tu sello tienes que estar a menos de 150 m.",
        },
      );
      assert.deepEqual(
        say(
          refused({
            status: 422,
            reason: "outside_radius",
            distanceM: 2450,
            radiusM: 150,
          }),
          "en",
        ),
        {
          kind: "error",
          text:
            "You're 2.5 km from Plaza Principal. To get your stamp you need to be within 150 m.",
        },
      );
      for (
        const [reason, key] of [
          ["claimed_too_old", "refusedClaimedTooOld"],
          ["claimed_in_future", "refusedClaimedInFuture"],
          ["code_not_accepted", "refusedCodeNotAccepted"],
          ["position_not_accepted", "refusedPositionNotAccepted"],
          ["accuracy_missing", "refusedAccuracy"],
          ["accuracy_too_poor", "refusedAccuracy"],
          ["too_fast", "refusedTooFast"],
          ["id_reused", "refusedIdReused"],
        ]
      ) {
        const said = say(refused({ status: 422, reason }));
        assert.deepEqual(said, { kind: "error", text: t_es(key) }, reason);
        assert.notEqual(t_es(key), key, `${key} is in the catalogue`);
      }
      assert.deepEqual(say(refused({ status: 400 })), {
        kind: "error",
        text: t_es("session.verifyBadRequest"),
      });
    },
  );

  await t.step("an unknown refusal keeps the server's words", () => {
    assert.deepEqual(
      say(queued("plaza", {
        status: "rejected",
        refusal: { status: 403 },
        message: "userId no coincide",
      })),
      { kind: "error", text: "userId no coincide" },
    );
    assert.deepEqual(
      say(queued("plaza", { status: "rejected", refusal: { status: 418 } })),
      { kind: "error", text: t_es("session.verifyFailed") },
    );
  });
});

Deno.test("findLatestCheckIn: the check-in an attraction's page reports on", async (t) => {
  const now = new Date("2026-11-20T20:00:00.000Z");
  const answered = (hoursAgo: number) =>
    new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();

  await t.step("the one just made, whatever it came to", () => {
    const mine = queued("plaza", {
      status: "verified",
      atractivo: "plaza",
      visitId: "v",
      resolvedAt: answered(0),
    });
    const queue = [mine, queued("plaza")];
    assert.equal(
      findLatestCheckIn("plaza", queue, { currentId: mine.checkInId, now }),
      mine,
    );
  });

  await t.step(
    "on a later load: a pending one, or news of the last day the stamp does not tell",
    () => {
      const stampedHere = queued("plaza", {
        status: "verified",
        atractivo: "plaza",
        visitId: "v",
        resolvedAt: answered(1),
      });
      const wrong = queued("plaza", {
        status: "rejected",
        refusal: { status: 404 },
        resolvedAt: answered(2),
      });
      const elsewhere = queued("plaza", {
        status: "verified",
        atractivo: "la-rojena",
        visitId: "w",
        resolvedAt: answered(30),
      });
      const otherPage = queued("museo");
      const find = (queue: QueuedCheckIn[]) =>
        findLatestCheckIn("plaza", queue, { currentId: null, now });
      assert.equal(find([wrong, stampedHere, otherPage]), wrong);
      assert.equal(find([stampedHere]), null, "the stamp says it");
      assert.equal(find([elsewhere]), null, "old news");
      const pending = queued("plaza", { claimedAt: answered(48) });
      assert.equal(find([wrong, pending]), pending);
    },
  );
});

Deno.test("findPageStamp: this attraction's stamp from the device's stamps", () => {
  const stamps = new Map([
    ["plaza", {
      slug: "plaza",
      status: "verified" as const,
      visitId: "v-1",
      rating: 4,
      notes: "Bonita",
      at: "2026-11-20T18:00:00.000Z",
    }],
    ["museo", {
      slug: "museo",
      status: "pending" as const,
      at: "2026-11-20T19:00:00.000Z",
    }],
  ]);
  assert.deepEqual(findPageStamp("plaza", stamps), {
    status: "verified",
    at: "2026-11-20T18:00:00.000Z",
    visitId: "v-1",
    rating: 4,
    notes: "Bonita",
  });
  assert.deepEqual(findPageStamp("museo", stamps), {
    status: "pending",
    at: "2026-11-20T19:00:00.000Z",
    visitId: undefined,
    rating: null,
    notes: null,
  });
  assert.equal(findPageStamp("barranca", stamps), null);
});

Deno.test("formatMetres: metres under a kilometre, else kilometres", () => {
  assert.equal(formatMetres(812.4, "es-MX"), "812 m");
  assert.equal(formatMetres(2450, "es-MX"), "2.5 km");
  assert.equal(formatMetres(12_000, "en-US"), "12 km");
});

import assert from "node:assert/strict";
import {
  describeQueuedCheckIn,
  findLatestCheckIn,
  findPageStamp,
  formatMetres,
  sayBadgeName,
} from "./check_in.ts";
import { REFUSAL_REASONS, REFUSAL_WORDS } from "@/lib/check_in/names.ts";
import type { QueuedCheckIn } from "./check_in_queue.ts";
import { createTranslate } from "./messages.ts";
import { getIslandMessages } from "@/lib/i18n/island_messages.ts";

/** A check-in island's `t` in a language, from the real catalogue. */
function translate(lang: string) {
  const { messages, locale } = getIslandMessages(lang, "checkin", {
    shared: ["session", "rating", "badges"],
  });
  return createTranslate(messages, locale);
}

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

  await t.step(
    "every refusal reason of lib/check_in/names.ts has its words in both languages",
    () => {
      for (const lang of ["es", "en"]) {
        const { messages } = getIslandMessages(lang, "checkin");
        for (const reason of REFUSAL_REASONS) {
          const key = REFUSAL_WORDS[reason].checkin;
          assert.ok(Object.hasOwn(messages, key), `${lang} ${reason}: ${key}`);
        }
        assert.ok(Object.hasOwn(messages, "refusedCodeElsewhere"), lang);
      }
    },
  );

  await t.step(
    "a code of another place refused by its rule names that place; of this one, says why",
    () => {
      const refused = queued("plaza", {
        status: "rejected",
        refusal: {
          status: 422,
          reason: "code_not_accepted",
          atractivo: "la-rojena",
        },
        atractivo: "la-rojena",
      });
      assert.deepEqual(say(refused), {
        kind: "refusedElsewhere",
        slug: "la-rojena",
        key: "refusedCodeElsewhere",
      });
      // The passport has no page: every refused code is of "another place".
      assert.equal(
        describeQueuedCheckIn(refused, {
          t: t_es,
          locale: "es-MX",
          name: "",
          slug: null,
        }).kind,
        "refusedElsewhere",
      );
      assert.deepEqual(
        say(queued("plaza", {
          status: "rejected",
          refusal: {
            status: 422,
            reason: "code_not_accepted",
            atractivo: "plaza",
          },
        })),
        { kind: "error", text: t_es("refusedCodeNotAccepted") },
      );
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

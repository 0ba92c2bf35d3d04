import assert from "node:assert/strict";
import type { QueuedCheckIn } from "./check_in_queue.ts";
import type { DeviceStamp } from "./device_passport.ts";
import {
  findQueuedCodes,
  findQueuedVisits,
  getStampState,
  toDeviceStamp,
} from "./use_device_passport.ts";

const NOW = new Date("2026-11-27T20:00:00Z");

function queued(overrides: Partial<QueuedCheckIn>): QueuedCheckIn {
  return {
    checkInId: crypto.randomUUID(),
    slug: null,
    code: "ABC123",
    claimedAt: "2026-11-27T18:00:00.000Z",
    status: "pending",
    ...overrides,
  };
}

Deno.test("the passport page's view of the device", async (t) => {
  await t.step("a visit becomes a verified stamp with its rating", () => {
    assert.deepEqual(
      toDeviceStamp({
        visitId: "v1",
        slug: "la-rojena",
        rating: 4,
        notes: "Rica",
        visitedAt: "2026-11-20T10:00:00.000Z",
      }),
      {
        slug: "la-rojena",
        status: "verified",
        visitId: "v1",
        rating: 4,
        notes: "Rica",
        at: "2026-11-20T10:00:00.000Z",
      },
    );
  });

  await t.step(
    "the queue's verified check-ins not listed yet, once per attraction",
    () => {
      const queue = [
        queued({ status: "verified", atractivo: "parroquia", visitId: "v1" }),
        queued({ status: "verified", atractivo: "la-rojena", visitId: "v2" }),
        queued({ status: "verified", atractivo: "la-rojena", visitId: "v2" }),
        queued({ status: "pending", slug: "volcan" }),
        queued({ status: "rejected", atractivo: "museo" }),
      ];
      const found = findQueuedVisits(queue, new Set(["parroquia"]));
      assert.deepEqual(found.map((item) => item.atractivo), ["la-rojena"]);
    },
  );

  await t.step(
    "a stamp is collected when visited or verified on the device, pending when queued, else missing",
    () => {
      const device = new Map<string, DeviceStamp>([
        ["parroquia", { slug: "parroquia", status: "verified", at: "" }],
        ["volcan", { slug: "volcan", status: "pending", at: "" }],
      ]);
      const visited = new Set(["la-rojena"]);
      const state = (slug: string) => getStampState(slug, { visited, device });
      assert.equal(state("la-rojena"), "collected");
      assert.equal(state("parroquia"), "collected");
      assert.equal(state("volcan"), "pending");
      assert.equal(state("museo"), "missing");
    },
  );

  await t.step(
    "codes typed on the passport: waiting ones, and ones refused in the last day but the one reported",
    () => {
      const waiting = queued({});
      const reported = queued({ status: "rejected" });
      const refused = queued({
        status: "rejected",
        resolvedAt: "2026-11-27T12:00:00.000Z",
      });
      const old = queued({
        status: "rejected",
        resolvedAt: "2026-11-25T12:00:00.000Z",
      });
      const atPage = queued({ slug: "volcan" });
      const codes = findQueuedCodes(
        [waiting, reported, refused, old, atPage],
        { now: NOW, except: reported.checkInId },
      );
      assert.deepEqual(codes.waiting, [waiting]);
      assert.deepEqual(codes.refused, [refused]);
    },
  );
});

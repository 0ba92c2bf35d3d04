import "fake-indexeddb/auto";
import assert from "node:assert/strict";
import {
  clearDevicePassport,
  type DeviceStamp,
  PASSPORT_CHANNEL,
  readDeviceStamps,
  saveDeviceStamps,
  watchDeviceStamps,
} from "./device_passport.ts";
import { clearCheckInQueue, enqueueCheckIn } from "./check_in_queue.ts";

function verified(slug: string, extra: Partial<DeviceStamp> = {}): DeviceStamp {
  return {
    slug,
    status: "verified",
    visitId: crypto.randomUUID(),
    rating: null,
    notes: null,
    at: "2026-11-20T18:00:00.000Z",
    ...extra,
  };
}

/** The next message on the passport's channel. */
function nextMessage(): Promise<unknown> {
  const channel = new BroadcastChannel(PASSPORT_CHANNEL);
  return new Promise((resolve) => {
    channel.onmessage = (event) => {
      channel.close();
      resolve(event.data);
    };
  });
}

Deno.test("the device's passport", async (t) => {
  await t.step("a new device knows no stamps", async () => {
    assert.deepEqual([...(await readDeviceStamps()).keys()], []);
  });

  await t.step(
    "saved stamps are read back by slug, with rating, notes and date",
    async () => {
      const museo = verified("museo-nacional-del-tequila", {
        rating: 4,
        notes: "Muy bonito",
      });
      await saveDeviceStamps([museo, verified("la-rojena")], {
        replace: true,
      });
      const stamps = await readDeviceStamps();
      assert.deepEqual([...stamps.keys()].sort(), [
        "la-rojena",
        "museo-nacional-del-tequila",
      ]);
      assert.deepEqual(stamps.get("museo-nacional-del-tequila"), museo);
    },
  );

  await t.step(
    "without replace a stamp is added; with replace the list is the server's whole list",
    async () => {
      await saveDeviceStamps([verified("parroquia")], { replace: false });
      assert.equal((await readDeviceStamps()).size, 3);
      await saveDeviceStamps([verified("parroquia", { rating: 5 })], {
        replace: true,
      });
      const stamps = await readDeviceStamps();
      assert.deepEqual([...stamps.keys()], ["parroquia"]);
      assert.equal(stamps.get("parroquia")?.rating, 5);
    },
  );

  await t.step("a pending stamp given to save is not stored", async () => {
    await saveDeviceStamps([
      { slug: "volcan", status: "pending", at: new Date().toISOString() },
    ], { replace: false });
    assert.equal((await readDeviceStamps()).has("volcan"), false);
  });

  await t.step(
    'a save and a clear are announced on BroadcastChannel("pasaporte")',
    async () => {
      const saved = nextMessage();
      await saveDeviceStamps([verified("volcan")], { replace: false });
      assert.deepEqual(await saved, { type: "passport" });
      const cleared = nextMessage();
      await clearDevicePassport();
      assert.deepEqual(await cleared, { type: "passport" });
      assert.equal((await readDeviceStamps()).size, 0);
    },
  );

  await t.step(
    "a watcher gets the stamps now and again after a save elsewhere",
    async () => {
      const seen: string[][] = [];
      const calls = [
        Promise.withResolvers<void>(),
        Promise.withResolvers<void>(),
      ];
      const stop = watchDeviceStamps((stamps) => {
        seen.push([...stamps.keys()]);
        calls[seen.length - 1]?.resolve();
      });
      await calls[0].promise;
      await saveDeviceStamps([verified("parroquia")], { replace: true });
      await calls[1].promise;
      stop();
      assert.deepEqual(seen, [[], ["parroquia"]]);
      await clearDevicePassport();
    },
  );

  await t.step(
    "a check-in queued at an attraction is read as pending; a saved stamp wins over it",
    async () => {
      await enqueueCheckIn({ slug: "la-rojena", code: "ABC123" });
      // A code typed on the passport page names no attraction yet.
      await enqueueCheckIn({ slug: null, code: "XYZ789" });
      let stamps = await readDeviceStamps();
      assert.deepEqual([...stamps.keys()], ["la-rojena"]);
      assert.equal(stamps.get("la-rojena")?.status, "pending");
      await saveDeviceStamps([verified("la-rojena")], { replace: false });
      stamps = await readDeviceStamps();
      assert.equal(stamps.get("la-rojena")?.status, "verified");
      await clearCheckInQueue();
      await clearDevicePassport();
    },
  );

  await t.step(
    "an older rendering of the passport never replaces a newer one",
    async () => {
      await saveDeviceStamps([verified("plaza"), verified("museo")], {
        replace: true,
        asOf: "2026-11-20T18:05:00.000Z",
      });
      // The service worker answered from its cache: the list of an hour before.
      await saveDeviceStamps([verified("plaza")], {
        replace: true,
        asOf: "2026-11-20T17:05:00.000Z",
      });
      assert.deepEqual([...(await readDeviceStamps()).keys()].sort(), [
        "museo",
        "plaza",
      ]);
      await saveDeviceStamps([verified("plaza")], {
        replace: true,
        asOf: "2026-11-20T18:10:00.000Z",
      });
      assert.deepEqual([...(await readDeviceStamps()).keys()], ["plaza"]);
      await clearDevicePassport();
      // After a clear, any list is the newest.
      await saveDeviceStamps([verified("museo")], {
        replace: true,
        asOf: "2026-11-20T17:00:00.000Z",
      });
      assert.deepEqual([...(await readDeviceStamps()).keys()], ["museo"]);
      await clearDevicePassport();
    },
  );
});

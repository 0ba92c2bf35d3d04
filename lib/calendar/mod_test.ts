import assert from "node:assert/strict";
import {
  addDays,
  addMonths,
  getDayNumber,
  getLocalClockTime,
  getLocalDate,
  getLocalDayNumber,
  getLocalInstantMs,
  getLocalIsoDateTime,
  getLocalMidnightMs,
  getLocalTime,
  getLocalWallClock,
  getNextDay,
  getWeekday,
  isClockTime,
  isDay,
  listDays,
} from "./mod.ts";

// Mexico City has kept UTC-6 all year since daylight saving ended in 2022.
const TZ = "America/Mexico_City";

Deno.test("calendar", async (t) => {
  await t.step(
    "local day, month and hour: Mexico City is UTC-6 in summer and winter",
    () => {
      assert.deepEqual(getLocalTime("2026-07-01T05:59:59Z", TZ), {
        day: "2026-06-30",
        month: "2026-06",
        hour: 23,
      });
      assert.deepEqual(getLocalTime(new Date("2026-07-01T06:00:00Z"), TZ), {
        day: "2026-07-01",
        month: "2026-07",
        hour: 0,
      });
      assert.deepEqual(getLocalTime("2027-01-01T05:00:00Z", TZ), {
        day: "2026-12-31",
        month: "2026-12",
        hour: 23,
      });
      // The old first Sunday of April (DST until 2022) is an ordinary day now.
      assert.equal(getLocalTime("2026-04-05T08:30:00Z", TZ).hour, 2);
      assert.equal(
        getLocalTime("2026-11-23T05:59:00Z", "UTC").day,
        "2026-11-23",
      );
    },
  );

  await t.step(
    "getLocalDate and getLocalDayNumber change at local midnight",
    () => {
      assert.equal(
        getLocalDate(new Date("2026-11-23T05:59:00Z"), TZ),
        "2026-11-22",
      );
      assert.equal(
        getLocalDate(new Date("2026-11-23T06:00:00Z"), TZ),
        "2026-11-23",
      );
      assert.equal(
        getLocalDayNumber(new Date("1970-01-01T12:00:00Z"), "UTC"),
        0,
      );
      assert.equal(
        getLocalDayNumber(new Date("2026-11-23T06:00:00Z"), TZ) -
          getLocalDayNumber(new Date("2026-11-23T05:59:59Z"), TZ),
        1,
      );
      assert.equal(getDayNumber("2026-11-22"), 20_779);
    },
  );

  await t.step("addDays crosses month ends, year ends and leap days", () => {
    assert.equal(addDays("2026-01-31", 1), "2026-02-01");
    assert.equal(addDays("2026-02-28", 1), "2026-03-01");
    assert.equal(addDays("2028-02-28", 1), "2028-02-29");
    assert.equal(addDays("2028-03-01", -1), "2028-02-29");
    assert.equal(addDays("2026-12-31", 1), "2027-01-01");
    assert.equal(addDays("2026-11-22", -29), "2026-10-24");
    assert.equal(getNextDay("2100-02-28"), "2100-03-01"); // not a leap year
  });

  await t.step("addMonths crosses year ends both ways", () => {
    assert.equal(addMonths("2026-12", 1), "2027-01");
    assert.equal(addMonths("2027-01", -1), "2026-12");
    assert.equal(addMonths("2026-03", 12), "2027-03");
  });

  await t.step(
    "listDays lists both ends; getWeekday counts from Monday",
    () => {
      assert.deepEqual(listDays("2028-02-27", "2028-03-01"), [
        "2028-02-27",
        "2028-02-28",
        "2028-02-29",
        "2028-03-01",
      ]);
      assert.deepEqual(listDays("2026-11-23", "2026-11-22"), []);
      assert.equal(getWeekday("2026-11-23"), 0); // a Monday
      assert.equal(getWeekday("2026-11-22"), 6); // a Sunday
    },
  );

  await t.step("isDay accepts only real days written YYYY-MM-DD", () => {
    assert.ok(isDay("2028-02-29"));
    assert.ok(!isDay("2026-02-29"));
    assert.ok(!isDay("2026-04-31"));
    assert.ok(!isDay("2026-4-01"));
    assert.ok(!isDay("2026-11-22T00:00"));
  });

  await t.step("the local clock time: hour and minute, 24 hours", () => {
    assert.equal(getLocalClockTime("2026-07-01T05:59:59Z", TZ), "23:59");
    assert.equal(
      getLocalClockTime(new Date("2026-07-01T15:05:00Z"), TZ),
      "09:05",
    );
  });

  await t.step(
    "a wall-clock time's instant, and an instant with its offset",
    () => {
      assert.equal(
        getLocalInstantMs("2026-12-05", "13:00", TZ),
        Date.parse("2026-12-05T19:00:00Z"),
      );
      assert.equal(
        getLocalIsoDateTime(new Date("2026-12-05T19:00:00Z"), TZ),
        "2026-12-05T13:00:00-06:00",
      );
      const madrid = "Europe/Madrid";
      // 10:00 the day after the clocks went forward: UTC+2.
      assert.equal(
        getLocalInstantMs("2026-03-29", "10:00", madrid),
        Date.parse("2026-03-29T08:00:00Z"),
      );
      assert.equal(
        getLocalIsoDateTime(new Date("2026-03-29T08:00:00Z"), madrid),
        "2026-03-29T10:00:00+02:00",
      );
      assert.equal(
        getLocalIsoDateTime(new Date("2026-12-05T03:30:00Z"), "Asia/Kolkata"),
        "2026-12-05T09:00:00+05:30",
      );
      for (const good of ["00:00", "09:05", "23:59"]) {
        assert.ok(isClockTime(good), good);
      }
      for (const bad of ["9:05", "24:00", "12:60", "12:00:00", ""]) {
        assert.ok(!isClockTime(bad), bad);
      }
    },
  );

  await t.step("local midnight, also on a day the clock changes", () => {
    assert.equal(
      getLocalMidnightMs("2026-07-01", TZ),
      Date.parse("2026-07-01T06:00:00Z"),
    );
    // Madrid: UTC+1 in winter, UTC+2 from 2026-03-29 (at 02:00).
    const madrid = "Europe/Madrid";
    assert.equal(
      getLocalMidnightMs("2026-03-29", madrid),
      Date.parse("2026-03-28T23:00:00Z"),
    );
    assert.equal(
      getLocalMidnightMs("2026-03-30", madrid),
      Date.parse("2026-03-29T22:00:00Z"),
    );
  });
});

Deno.test("the wall clock matches Intl's at every instant, across DST changes", () => {
  const zones = [
    "America/Mexico_City", // DST until 2022
    "Europe/Madrid",
    "America/Santiago",
    "Asia/Kathmandu", // +05:45
    "Australia/Lord_Howe", // a 30-minute DST change
  ];
  const start = Date.UTC(2019, 0, 1);
  const end = Date.UTC(2031, 0, 1);
  for (const timeZone of zones) {
    const reference = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    // Every 97 minutes and 1 second for 12 years: every transition is
    // met from both sides, at odd offsets from the quarter hour.
    for (let ms = start; ms < end; ms += 5_821_000) {
      const p = Object.fromEntries(
        reference.formatToParts(new Date(ms)).map((x) => [x.type, x.value]),
      );
      assert.equal(
        getLocalWallClock(new Date(ms), timeZone),
        `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`,
        `${timeZone} at ${new Date(ms).toISOString()}`,
      );
    }
  }
});

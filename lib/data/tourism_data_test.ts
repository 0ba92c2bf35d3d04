import assert from "node:assert/strict";
import { DATA_PATH, mutateShipped, SHIPPED } from "@/tests/test_utils.ts";
import {
  DataError,
  loadTourismData,
  parseTourismData,
} from "./tourism_data.ts";

async function assertInvalid(json: string, message: RegExp) {
  await assert.rejects(parseTourismData(json, "copy.json"), (error: Error) => {
    assert.ok(error instanceof DataError, error.name);
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("data set", async (t) => {
  await t.step(
    "the shipped demo data set is valid, marked as demo, with 17 attractions",
    async () => {
      // Validated in full, not taken from the build's record of it.
      const checkedDir = await Deno.makeTempDir();
      const loaded = await loadTourismData(DATA_PATH, { checkedDir });
      await Deno.remove(checkedDir);
      assert.equal(loaded.data.meta.demo, true);
      assert.equal(loaded.totalAttractions, 17);
      assert.equal(loaded.slugByGuideCode.size, 17);
      assert.ok(loaded.data.directions.length >= 4);
      assert.match(loaded.version, /^[0-9a-f]{12}$/);
    },
  );

  await t.step(
    "guide codes are split off: the public view carries none",
    async () => {
      const loaded = await loadTourismData(DATA_PATH);
      const publicJson = JSON.stringify(loaded.data);
      assert.ok(!publicJson.includes("guideCode"));
      for (const attraction of SHIPPED.attractions) {
        assert.ok(!publicJson.includes(`"${attraction.guideCode}"`));
        assert.equal(
          loaded.slugByGuideCode.get(attraction.guideCode.toUpperCase()),
          attraction.slug,
        );
      }
    },
  );

  await t.step("a broken value names its path", async () => {
    await assertInvalid(
      mutateShipped((d) => d.attractions[3].location.lat = 200),
      /attractions\[3\]\.location\.lat/,
    );
    await assertInvalid(
      mutateShipped((d) => d.attractions[0].durationMinutes = "45"),
      /attractions\[0\]\.durationMinutes/,
    );
    await assertInvalid(
      mutateShipped((d) => d.attractions[4].wheelchair = "sí"),
      /attractions\[4\]\.wheelchair/,
    );
    await assertInvalid(
      mutateShipped((d) => d.branding.colors.primary = "green"),
      /branding\.colors\.primary/,
    );
    await assertInvalid(
      mutateShipped((d) => d.municipality.timeZone = "Mars/Olympus"),
      /municipality\.timeZone/,
    );
    await assertInvalid(
      mutateShipped((d) => d.attractions[2].extra = 1),
      /attractions\[2\]/,
    );
    await assertInvalid("{ not json", /not valid JSON/);
  });

  await t.step(
    "opening hours must be OpenStreetMap syntax, said in Spanish",
    async () => {
      await assertInvalid(
        mutateShipped((d) =>
          d.attractions[1].openingHours = "Lunes a viernes 9-18"
        ),
        /attractions\[1\]\.openingHours: horario no válido en la sintaxis opening_hours de OpenStreetMap: escríbelo así, "Mo-Fr 09:00-18:00"/,
      );
      await assertInvalid(
        mutateShipped((d) => d.providers[0].openingHours = "Mo-Fx 09:00-18:00"),
        /providers\[0\]\.openingHours: horario no válido .*«Mo-F»/,
      );
      // Valid without a note, and a place without hours is still valid.
      const loaded = await parseTourismData(
        mutateShipped((d) => {
          delete d.attractions[0].schedule;
          delete d.attractions[1].openingHours;
          d.providers[2].openingHours =
            "Mo-Fr 09:00-14:00,16:00-19:00; Sa 10:00-14:00; PH off";
        }),
        "copy.json",
      );
      assert.equal(loaded.data.attractions[1].openingHours, undefined);
    },
  );

  await t.step("cross-references are checked", async () => {
    await assertInvalid(
      mutateShipped((d) => d.routes[1].attractions.push("no-existe")),
      /routes\[1\]\.attractions\[\d+\]: unknown attraction "no-existe"/,
    );
    await assertInvalid(
      mutateShipped((d) => d.attractions[5].slug = d.attractions[4].slug),
      /attractions\[5\]\.slug: duplicate slug/,
    );
    await assertInvalid(
      mutateShipped((d) =>
        d.attractions[6].guideCode = d.attractions[7].guideCode.toLowerCase()
      ),
      /attractions\[7\]\.guideCode: duplicate guide code/,
    );
    const [, , , , , , six, seven] = SHIPPED.attractions;
    await assertInvalid(
      mutateShipped((d) => d.attractions[7].guideCode = six.guideCode),
      new RegExp(
        `duplicate guide code: "${seven.name}" \\(${seven.slug}\\) has the code of attractions\\[6\\], "${six.name}" \\(${six.slug}\\)`,
      ),
    );
    await assertInvalid(
      mutateShipped((d) => d.events[0].endDate = "2000-01-01"),
      /events\[0\]\.endDate/,
    );
  });

  await t.step(
    "an event's times and recurrence are checked, each problem said on its field",
    async () => {
      // Día de Muertos: Saturday 31 October to 2 November 2026.
      const event = (fields: Record<string, unknown>) =>
        mutateShipped((d) => {
          Object.assign(d.events[0], fields);
          for (const [key, value] of Object.entries(fields)) {
            if (value === undefined) delete d.events[0][key];
          }
        });
      const oneDay = { endDate: "2026-10-31" };
      for (const time of ["9:00", "24:00", "12:60", "mediodía"]) {
        await assertInvalid(
          event({ startTime: time, endTime: "23:00" }),
          /events\[0\]\.startTime: must be a time "HH:MM" on a 24-hour clock/,
        );
      }
      await assertInvalid(
        event({ startTime: "10:00" }),
        /events\[0\]\.endTime: required with startTime: give both times, or neither for an all-day event/,
      );
      await assertInvalid(
        event({ ...oneDay, startTime: "14:00", endTime: "13:00" }),
        /events\[0\]\.endTime: must be after startTime \(14:00\) on the same day; an event that goes past midnight ends on the next day \(endDate\)/,
      );
      // Past midnight: it ends on the next day.
      await parseTourismData(
        event({ endDate: "2026-11-01", startTime: "20:00", endTime: "02:00" }),
        "copy.json",
      );
      const weekly = (recurrence: Record<string, unknown>) =>
        event({
          ...oneDay,
          recurrence: { frequency: "weekly", ...recurrence },
        });
      await parseTourismData(weekly({ weekdays: ["saturday"] }), "copy.json");
      await assertInvalid(
        weekly({}),
        /events\[0\]\.recurrence\.weekdays: required for a weekly recurrence/,
      );
      await assertInvalid(
        weekly({ weekdays: ["sunday", "monday"] }),
        /events\[0\]\.startDate: 2026-10-31 is a saturday and does not follow the recurrence \(a weekly recurrence on sunday, monday\): startDate is the first occurrence/,
      );
      await assertInvalid(
        weekly({ weekdays: ["sábado"] }),
        /events\[0\]\.recurrence\.weekdays\[0\]: Invalid option: expected one of "monday"/,
      );
      await assertInvalid(
        weekly({ weekdays: ["saturday"], until: "2026-10-01" }),
        /events\[0\]\.recurrence\.until: must not be before startDate/,
      );
      await assertInvalid(
        weekly({ weekdays: ["saturday"], monthDay: 31 }),
        /events\[0\]\.recurrence\.monthDay: only for a monthly recurrence/,
      );
      const monthly = (recurrence: Record<string, unknown>) =>
        event({
          ...oneDay,
          recurrence: { frequency: "monthly", ...recurrence },
        });
      await parseTourismData(monthly({ monthDay: 31 }), "copy.json");
      // The fourth Saturday: 24 October.
      await parseTourismData(
        event({
          startDate: "2026-10-24",
          endDate: "2026-10-24",
          recurrence: { frequency: "monthly", week: 4, weekday: "saturday" },
        }),
        "copy.json",
      );
      await assertInvalid(
        monthly({}),
        /events\[0\]\.recurrence\.monthDay: required for a monthly recurrence: monthDay \(a day of the month\), or week and weekday/,
      );
      await assertInvalid(
        monthly({ monthDay: 31, week: 1, weekday: "saturday" }),
        /give either monthDay \(a day of the month\) or week and weekday/,
      );
      await assertInvalid(
        monthly({ week: 1 }),
        /events\[0\]\.recurrence\.weekday: week and weekday go together/,
      );
      await assertInvalid(
        monthly({ week: 1, weekday: "saturday" }),
        // 31 October is the month's fifth Saturday.
        /events\[0\]\.startDate: 2026-10-31 is a saturday and does not follow the recurrence \(the first saturday of each month\)/,
      );
      await assertInvalid(
        monthly({ week: 5, weekday: "saturday" }),
        /events\[0\]\.recurrence\.week: /,
      );
      await assertInvalid(
        event({ recurrence: { frequency: "yearly" } }),
        /events\[0\]\.recurrence\.frequency: /,
      );
      await assertInvalid(
        event({ recurrence: { frequency: "daily" } }),
        /events\[0\]\.endDate: a recurring event's endDate is the last day of its first occurrence/,
      );
    },
  );

  await t.step(
    "a privacy notice without its office, contact or date is refused",
    async () => {
      const loaded = await loadTourismData(DATA_PATH);
      assert.match(loaded.data.privacy.office, /Turismo/);
      assert.ok(loaded.data.privacy.transparencyUnit.email.includes("@"));
      await assertInvalid(
        mutateShipped((d) => delete d.privacy),
        /privacy/,
      );
      await assertInvalid(
        mutateShipped((d) => delete d.privacy.transparencyUnit.email),
        /privacy\.transparencyUnit\.email/,
      );
      await assertInvalid(
        mutateShipped((d) => d.privacy.transparencyUnit.email = "en persona"),
        /privacy\.transparencyUnit\.email/,
      );
      await assertInvalid(
        mutateShipped((d) => d.privacy.transparencyUnit.phone = " "),
        /privacy\.transparencyUnit\.phone/,
      );
      await assertInvalid(
        mutateShipped((d) => delete d.privacy.transparencyUnit),
        /privacy\.transparencyUnit/,
      );
      await assertInvalid(
        mutateShipped((d) => d.privacy.updated = "ayer"),
        /privacy\.updated/,
      );
    },
  );

  await t.step("a logo with a script is refused", async () => {
    await assertInvalid(
      mutateShipped((d) =>
        d.branding.logoSvg =
          '<svg viewBox="0 0 1 1"><script>alert(1)</script></svg>'
      ),
      /branding\.logoSvg/,
    );
  });
});

import assert from "node:assert/strict";
import {
  describeCost,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDistance,
  formatHours,
  formatMinutes,
  formatMoney,
  formatRating,
  getCategoryLabel,
  getDifficultyLabel,
  plural,
} from "./format.ts";
import { contrastText, renderThemeCss } from "@/lib/branding/theme_css.ts";

Deno.test("page formatting", async (t) => {
  await t.step("money: free, whole pesos and cents", () => {
    assert.equal(formatMoney({ amount: 0, currency: "MXN" }), "Entrada libre");
    assert.equal(formatMoney({ amount: 1450, currency: "MXN" }), "$1,450 MXN");
    assert.equal(formatMoney({ amount: 35.5, currency: "MXN" }), "$35.50 MXN");
  });

  await t.step("durations, distances and counts", () => {
    assert.equal(formatMinutes(45), "45 min");
    assert.equal(formatMinutes(120), "2 h");
    assert.equal(formatMinutes(90), "1 h 30 min");
    assert.equal(formatDistance(0.004), "10 m");
    assert.equal(formatDistance(0.347), "350 m");
    assert.equal(formatDistance(1.23), "1.2 km");
    assert.equal(formatDistance(36.4), "36 km");
    assert.equal(plural(1, "visita", "visitas"), "1 visita");
    assert.equal(plural(1200, "visita", "visitas"), "1,200 visitas");
  });

  await t.step("dates in the municipality's time zone", () => {
    // 02:00 UTC on the 23rd is still the 22nd in Mexico City.
    assert.equal(
      formatDate("2026-11-23T02:00:00Z", "America/Mexico_City"),
      "22 de noviembre de 2026",
    );
    assert.equal(
      formatDate("2026-11-23", "America/Mexico_City"),
      "23 de noviembre de 2026",
    );
    assert.equal(
      formatDateRange("2026-10-31", "2026-11-02"),
      "31 oct – 2 nov 2026",
    );
    assert.equal(
      formatDateRange("2026-12-30", "2027-01-02"),
      "30 dic 2026 – 2 ene 2027",
    );
  });

  await t.step("Spanish labels and clock stay as they were", () => {
    assert.equal(getCategoryLabel("gastronomia"), "Gastronomía");
    assert.equal(getDifficultyLabel("alta"), "Exigente");
    assert.equal(formatHours(3.5), "3 h 30 min");
    assert.equal(formatRating(4.46), "4.5");
    assert.equal(
      formatDateTime("2026-11-22T20:05:00Z", "America/Mexico_City"),
      "22 nov 2026, 14:05",
    );
  });

  await t.step("English: money as MX$, free admission, cents kept", () => {
    assert.equal(
      formatMoney({ amount: 0, currency: "MXN" }, undefined, "en"),
      "Free admission",
    );
    assert.equal(
      formatMoney({ amount: 1450, currency: "MXN" }, undefined, "en"),
      "MX$1,450",
    );
    assert.equal(
      formatMoney({ amount: 35.5, currency: "MXN" }, undefined, "en"),
      "MX$35.50",
    );
    assert.equal(
      formatMoney({ amount: 0, currency: "MXN" }, "free", "en"),
      "free",
    );
  });

  await t.step("English: durations, distances, ratings and labels", () => {
    assert.equal(formatMinutes(45, "en"), "45 min");
    assert.equal(formatMinutes(120, "en"), "2 hr");
    assert.equal(formatMinutes(90, "en"), "1 hr 30 min");
    assert.equal(formatHours(3.5, "en"), "3 hr 30 min");
    assert.equal(formatDistance(0.347, "en"), "350 m");
    assert.equal(formatDistance(1.23, "en"), "1.2 km");
    assert.equal(formatDistance(36.4, "en"), "36 km");
    assert.equal(formatRating(4.46, "en"), "4.5");
    assert.equal(plural(1200, "visit", "visits", "en"), "1,200 visits");
    assert.equal(getCategoryLabel("gastronomia", "en"), "Food and drink");
    assert.equal(getCategoryLabel("museo", "es"), "Museo");
    assert.equal(getDifficultyLabel("media", "en"), "Moderate");
  });

  await t.step("English: dates as a US reader writes them", () => {
    assert.equal(
      formatDate("2026-11-23T02:00:00Z", "America/Mexico_City", "en"),
      "November 22, 2026",
    );
    assert.equal(
      formatDateRange("2026-10-31", "2026-11-02", "en"),
      "Oct 31 – Nov 2, 2026",
    );
    assert.equal(
      formatDateRange("2026-12-30", "2027-01-02", "en"),
      "Dec 30, 2026 – Jan 2, 2027",
    );
    assert.equal(
      formatDateTime("2026-11-22T20:05:00Z", "America/Mexico_City", "en"),
      "Nov 22, 2026, 2:05 PM",
    );
  });

  await t.step("theme colours and readable text on them", () => {
    assert.equal(contrastText("#1D5C63"), "#ffffff");
    assert.equal(contrastText("#E0A526"), "#1a1a1a");
    const css = renderThemeCss({
      primary: "#1D5C63",
      secondary: "#8A4B1C",
      accent: "#E0A526",
      background: "#FBF8F1",
      text: "#1F2426",
    });
    assert.match(css, /--color-primary: #1D5C63;/);
    assert.match(css, /--color-on-accent: #1a1a1a;/);
  });
});

Deno.test("describeCost says each thing once", () => {
  const free = { amount: 0, currency: "MXN" } as const;
  assert.deepEqual(describeCost({ adult: free, notes: "Acceso libre." }), {
    free: true,
    adult: "Entrada libre",
    child: null,
    note: null,
  });
  assert.equal(
    describeCost({
      adult: free,
      notes: "Entrada libre; se agradecen donativos.",
    })
      .note,
    "Se agradecen donativos.",
  );
  assert.equal(
    describeCost(
      { adult: free, notes: "Free to enter; lunch runs 90 MXN." },
      "en",
    ).note,
    "Lunch runs 90 MXN.",
  );
  // A Spanish note on an English page is read with the Spanish words.
  assert.equal(
    describeCost({ adult: free, notes: "Acceso libre." }, "en", "es").note,
    null,
  );
  // A note that only starts like the word keeps it ("Gratisimo" is no "Gratis").
  assert.equal(
    describeCost({ adult: free, notes: "Gratisimo paseo." }).note,
    "Gratisimo paseo.",
  );
  // Paid: both prices, the note as it is (it may be about a free day).
  const paid = describeCost({
    adult: { amount: 90, currency: "MXN" as const },
    child: { amount: 45, currency: "MXN" as const },
    notes: "Entrada libre los domingos.",
  });
  assert.deepEqual(paid, {
    free: false,
    adult: "$90 MXN",
    child: "$45 MXN",
    note: "Entrada libre los domingos.",
  });
});

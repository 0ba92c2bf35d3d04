import assert from "node:assert/strict";
import {
  formatDate,
  formatDateRange,
  formatDistance,
  formatMinutes,
  formatMoney,
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

/**
 * "Estoy aquí" in headless Chromium with an emulated position
 * (`context.setGeolocation`): where an attraction checks in by position
 * only there is no code field; inside its radius the visit is recorded (by
 * position, which is not kept), outside it is refused with the distance;
 * a second place too far to have been reached so soon is refused (the speed
 * rule); a switch to position only while the page is open refuses the code
 * with the reason and offers "Estoy aquí"; a denied permission says how to
 * allow it; with no signal the position waits on the device like a code
 * and is sent when the signal returns; "position or code" offers both. Axe finds nothing in each new
 * state. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { saveCheckInMethod } from "@/lib/db/check_in_methods.ts";
import { keys } from "@/lib/db/keys.ts";
import {
  assertAxeClean,
  browserSkipReason,
  PHONE,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { assertNothingNames } from "../kv_dump.ts";
import { distanceKm, SHIPPED } from "../test_utils.ts";

const MERCADO = SHIPPED.attractions.find((a) =>
  a.slug === "mercado-municipal"
)!;
const MIRADOR = SHIPPED.attractions.find((a) =>
  a.slug === "mirador-paisaje-agavero"
)!;
const PRESIDENCIA = SHIPPED.attractions.find((a) =>
  a.slug === "presidencia-municipal"
)!;
const HACIENDA = SHIPPED.attractions.find((a) =>
  a.slug === "hacienda-san-jose-del-refugio"
)!;

/** A point `metres` north of `place`. */
function north(place: { lat: number; lng: number }, metres: number) {
  return { latitude: place.lat + metres / 111_320, longitude: place.lng };
}

/** Every visit in KV, with its user. */
async function listAllVisits(kv: Deno.Kv) {
  const visits: Record<string, unknown>[] = [];
  for await (const entry of kv.list({ prefix: keys.visits() })) {
    visits.push(entry.value as Record<string, unknown>);
  }
  return visits;
}

Deno.test({
  name:
    "«Estoy aquí» in Chromium: inside the radius recorded, outside refused with the distance, the speed rule, offline queued",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using running = await startBrowserApp();
    const { ctx, origin, browser } = running;
    const kv = ctx.deps.kv;
    const staff = {
      id: "admin@tequila.gob.mx",
      email: "admin@tequila.gob.mx",
      role: "admin" as const,
    };
    await saveCheckInMethod(kv, {
      slug: MERCADO.slug,
      rule: { method: "gps", radiusM: 150 },
      staff,
      now: new Date(),
      auditTarget: MERCADO.slug,
    });
    for (const place of [MIRADOR, HACIENDA]) {
      await saveCheckInMethod(kv, {
        slug: place.slug,
        rule: { method: "gps-or-code", radiusM: 150 },
        staff,
        now: new Date(),
        auditTarget: place.slug,
      });
    }
    const pageOf = (slug: string) => `${origin}/turismo/atractivos/${slug}`;

    /** A new tourist's phone at `at` (none: location not allowed). */
    async function openPhone(
      at?: { latitude: number; longitude: number },
    ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
      const context = await browser.newContext({
        locale: "es-MX",
        viewport: PHONE,
        hasTouch: true,
        isMobile: true,
        bypassCSP: true,
        ...(at
          ? {
            permissions: ["geolocation"],
            geolocation: { ...at, accuracy: 20 },
          }
          : {}),
      });
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      // The browser logs the refusals' statuses and the requests offline.
      watch.allow(/422|ERR_INTERNET_DISCONNECTED|Failed to fetch/);
      return { context, page, problems: watch.problems };
    }

    const checkIn = (page: Page) => page.locator(".check-in");
    const imHere = (page: Page) =>
      page.getByRole("button", { name: "Estoy aquí" });
    const ready = (page: Page) =>
      page.locator(".check-in button:not([disabled])").first().waitFor();

    let first: { context: BrowserContext; page: Page; problems: string[] };

    await t.step(
      "position only: no code field; 40 m away (accuracy 20 m) the visit is recorded by position",
      async () => {
        first = await openPhone(north(MERCADO.location, 40));
        const { page } = first;
        await page.goto(pageOf(MERCADO.slug));
        await ready(page);
        assert.equal(await page.getByLabel("Código del atractivo").count(), 0);
        assert.match(
          await page.locator(".panel--check-in").innerText(),
          /Toca «Estoy aquí» y suma un sello a tu pasaporte con tu ubicación/,
        );
        await checkIn(page).getByText(
          `Usamos tu ubicación solo para comprobar que estás en ${MERCADO.name}; no la guardamos.`,
        ).waitFor();
        await assertAxeClean(page, "position only");
        await imHere(page).click();
        await checkIn(page).getByText(
          `¡Listo! Registramos tu visita a ${MERCADO.name}.`,
        ).waitFor();
        await checkIn(page).locator(".rating-form").waitFor();
        const visits = await listAllVisits(kv);
        assert.equal(visits.length, 1);
        assert.equal(visits[0].slug, MERCADO.slug);
        assert.equal(visits[0].method, "gps");
        // Six decimals of the phone's latitude (the attraction's has five).
        await assertNothingNames(kv, {
          position: north(MERCADO.location, 40).latitude.toFixed(6),
        });
      },
    );

    await t.step(
      "800 m away it is refused with the distance and the radius",
      async () => {
        const at = north(MERCADO.location, 800);
        const { context, page, problems } = await openPhone(at);
        await page.goto(pageOf(MERCADO.slug));
        await ready(page);
        await imHere(page).click();
        const refusal = checkIn(page).locator(".notice--refused");
        await refusal.waitFor();
        const text = await refusal.innerText();
        const match = text.match(
          new RegExp(
            `^Estás a (\\d+) m de ${MERCADO.name}\\. Para registrar tu sello tienes que estar a menos de 150 m\\.$`,
          ),
        );
        assert.ok(match, text);
        const expected = distanceKm(
          { lat: at.latitude, lng: at.longitude },
          MERCADO.location,
        ) * 1000;
        assert.ok(Math.abs(Number(match[1]) - expected) < 3, text);
        assert.equal(await checkIn(page).locator(".rating-form").count(), 0);
        assert.equal((await listAllVisits(kv)).length, 1);
        await imHere(page).waitFor();
        await assertAxeClean(page, "outside the radius");
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "in English: «I'm here», the distance and the pending stamp in English",
      async () => {
        const { context, page, problems } = await openPhone(
          north(MERCADO.location, 800),
        );
        await page.goto(`${origin}/en/turismo/atractivos/${MERCADO.slug}`);
        await ready(page);
        const here = page.getByRole("button", { name: "I'm here" });
        await here.click();
        await checkIn(page).getByText(
          /^You're \d+ m from .+\. To get your stamp you need to be within 150 m\.$/,
        ).waitFor();
        await context.setOffline(true);
        await here.click();
        await checkIn(page).getByText(
          "Stamp pending: we'll send it as soon as you have signal.",
          { exact: false },
        ).waitFor();
        await assertAxeClean(page, "pending, in English");
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "the speed rule: a place 6 km away, right after, is refused",
      async () => {
        const { context, page, problems } = first;
        await context.setGeolocation({
          ...north(MIRADOR.location, 10),
          accuracy: 20,
        });
        await page.goto(pageOf(MIRADOR.slug));
        await ready(page);
        await imHere(page).click();
        await checkIn(page).getByText(
          "No pudimos registrar tu sello: tu sello anterior es de un lugar demasiado lejano para haber llegado aquí tan pronto.",
        ).waitFor();
        assert.equal((await listAllVisits(kv)).length, 1);
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "switched to position only while the page was open: the code is refused with the reason, and «Estoy aquí» is offered",
      async () => {
        const { context, page, problems } = await openPhone(
          north(PRESIDENCIA.location, 20),
        );
        await page.goto(pageOf(PRESIDENCIA.slug));
        await ready(page);
        assert.equal(await imHere(page).count(), 0, "by code when opened");
        await saveCheckInMethod(kv, {
          slug: PRESIDENCIA.slug,
          rule: { method: "gps", radiusM: 150 },
          staff,
          now: new Date(),
          auditTarget: PRESIDENCIA.slug,
        });
        await page.getByLabel("Código del atractivo").fill(
          PRESIDENCIA.guideCode,
        );
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await checkIn(page).getByText(
          "En este lugar el sello se registra con tu ubicación, no con código: toca «Estoy aquí» cuando estés ahí.",
        ).waitFor();
        await imHere(page).click();
        await checkIn(page).getByText(
          `¡Listo! Registramos tu visita a ${PRESIDENCIA.name}.`,
        ).waitFor();
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "location not allowed: the tourist is told how to allow it",
      async () => {
        const { context, page, problems } = await openPhone();
        await page.goto(pageOf(MERCADO.slug));
        await ready(page);
        await imHere(page).click();
        await checkIn(page).getByText(
          /^No nos diste permiso de ver tu ubicación\. Actívalo para este sitio/,
        ).waitFor();
        await assertAxeClean(page, "location denied");
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    await t.step(
      "position or code: both offered; a position taken offline waits and is sent when the signal returns",
      async () => {
        const { context, page, problems } = await openPhone(
          north(HACIENDA.location, 30),
        );
        await page.goto(pageOf(HACIENDA.slug));
        await ready(page);
        await page.getByLabel("Código del atractivo").waitFor();
        await assertAxeClean(page, "position or code");
        await context.setOffline(true);
        await imHere(page).click();
        await checkIn(page).getByText(
          "Sello pendiente: lo enviaremos en cuanto tengas señal.",
          { exact: false },
        ).waitFor();
        const before = (await listAllVisits(kv)).length;
        await context.setOffline(false);
        await checkIn(page).getByText(
          `¡Listo! Registramos tu visita a ${HACIENDA.name}.`,
        ).waitFor();
        const visits = await listAllVisits(kv);
        assert.equal(visits.length, before + 1);
        assert.ok(visits.some((v) => v.method === "gps"));
        assert.deepEqual(problems, []);
        await context.close();
      },
    );
  },
});

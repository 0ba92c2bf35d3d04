/**
 * What the dashboard's figures say, as a clerk reads them (issue 41):
 * visits checked in with «Estoy aquí» are counted as such, beside those
 * with a code, and a chat reply that said "No tengo ese dato" (listed as
 * unanswered) is not counted as a question answered.
 */
import assert from "node:assert/strict";
import { NO_DATA_MARKER } from "@/lib/chat/unanswered.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import { createTestContext, postJson, signInStaff } from "../test_utils.ts";

/** Monday 10 March 2025, 12:00 in the municipality (UTC-6). */
const NOW = new Date("2025-03-10T18:00:00Z");

/** The text of the headline figure `id` (`cifra-<id>`): its value and detail. */
function readHeadline(html: string, id: string) {
  const start = html.indexOf(`id="cifra-${id}"`);
  assert.ok(start > 0, `headline ${id}`);
  const item = html.slice(start, html.indexOf("</li>", start));
  const text = (name: string) =>
    item.match(new RegExp(`class="headline__${name}">([^<]*)<`))?.[1];
  return { value: text("value"), detail: text("detail") };
}

Deno.test("the dashboard's figures say what they count", async (t) => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    clockStart: NOW,
    openai: fake.client({ timeout: 10_000, maxRetries: 0 }),
  });
  const { kv } = ctx.deps;
  const { data } = ctx.deps.data.current();
  const [plaza, mercado] = data.attractions.map((a) => a.slug);
  const cookie = await signInStaff(ctx, { role: "viewer" });
  const dashboard = async () => {
    const res = await ctx.app.request("/panel", { headers: { cookie } });
    assert.equal(res.status, 200);
    return await res.text();
  };

  await t.step(
    "visits by code and by «Estoy aquí» are both counted, each as what it is",
    async () => {
      const timeZone = data.municipality.timeZone;
      for (const slug of [plaza, mercado]) {
        await recordVisit(kv, {
          userId: crypto.randomUUID(),
          slug,
          now: NOW,
          totalAttractions: data.attractions.length,
          timeZone,
        });
      }
      await recordVisit(kv, {
        userId: crypto.randomUUID(),
        slug: plaza,
        now: NOW,
        totalAttractions: data.attractions.length,
        timeZone,
        method: "gps",
      });
      const visits = readHeadline(await dashboard(), "visitas");
      assert.equal(visits.value, "3");
      assert.match(visits.detail ?? "", /2 con código y 1 con «Estoy aquí»/);

      const res = await ctx.app.request(`/panel/atractivos/${plaza}`, {
        headers: { cookie },
      });
      const own = readHeadline(await res.text(), "visitas");
      assert.equal(own.value, "2");
      assert.match(own.detail ?? "", /1 con código y 1 con «Estoy aquí»/);
    },
  );

  await t.step(
    "a reply without the data is not a question answered",
    async () => {
      fake.respondWith({ type: "reply", content: "La plaza abre a las 8." });
      const answered = await postJson(ctx, "/api/chat", {
        message: "¿A qué hora abre la plaza?",
      });
      assert.equal(answered.status, 200);
      await answered.body?.cancel();
      fake.respondWith({
        type: "reply",
        content: `${NO_DATA_MARKER} No tengo ese dato en el portal.`,
      });
      const noData = await postJson(ctx, "/api/chat", {
        message: "¿Hay clases de cata de tequila?",
      });
      assert.equal(noData.status, 200);
      await noData.body?.cancel();

      const html = await dashboard();
      const questions = readHeadline(html, "preguntas");
      assert.equal(questions.value, "1", "only the reply with the data");
      assert.match(questions.detail ?? "", /de 2 preguntas/);
    },
  );
});

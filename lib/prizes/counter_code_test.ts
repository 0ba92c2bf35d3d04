import assert from "node:assert/strict";
import {
  COUNTER_CODE_STEP_MS,
  counterCode,
  counterDigits,
  isCurrentCounterCode,
  newClaimReference,
  parseCounterCode,
  REFERENCE_ALPHABET,
} from "./counter_code.ts";

const SECRET = "c2VjcmV0LW9mLWEtY2xhaW0tMjBi";

Deno.test("counter code: four digits a step, the same on every device", async () => {
  const at = Date.UTC(2026, 11, 3, 18, 0, 10);
  const code = await counterCode({ reference: "K7QPM", secret: SECRET }, at);
  assert.match(code.digits, /^\d{4}$/);
  assert.equal(code.validUntilMs % COUNTER_CODE_STEP_MS, 0);
  assert.ok(code.validUntilMs > at && code.validUntilMs - at <= 30_000);
  // The same step gives the same digits; the next step (almost always) others.
  const again = await counterCode(
    { reference: "K7QPM", secret: SECRET },
    at + 5_000,
  );
  assert.equal(again.digits, code.digits);
  const steps = await Promise.all(
    Array.from({ length: 20 }, (_, i) => counterDigits(SECRET, 1000 + i)),
  );
  assert.ok(new Set(steps).size > 15, "the digits change with the step");
});

Deno.test("counter code: the check takes the step before and after, not a minute-old screenshot", async () => {
  const at = Date.UTC(2026, 11, 3, 18, 0, 10);
  const digitsAt = async (ms: number) =>
    (await counterCode({ reference: "K7QPM", secret: SECRET }, ms)).digits;
  assert.ok(await isCurrentCounterCode(SECRET, await digitsAt(at), at));
  assert.ok(
    await isCurrentCounterCode(SECRET, await digitsAt(at - 30_000), at),
  );
  assert.ok(
    await isCurrentCounterCode(SECRET, await digitsAt(at + 30_000), at),
  );
  const old = await digitsAt(at - 90_000);
  const current = new Set(
    await Promise.all([-30_000, 0, 30_000].map((d) => digitsAt(at + d))),
  );
  if (!current.has(old)) {
    assert.equal(await isCurrentCounterCode(SECRET, old, at), false);
  }
  assert.equal(
    await isCurrentCounterCode(
      "b3RoZXItc2VjcmV0LW9mLWEtY2xhaW0",
      await digitsAt(at),
      at,
    ) &&
      (await counterDigits(
          "b3RoZXItc2VjcmV0LW9mLWEtY2xhaW0",
          Math.floor(at / 30_000),
        )) !==
        (await digitsAt(at)),
    false,
    "another claim's secret makes other digits",
  );
});

Deno.test("counter code: references use letters that cannot be misread", () => {
  for (let i = 0; i < 200; i++) {
    const reference = newClaimReference();
    assert.equal(reference.length, 5);
    for (const c of reference) assert.ok(REFERENCE_ALPHABET.includes(c));
  }
  assert.ok(!/[01OIL]/.test(REFERENCE_ALPHABET));
  assert.deepEqual(parseCounterCode(" k7qpm-4829 "), {
    reference: "K7QPM",
    digits: "4829",
  });
  assert.equal(parseCounterCode("K7QPM 48290"), null);
});

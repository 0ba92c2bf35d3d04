import assert from "node:assert/strict";
import { sha256Base64Url, sha256Hex } from "./sha256.ts";

Deno.test("sha256: the digest of a text's UTF-8 bytes", async (t) => {
  // Reference values from Python's hashlib.
  const vectors = [
    [
      "abc",
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0",
    ],
    [
      "",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU",
    ],
    [
      "ñandú 🌵",
      "fdf4cf62462f8b79cd0df5c88a9e1f732d4a6f3735db531e594798d9e4d38c33",
      "_fTPYkYvi3nNDfXIip4fcy1Kbzc121MeWUeY2eTTjDM",
    ],
  ] as const;

  await t.step("hex: 64 lower-case digits", async () => {
    for (const [text, hex] of vectors) {
      assert.equal(await sha256Hex(text), hex, text);
    }
  });

  await t.step("base64url: 43 characters, no padding, - and _", async () => {
    for (const [text, , base64url] of vectors) {
      const value = await sha256Base64Url(text);
      assert.equal(value, base64url, text);
      assert.match(value, /^[A-Za-z0-9_-]{43}$/);
    }
  });
});

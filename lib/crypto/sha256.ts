/**
 * SHA-256 of a text (its UTF-8 bytes) with Web Crypto, as hex or base64url
 * (no padding). Web Crypto rather than node:crypto: importing that would
 * load Deno's Node layer at start.
 */
export async function sha256Hex(text: string): Promise<string> {
  return (await sha256(text)).toHex();
}

/** {@linkcode sha256Hex}, in base64url without padding. */
export async function sha256Base64Url(text: string): Promise<string> {
  return (await sha256(text)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
}

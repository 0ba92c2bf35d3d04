/**
 * Deno KV's key encoding (the tuple layer of FoundationDB, as `denokv`
 * stores keys in its SQLite `kv` table). The KV API never shows a key's
 * bytes; a backup needs them to find an entry's row, and so its expiry,
 * which the API does not expose either.
 */

const BYTES = 0x01;
const STRING = 0x02;
const NEGINTSTART = 0x0b;
const INTZERO = 0x14;
const POSINTEND = 0x1d;
const DOUBLE = 0x21;
const FALSE = 0x26;
const TRUE = 0x27;

const textEncoder = new TextEncoder();

/** The bytes `denokv` stores for `key`, the same order as the key's. */
export function encodeKvKey(key: Deno.KvKey): Uint8Array {
  const out: number[] = [];
  for (const part of key) {
    if (part instanceof Uint8Array) {
      out.push(BYTES);
      pushEscaped(out, part);
    } else if (typeof part === "string") {
      out.push(STRING);
      pushEscaped(out, textEncoder.encode(part));
    } else if (typeof part === "number") {
      out.push(DOUBLE, ...encodeDouble(part));
    } else if (typeof part === "bigint") {
      pushBigInt(out, part);
    } else if (typeof part === "boolean") {
      out.push(part ? TRUE : FALSE);
    } else {
      throw new TypeError(`Not a KV key part: ${String(part)}`);
    }
  }
  return Uint8Array.from(out);
}

/** The hex of {@linkcode encodeKvKey}, to look a key up in a `Map`. */
export function encodeKvKeyHex(key: Deno.KvKey): string {
  return toHex(encodeKvKey(key));
}

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** A zero byte is written as 0x00 0xff, so that 0x00 can end the part. */
function pushEscaped(out: number[], bytes: Uint8Array): void {
  for (const byte of bytes) {
    out.push(byte);
    if (byte === 0) out.push(0xff);
  }
  out.push(0);
}

/** Big-endian IEEE 754, sign bit flipped (all bits for negatives): sorts as numbers. */
function encodeDouble(value: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Number.isNaN(value) ? NaN : value);
  const bytes = [...new Uint8Array(view.buffer)];
  if (bytes[0] & 0x80) return bytes.map((byte) => byte ^ 0xff);
  bytes[0] ^= 0x80;
  return bytes;
}

/** Big-endian magnitude, length in the type code; negatives in ones' complement. */
function pushBigInt(out: number[], value: bigint): void {
  if (value === 0n) {
    out.push(INTZERO);
    return;
  }
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  const bytes: number[] = [];
  while (magnitude > 0n) {
    bytes.unshift(Number(magnitude & 0xffn));
    magnitude >>= 8n;
  }
  const body = negative ? bytes.map((byte) => byte ^ 0xff) : bytes;
  if (bytes.length <= 8) {
    out.push(negative ? INTZERO - bytes.length : INTZERO + bytes.length);
  } else if (negative) {
    out.push(NEGINTSTART, bytes.length ^ 0xff);
  } else {
    out.push(POSINTEND, bytes.length);
  }
  out.push(...body);
}

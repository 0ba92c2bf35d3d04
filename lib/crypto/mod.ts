/**
 * Hashes with Web Crypto: the SHA-256 of a text, as hex or base64url.
 * Routes import this entry; the folders of lib/ import the module itself.
 *
 * @module
 */
export { sha256Base64Url, sha256Hex } from "./sha256.ts";

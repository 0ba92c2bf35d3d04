/**
 * The service's own tokens: signing a tourist's JWT and verifying tokens, ours
 * or an identity provider's. Routes, components and scripts import this entry,
 * never the folder's insides.
 *
 * @module
 */
export {
  MAX_OWN_TOKEN_LIFETIME_SECONDS,
  signOwnToken,
  type TokenVerifier,
} from "./tokens.ts";

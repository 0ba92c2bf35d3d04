/**
 * Tourist sign-in: the OIDC flow with the identity provider, the session and
 * sign-in state cookies, the service's session tokens and `requireTourist`, the
 * middleware that gives each passport route the signed-in tourist. Routes,
 * components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export {
  clearSessionCookie,
  clearSignInStateCookie,
  readSessionCookie,
  readSignInStateCookie,
  writeSessionCookie,
  writeSignInStateCookie,
} from "./cookies.ts";
export { OidcSignInError, OidcUnavailableError } from "./oidc_client.ts";
export {
  finishSignIn,
  FLOW_TTL_MS,
  issueSessionToken,
  SESSION_TTL_MS,
  SignInNotConfiguredError,
  signOut,
  startSignIn,
} from "./sign_in.ts";
export {
  findTourist,
  getTourist,
  readTouristSession,
  requireTourist,
} from "./tourist_session.ts";

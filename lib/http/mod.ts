/**
 * The HTTP plumbing routes share: the app's context type (`AppEnv`), the
 * page's and the answer's language, the public origin, form bodies, the
 * tourist's token, the client's address, the security headers, the replay of
 * kept answers and the secret
 * addresses' redaction. Routes, components and scripts import this entry,
 * never the folder's insides, with two exceptions on purpose: the API's
 * OpenAPI router (`router.ts`'s `createRouter`) and shared pieces
 * (`openapi.ts`) load `@hono/zod-openapi`, so the API routes import them by
 * name and a page never loads it; and app.ts's middleware, on the start path,
 * imports its modules directly, so a start loads no entry.
 *
 * @module
 */
export { getApiLang } from "./api_lang.ts";
export { getClientIp } from "./client_ip.ts";
export { readForm } from "./form_body.ts";
export { getPublicOrigin } from "./origin.ts";
export { getLang } from "./page_lang.ts";
export type { AppEnv } from "./router.ts";
export { allowReplay, ReplayedAnswers } from "./replay.ts";
export { redactPath } from "./secret_urls.ts";
export {
  getContentSecurityPolicy,
  isApiPath,
  PAGE_SECURITY_HEADERS,
} from "./security_headers.ts";
export { assertSelf, optionalUser, requireUser } from "./user.ts";

/**
 * The HTTP plumbing routes share: the router and its `AppEnv`, the OpenAPI
 * pieces every operation names, the page's and the answer's language, the
 * public origin, form bodies, the tourist's token, the client's address, the
 * security headers and the secret addresses' redaction. app.ts's middleware (on
 * the start path) imports its modules directly. Routes, components and scripts
 * import this entry, never the folder's insides.
 *
 * @module
 */
export { getApiLang } from "./api_lang.ts";
export { getClientIp } from "./client_ip.ts";
export { readForm } from "./form_body.ts";
export { errorResponses, SECURITY, TAGS } from "./openapi.ts";
export { getPublicOrigin } from "./origin.ts";
export { getLang } from "./page_lang.ts";
export { type AppEnv, createRouter, ErrorBody } from "./router.ts";
export { redactPath } from "./secret_urls.ts";
export { isApiPath, PAGE_SECURITY_HEADERS } from "./security_headers.ts";
export { assertSelf, optionalUser, requireUser } from "./user.ts";

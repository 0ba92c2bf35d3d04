import type { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import notFound from "./routes/_404.tsx";
import chat from "./routes/api/chat.ts";
import sessionToken from "./routes/api/session-token.ts";
import shareImage from "./routes/api/turismo/og/[code].ts";
import rateVisit from "./routes/api/turismo/rate-visit.ts";
import ticket from "./routes/api/turismo/ticket.ts";
import verifyVisit from "./routes/api/turismo/verify-visit.ts";
import users, { erasureStatusRoute } from "./routes/api/turismo/users.ts";
import passportData from "./routes/mi-pasaporte/datos.tsx";
import requestsPage from "./routes/panel/solicitudes.tsx";
import authCallback from "./routes/auth/callback.ts";
import signin from "./routes/auth/signin.ts";
import signout from "./routes/auth/signout.ts";
import staffSignInPage from "./routes/auth/personal/index.tsx";
import staffProviderSignIn from "./routes/auth/personal/proveedor.ts";
import staffLink from "./routes/auth/personal/[token].tsx";
import auditPage from "./routes/panel/auditoria.tsx";
import codesPage from "./routes/panel/codigos.tsx";
import notesPage from "./routes/panel/notas.tsx";
import questionsPage from "./routes/panel/preguntas.tsx";
import panelHome from "./routes/panel/index.tsx";
import staffSignOut from "./routes/panel/salir.ts";
import exportPage from "./routes/panel/exportar.tsx";
import openDataPage from "./routes/datos/index.tsx";
import openDataFiles from "./routes/datos/files.ts";
import healthz from "./routes/healthz.ts";
import home from "./routes/index.tsx";
import logo from "./routes/logo.svg.ts";
import attractionCard from "./routes/og/atractivos/[slug].png.ts";
import homeCard from "./routes/og/inicio.png.ts";
import passportPage from "./routes/mi-pasaporte.tsx";
import touristRoute from "./routes/ruta/[code].tsx";
import staticFiles from "./routes/static.ts";
import theme from "./routes/theme.css.ts";
import attraction from "./routes/turismo/atractivos/[slug].tsx";
import attractions from "./routes/turismo/atractivos/index.tsx";
import practicalInfo from "./routes/turismo/informacion-practica.tsx";
import privacyNotice from "./routes/aviso-de-privacidad.tsx";
import provider from "./routes/turismo/servicios/[slug].tsx";
import services from "./routes/turismo/servicios/index.tsx";
import type { AppDeps } from "./deps.ts";
import { limitIpBudget } from "./lib/limits/ip_budget.ts";
import { compressResponses } from "./lib/http/compress.ts";
import { allowedMethodsOnly } from "./lib/http/allowed_methods.ts";
import { createErrorHandler } from "./lib/http/error_handler.ts";
import { jsonBody } from "./lib/http/json_body.ts";
import { apiDocument, registerSecuritySchemes } from "./lib/http/openapi.ts";
import { requestLog } from "./lib/http/request_log.ts";
import { type AppEnv, createRouter } from "./lib/http/router.ts";
import { getLangs } from "./lib/i18n/catalogue.ts";
import { setPageLang } from "./lib/i18n/context.ts";
import { getLangPrefix } from "./lib/i18n/paths.ts";
import {
  protectStaffForms,
  requireStaff,
  StaffForbiddenError,
} from "./lib/staff/guard.ts";
import { renderForbiddenPage } from "./routes/_app.tsx";
import {
  apiHeaders,
  isApiPath,
  securityHeaders,
  strictTransportSecurity,
} from "./lib/http/security_headers.ts";

/** Builds the whole service: middleware, then the route table. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createRouter();
  const { config } = deps;

  if (deps.requestLog) app.use(requestLog(deps.requestLog));
  app.use(compressResponses());
  app.use(strictTransportSecurity(config));
  app.use("/api/*", apiHeaders());
  const origins = new Set(config.allowedOrigins);
  if (config.baseUrl) origins.add(new URL(config.baseUrl).origin);
  app.use(
    "/api/*",
    cors({
      origin: (origin) => origins.has(origin) ? origin : null,
      // Added by apiHeaders, after the answer, only with an allowed origin:
      // hono/cors sets it before every request, which makes Hono wrap every
      // API answer's bytes in a stream (sent chunked, slower).
      credentials: false,
      allowMethods: ["GET", "POST", "OPTIONS"],
      allowHeaders: ["Content-Type", "Authorization"],
      maxAge: 600,
    }),
  );
  app.use(limitIpBudget(deps));
  // A wrong method on an API path: 405 with Allow, before any body is read.
  app.use(allowedMethodsOnly(() => app.routes, {
    paths: (path) => isApiPath(path) || path === "/healthz",
  }));
  app.use("/api/*", jsonBody({ timeoutMs: config.bodyTimeoutMs }));
  app.use(securityHeaders());
  // The page's language from its path (`/en/...`), for pages and the 404.
  app.use(setPageLang());
  // Staff console: "/panel/*" covers "/panel" too. Strangers get the 404
  // page; state-changing requests from another site are refused (403).
  app.use("/panel/*", requireStaff(deps));
  app.use("/panel/*", protectStaffForms(config));
  app.use("/auth/personal/*", protectStaffForms(config));

  // The route table: every path of the service.
  app.route("/healthz", healthz(deps)); // GET
  // API (docs/API.md)
  app.route("/api/turismo/ticket", ticket(deps)); // POST
  app.route("/api/turismo/verify-visit", verifyVisit(deps)); // POST, bearer
  app.route("/api/turismo/rate-visit", rateVisit(deps)); // POST, bearer
  app.route("/api/turismo/og", shareImage(deps)); // GET /:code
  app.route("/api/turismo/users", users(deps)); // GET /:userId/data, POST /:userId/name, /:userId/erase, bearer
  app.route("/api/turismo/erasures", erasureStatusRoute(deps)); // GET /:erasureId
  app.route("/api/chat", chat(deps)); // POST
  app.route("/api/session-token", sessionToken(deps)); // POST, session cookie
  // Public pages, once per language: the default language's at these
  // paths, each other's under its code (`/en/turismo/atractivos`); the
  // page reads its language with getLang(c). A new catalogue folder in
  // locales/ is a new set of pages, with no change here.
  for (const lang of getLangs()) {
    const prefix = getLangPrefix(lang); // "" or "/en"
    if (prefix) {
      // The language's home page is `/en/`: `/en` leads there.
      app.get(prefix, (c) => c.redirect(`${prefix}/`, 301));
    }
    app.route(`${prefix}/`, home(deps));
    app.route(`${prefix}/turismo/atractivos`, attractions(deps)); // GET /
    app.route(`${prefix}/turismo/atractivos`, attraction(deps)); // GET /:slug
    app.route(`${prefix}/turismo/servicios`, services(deps)); // GET /, ?tipo= ?cerca=
    app.route(`${prefix}/turismo/servicios`, provider(deps)); // GET /:slug
    app.route(`${prefix}/turismo/informacion-practica`, practicalInfo(deps)); // GET /
    app.route(`${prefix}/aviso-de-privacidad`, privacyNotice(deps)); // GET /
    app.route(`${prefix}/ruta`, touristRoute(deps)); // GET /:code
    app.route(`${prefix}/mi-pasaporte`, passportPage(deps));
    app.route(`${prefix}/mi-pasaporte`, passportData(deps)); // GET /datos.json, POST /nombre, GET+POST /borrar, GET /borrado/:id
    app.route(`${prefix}/datos`, openDataPage(deps)); // GET
    app.route(`${prefix}/datos`, openDataFiles(deps)); // GET /<file>.csv, /datapackage.json
    // Share cards of the public pages (og:image); route cards stay under /api
    app.route(`${prefix}/og/inicio.png`, homeCard(deps)); // GET
    app.route(`${prefix}/og/atractivos`, attractionCard(deps)); // GET /:slug.png
    // A tourist's sign-in and sign-out, their message pages in the language
    // (the provider's callback stays at one address: /auth/callback)
    app.route(`${prefix}/auth/signin`, signin(deps)); // GET
    app.route(`${prefix}/auth/signout`, signout(deps)); // POST
  }
  // Sign-in
  app.route("/auth/callback", authCallback(deps)); // GET
  app.route("/auth/personal", staffSignInPage(deps)); // GET, ?sesion=vencida
  app.route("/auth/personal/proveedor", staffProviderSignIn(deps)); // GET
  app.route("/auth/personal", staffLink(deps)); // GET, POST /:token
  // Staff console (behind requireStaff; admin-only pages use requireAdmin)
  app.route("/panel", panelHome(deps)); // GET
  app.route("/panel/auditoria", auditPage(deps)); // GET, ?antes=, admin
  app.route("/panel/codigos", codesPage(deps)); // GET, POST /:slug, GET /:slug/cartel.svg, admin
  app.route("/panel/notas", notesPage(deps)); // GET ?antes=, POST /:visitId/ocultar|mostrar, admin
  app.route("/panel/preguntas", questionsPage(deps)); // GET, POST /resolver, admin
  app.route("/panel/exportar", exportPage(deps)); // GET, GET /<file>.csv (audited)
  app.route("/panel/solicitudes", requestsPage(deps)); // GET ?correo=, GET /:code/datos.json, POST /:code/borrar (audited), admin
  app.route("/panel/salir", staffSignOut(deps)); // POST
  // Assets
  app.route("/theme.css", theme(deps));
  app.route("/logo.svg", logo(deps));
  app.route("/static", staticFiles());

  registerSecuritySchemes(app.openAPIRegistry, config);
  app.doc31("/openapi.json", apiDocument(config));

  app.notFound(notFound(deps));
  const handleError = createErrorHandler();
  app.onError((error, c) =>
    // A staff refusal raised by middleware (cross-site, role): the 403 page.
    error instanceof StaffForbiddenError
      ? renderForbiddenPage(c, deps, error)
      : handleError(error, c)
  );
  return app;
}

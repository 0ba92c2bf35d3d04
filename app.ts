import { Hono, type NotFoundHandler } from "hono";
import { cors } from "hono/cors";
import healthz, { describeHealthz } from "./routes/healthz.ts";
import type { AppDeps } from "./deps.ts";
import { limitIpBudget } from "./lib/limits/ip_budget.ts";
import { compressResponses } from "./lib/http/compress.ts";
import { CrossSiteError, refuseCrossSite } from "./lib/http/cross_site.ts";
import { allowedMethodsOnly } from "./lib/http/allowed_methods.ts";
import { chatErrorBodies } from "./lib/chat/replies.ts";
import { createErrorHandler } from "./lib/http/error_handler.ts";
import { jsonBody } from "./lib/http/json_body.ts";
import { LazyRoutes, type MountOptions } from "./lib/http/lazy_routes.ts";
import { requestLog } from "./lib/http/request_log.ts";
import type { AppEnv } from "./lib/http/router.ts";
import { getLangs } from "./lib/i18n/catalogue.ts";
import { getLang, setPageLang } from "./lib/http/page_lang.ts";
import { getLangPrefix } from "./lib/i18n/paths.ts";
import {
  apiHeaders,
  isApiPath,
  securityHeaders,
  strictTransportSecurity,
} from "./lib/http/security_headers.ts";

/**
 * Builds the whole service: middleware, then the route table. Every route
 * module but the health check is imported on the first request that
 * reaches it (lib/http/lazy_routes.ts), so a new instance answers its first
 * request after loading only what that request needs.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;

  // A page, card or health answer kept whole while current, replayed
  // before Hono runs (lib/http/replay.ts): counted and logged as any other.
  const replayed = deps.replayedAnswers;
  app.use(replayed.keep());
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
      // Idempotency-Key: a ticket request's retries (docs/API.md, ticket).
      allowHeaders: ["Content-Type", "Authorization", "Idempotency-Key"],
      maxAge: 600,
    }),
  );
  app.use(limitIpBudget(deps));
  // A wrong method: 405 with Allow, before any body is read (the API's
  // routes check theirs in their mount, below).
  app.use(allowedMethodsOnly(() => app.routes, {
    paths: (path) => path === "/healthz",
  }));
  app.use(securityHeaders());
  // The page's language from its path (`/en/...`), for pages and the 404;
  // each mount's sub-app sets it again on its own context.
  app.use(setPageLang());

  const notFound = createNotFoundHandler(deps);
  // The chat's errors are `{reply}` bodies (docs/API.md): its own words.
  const onError = createErrorHandler({ bodies: [chatErrorBodies] });
  const routes = new LazyRoutes(app, deps, {
    createGroup: () => new Hono<AppEnv>(),
    notFound,
    onError,
    use: () => [setPageLang()],
  });
  // Each API route: 405 with Allow for a wrong method, then its JSON body
  // read and parsed (415, 413, 408, 400) before the handler.
  const api: MountOptions<AppEnv> = {
    use: (group) => [
      allowedMethodsOnly(() => group.routes, { paths: isApiPath }),
      jsonBody({ timeoutMs: config.bodyTimeoutMs }),
    ],
  };
  // Staff console: strangers get the 404 page; state-changing requests
  // from another site are refused with the 403 page.
  const staffOnly: MountOptions<AppEnv> = {
    use: async () => {
      const guard = await import("./lib/staff/mod.ts");
      return [guard.requireStaff(deps), guard.protectStaffForms(config)];
    },
    onError: renderStaffRefusal(deps),
  };
  const staffForms: MountOptions<AppEnv> = {
    use: async () => {
      const guard = await import("./lib/staff/mod.ts");
      return [guard.protectStaffForms(config)];
    },
    onError: renderStaffRefusal(deps),
  };
  // A tourist's cookie routes: the same cross-site check (403 page).
  const touristForms: MountOptions<AppEnv> = {
    use: () => [refuseCrossSite(config)],
    onError: renderCrossSiteRefusal(deps),
  };
  // The passport's pages: the same check, then the browser's session on the
  // context (a route that needs one refuses without it).
  const readTourist = async () =>
    (await import("./lib/oauth/mod.ts")).readTouristSession(deps);
  const touristPages: MountOptions<AppEnv> = {
    use: async () => [refuseCrossSite(config), await readTourist()],
    onError: renderCrossSiteRefusal(deps),
  };
  const sessionApi: MountOptions<AppEnv> = {
    use: async (group) => [
      refuseCrossSite(config),
      ...await api.use!(group),
      await readTourist(),
    ],
  };

  // The route table: every path of the service.
  app.route("/healthz", healthz(deps)); // GET
  // API (docs/API.md)
  routes.mount(
    "/api/turismo/ticket",
    () => import("./routes/api/turismo/ticket.ts"),
    api,
  ); // POST
  routes.mount(
    "/api/turismo/verify-visit",
    () => import("./routes/api/turismo/verify-visit.ts"),
    api,
  ); // POST, bearer
  routes.mount(
    "/api/turismo/check-in",
    () => import("./routes/api/turismo/check-in.ts"),
    api,
  ); // POST, bearer (a device's queue: exactly once)
  routes.mount(
    "/api/turismo/rate-visit",
    () => import("./routes/api/turismo/rate-visit.ts"),
    api,
  ); // POST, bearer
  routes.mount(
    "/api/turismo/og",
    () => import("./routes/api/turismo/og/[code].ts"),
    api,
  ); // GET /:code
  routes.mount(
    "/api/turismo/users",
    () => import("./routes/api/turismo/users.ts"),
    api,
  ); // GET /:userId/data, POST /:userId/name, /:userId/erase, bearer
  routes.mount(
    "/api/turismo/erasures",
    () =>
      import("./routes/api/turismo/users.ts").then((m) => ({
        default: m.erasureStatusRoute,
      })),
    api,
  ); // GET /:erasureId
  routes.mount(
    "/api/turismo/prizes",
    () => import("./routes/api/turismo/prizes.ts"),
    api,
  ); // GET, POST /:prizeId/claim, bearer (issue 43)
  routes.mount("/api/chat", () => import("./routes/api/chat.ts"), api); // POST
  routes.mount(
    "/api/session-token",
    () => import("./routes/api/session-token.ts"),
    sessionApi,
  ); // POST, session cookie
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
    routes.mount(`${prefix}/`, () => import("./routes/index.tsx"), {
      exact: true,
    });
    routes.mount(`${prefix}/turismo/atractivos`, [
      [
        `${prefix}/turismo/atractivos`,
        () => import("./routes/turismo/atractivos/index.tsx"),
      ], // GET /
      [
        `${prefix}/turismo/atractivos`,
        () => import("./routes/turismo/atractivos/[slug].tsx"),
      ], // GET /:slug
    ]);
    routes.mount(`${prefix}/turismo/servicios`, [
      [
        `${prefix}/turismo/servicios`,
        () => import("./routes/turismo/servicios/index.tsx"),
      ], // GET /, ?tipo= ?cerca=
      [
        `${prefix}/turismo/servicios`,
        () => import("./routes/turismo/servicios/[slug].tsx"),
      ], // GET /:slug
    ]);
    routes.mount(
      `${prefix}/turismo/mapa`,
      () => import("./routes/turismo/mapa.tsx"),
    ); // GET /
    routes.mount(
      `${prefix}/turismo/informacion-practica`,
      () => import("./routes/turismo/informacion-practica.tsx"),
    ); // GET /
    // The events still to come as iCalendar (docs/API.md, "Calendar feeds")
    routes.mount(
      `${prefix}/turismo/eventos.ics`,
      () => import("./routes/turismo/eventos.ts"),
      { exact: true },
    ); // GET
    routes.mount(
      `${prefix}/turismo/eventos`,
      () =>
        import("./routes/turismo/eventos.ts").then((m) => ({
          default: m.eventCalendar,
        })),
    ); // GET /:slug.ics
    routes.mount(
      `${prefix}/aviso-de-privacidad`,
      () => import("./routes/aviso-de-privacidad.tsx"),
    ); // GET /
    // The offline page (what the service worker shows) and the web app
    // manifest, in the language (docs/OFFLINE.md)
    routes.mount(
      `${prefix}/sin-conexion`,
      () => import("./routes/sin-conexion.tsx"),
    ); // GET
    routes.mount(
      `${prefix}/manifest.webmanifest`,
      () => import("./routes/manifest.webmanifest.ts"),
    ); // GET
    routes.mount(`${prefix}/ruta`, () => import("./routes/ruta/[code].tsx")); // GET /:code
    routes.mount(`${prefix}/mi-pasaporte`, [
      [`${prefix}/mi-pasaporte`, () => import("./routes/mi-pasaporte.tsx")],
      [
        `${prefix}/mi-pasaporte`,
        () => import("./routes/mi-pasaporte/datos.tsx"),
      ], // GET /datos.json, POST /nombre, GET+POST /borrar, GET /borrado/:id
    ], touristPages);
    routes.mount(`${prefix}/datos`, [
      [`${prefix}/datos`, () => import("./routes/datos/index.tsx")], // GET
      [`${prefix}/datos`, () => import("./routes/datos/files.ts")], // GET /<file>.csv, /datapackage.json
    ]);
    // Share cards of the public pages (og:image); route cards stay under /api
    routes.mount(
      `${prefix}/og/inicio.png`,
      () => import("./routes/og/inicio.png.ts"),
    ); // GET
    routes.mount(
      `${prefix}/og/atractivos`,
      () => import("./routes/og/atractivos/[slug].png.ts"),
    ); // GET /:slug.png
    // A tourist's sign-in and sign-out, their message pages in the language
    // (the provider's callback stays at one address: /auth/callback)
    routes.mount(
      `${prefix}/auth/signin`,
      () => import("./routes/auth/signin.ts"),
    ); // GET
    routes.mount(
      `${prefix}/auth/signout`,
      () => import("./routes/auth/signout.ts"),
      touristForms,
    ); // POST
  }
  // Sign-in
  routes.mount("/auth/callback", () => import("./routes/auth/callback.ts")); // GET
  routes.mount("/auth/personal", [
    ["/auth/personal", () => import("./routes/staff_auth/index.tsx")], // GET, ?sesion=vencida
    [
      "/auth/personal/proveedor",
      () => import("./routes/staff_auth/proveedor.ts"),
    ], // GET
    ["/auth/personal", () => import("./routes/staff_auth/[token].tsx")], // GET, POST /:token
  ], staffForms);
  // A partner business's own page: its PIN, then its customers' prize codes
  routes.mount("/socio", () => import("./routes/socio.tsx"), touristForms); // GET, POST /entrar|canjear|salir
  // Staff console (behind requireStaff; admin-only pages use requireAdmin)
  routes.mount("/panel", [
    ["/panel", () => import("./routes/panel/index.tsx")], // GET
    ["/panel/atractivos", () => import("./routes/panel/atractivos/index.tsx")], // GET ?desde=&hasta=
    ["/panel/atractivos", () => import("./routes/panel/atractivos/[slug].tsx")], // GET /:slug ?desde=&hasta=, POST /:slug/registro, admin
    ["/panel/auditoria", () => import("./routes/panel/auditoria.tsx")], // GET, ?antes=, admin
    ["/panel/codigos", () => import("./routes/panel/codigos.tsx")], // GET, POST /:slug, GET /:slug/cartel.svg, admin
    ["/panel/notas", () => import("./routes/panel/notas.tsx")], // GET ?antes=, POST /:visitId/ocultar|mostrar, admin
    ["/panel/preguntas", () => import("./routes/panel/preguntas.tsx")], // GET, POST /resolver, admin
    ["/panel/exportar", () => import("./routes/panel/exportar.tsx")], // GET, GET /<file>.csv, /libro.xlsx (audited)
    ["/panel/informe", () => import("./routes/panel/informe.tsx")], // GET ?mes=YYYY-MM: the monthly PDF report (audited)
    ["/panel/premios", () => import("./routes/panel/premios/index.tsx")], // GET, GET|POST /comercio[/:id], /premio[/:id], POST /comercio/:id/pin (audited), admin to change
    ["/panel/premios", () => import("./routes/panel/premios/informe.ts")], // GET /:partnerId/informe.pdf ?mes=YYYY-MM: a partner's own monthly PDF (audited)
    ["/panel/carteles.pdf", () => import("./routes/panel/carteles.ts")], // GET: every poster, one page each (audited), admin
    ["/panel/solicitudes", () => import("./routes/panel/solicitudes.tsx")], // GET ?correo=, GET /:code/datos.json, POST /:code/borrar (audited), admin
    ["/panel/sesiones", () => import("./routes/panel/sesiones.tsx")], // GET, POST /:ref/cerrar (audited), admin
    ["/panel/personal", () => import("./routes/panel/personal.tsx")], // GET, POST /invitar|enlace|rol|quitar (audited), admin
    ["/panel/contenido", () => import("./routes/panel/contenido/index.tsx")], // GET, GET /turismo.json (audited, admin), POST /publicar (multipart, audited, admin)
    [
      "/panel/contenido/versiones",
      () => import("./routes/panel/contenido/versiones.tsx"),
    ], // GET /:id, POST /:id/restaurar (audited, admin)
    [
      "/panel/contenido/editar",
      () =>
        import("./routes/panel/contenido/editar.tsx").then((m) => ({
          default: (deps: AppDeps) => m.default(deps, { buildApp: createApp }),
        })),
    ], // GET, GET /:part/:key, /:part/:key/vista-previa?lang=, POST /:part/:key (a draft; publish: admins, audited); not viewers
    ["/panel/fotos", () => import("./routes/panel/fotos.tsx")], // GET ?desde=, POST (multipart, audited), admin to upload
    ["/panel/fotos", () => import("./routes/panel/fotos/[id].tsx")], // POST /:id/borrar/confirmar, /:id/borrar (audited), admin
    ["/panel/salir", () => import("./routes/panel/salir.ts")], // POST
  ], staffOnly);
  // Assets
  routes.mount("/theme.css", () => import("./routes/theme.css.ts"));
  routes.mount("/logo.svg", () => import("./routes/logo.svg.ts"));
  routes.mount("/icons", () => import("./routes/icons.ts")); // GET /<purpose>-<size>.png?v= (a logo published after the build)
  routes.mount("/fotos", () => import("./routes/fotos/[file].ts")); // GET /<id>-<width>.webp|.jpg
  routes.mount("/sw.js", () => import("./routes/sw.js.ts")); // the service worker, scope /
  routes.mount("/static", () => import("./routes/static.ts"));
  // The API's contract, built from the operations' own definitions.
  app.get("/openapi.json", async (c) => {
    const [{ createApiDocument }, mounted, health] = await Promise.all([
      import("./lib/http/openapi.ts"),
      routes.loadAll(isApiPath),
      describeHealthz(),
    ]);
    return c.json(createApiDocument(config, mounted, [health]));
  });

  app.notFound(notFound);
  app.onError(onError);
  // Before Hono: a kept answer goes out in the same turn (`Deno.serve`
  // sends a synchronous answer without awaiting a promise).
  const dispatch = app.fetch;
  app.fetch = (request, env, executionCtx) =>
    replayed.answer(request, env) ?? dispatch(request, env, executionCtx);
  return app;
}

/**
 * A path no route takes: the JSON 404 under `/api`, the friendly page
 * elsewhere (routes/_404.tsx, imported with the first such page).
 */
function createNotFoundHandler(deps: AppDeps): NotFoundHandler<AppEnv> {
  let page: Promise<NotFoundHandler> | undefined;
  return async function notFound(c) {
    page ??= import("./routes/_404.tsx").then((m) => m.default(deps));
    const handle = await page;
    return await handle(c);
  };
}

/** A tourist's cross-site request refused: a 403 page in the page's language. */
function renderCrossSiteRefusal(
  deps: AppDeps,
): MountOptions<AppEnv>["onError"] {
  return async (error, c) => {
    if (!(error instanceof CrossSiteError)) return undefined;
    const { renderAuthMessage, tAuth } = await import(
      "./routes/_shared/auth_message.tsx"
    );
    const lang = getLang(c);
    const prefix = getLangPrefix(lang);
    return renderAuthMessage(c, deps, {
      status: 403,
      title: tAuth(lang, "crossSiteTitle"),
      body: error.describe(lang).details,
      // The passport's forms: back to the passport, to do it from there.
      retryHref: c.req.path.startsWith(`${prefix}/mi-pasaporte/`)
        ? `${prefix}/mi-pasaporte`
        : undefined,
    });
  };
}

/**
 * A staff refusal raised by the guards (cross-site, role): the 403 page in
 * the staff frame, the console's for a signed-in member, else the plain
 * sign-in frame.
 */
function renderStaffRefusal(deps: AppDeps): MountOptions<AppEnv>["onError"] {
  return async (error, c) => {
    const [{ StaffForbiddenError }, { renderStaffRefusalPage }] = await Promise
      .all([
        import("./lib/staff/mod.ts"),
        import("./routes/panel/_page.tsx"),
      ]);
    return error instanceof StaffForbiddenError
      ? renderStaffRefusalPage(c, deps, error)
      : undefined;
  };
}

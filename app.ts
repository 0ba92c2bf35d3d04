import type { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import notFound from "./routes/_404.tsx";
import chat from "./routes/api/chat.ts";
import sessionToken from "./routes/api/session-token.ts";
import shareImage from "./routes/api/turismo/og/[code].ts";
import rateVisit from "./routes/api/turismo/rate-visit.ts";
import ticket from "./routes/api/turismo/ticket.ts";
import verifyVisit from "./routes/api/turismo/verify-visit.ts";
import authCallback from "./routes/auth/callback.ts";
import signin from "./routes/auth/signin.ts";
import signout from "./routes/auth/signout.ts";
import healthz from "./routes/healthz.ts";
import home from "./routes/index.tsx";
import logo from "./routes/logo.svg.ts";
import passportPage from "./routes/mi-pasaporte.tsx";
import touristRoute from "./routes/ruta/[code].tsx";
import staticFiles from "./routes/static.ts";
import theme from "./routes/theme.css.ts";
import attraction from "./routes/turismo/atractivos/[slug].tsx";
import attractions from "./routes/turismo/atractivos/index.tsx";
import type { AppDeps } from "./deps.ts";
import { limitIpBudget } from "./lib/limits/ip_budget.ts";
import { compressResponses } from "./lib/http/compress.ts";
import { createErrorHandler } from "./lib/http/error_handler.ts";
import { jsonBody } from "./lib/http/json_body.ts";
import { requestLog } from "./lib/http/request_log.ts";
import { type AppEnv, createRouter } from "./lib/http/router.ts";
import {
  apiHeaders,
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
      credentials: true,
      allowMethods: ["GET", "POST", "OPTIONS"],
      allowHeaders: ["Content-Type", "Authorization"],
      maxAge: 600,
    }),
  );
  app.use(limitIpBudget(deps));
  app.use("/api/*", jsonBody({ timeoutMs: config.bodyTimeoutMs }));
  app.use(securityHeaders());

  // The route table: every path of the service.
  app.route("/healthz", healthz(deps)); // GET
  // API (spec section 4)
  app.route("/api/turismo/ticket", ticket(deps)); // POST
  app.route("/api/turismo/verify-visit", verifyVisit(deps)); // POST, bearer
  app.route("/api/turismo/rate-visit", rateVisit(deps)); // POST, bearer
  app.route("/api/turismo/og", shareImage(deps)); // GET /:code
  app.route("/api/chat", chat(deps)); // POST
  app.route("/api/session-token", sessionToken(deps)); // POST, session cookie
  // Pages
  app.route("/", home(deps));
  app.route("/turismo/atractivos", attractions(deps)); // GET /
  app.route("/turismo/atractivos", attraction(deps)); // GET /:slug
  app.route("/ruta", touristRoute(deps)); // GET /:code
  app.route("/mi-pasaporte", passportPage(deps));
  // Sign-in
  app.route("/auth/signin", signin(deps)); // GET
  app.route("/auth/callback", authCallback(deps)); // GET
  app.route("/auth/signout", signout(deps)); // POST
  // Assets
  app.route("/theme.css", theme(deps));
  app.route("/logo.svg", logo(deps));
  app.route("/static", staticFiles());

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Municipal tourism service",
      version: "1.0.0",
      description:
        "Tickets, visits, badges, ratings, share images and the tourism assistant.",
    },
  });

  app.notFound(notFound(deps));
  app.onError(createErrorHandler());
  return app;
}

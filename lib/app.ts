import type { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import healthz from "../routes/healthz.ts";
import chat from "../routes/api/chat.ts";
import ticket from "../routes/api/turismo/ticket.ts";
import verifyVisit from "../routes/api/turismo/verify-visit.ts";
import rateVisit from "../routes/api/turismo/rate-visit.ts";
import shareImage from "../routes/api/turismo/og/[code].ts";
import sessionToken from "../routes/api/session-token.ts";
import signin from "../routes/auth/signin.ts";
import authCallback from "../routes/auth/callback.ts";
import signout from "../routes/auth/signout.ts";
import passportPage from "../routes/mi-pasaporte.tsx";
import type { AppDeps } from "./deps.ts";
import { limitIpBudget } from "./http_budget.ts";
import {
  type AppEnv,
  createErrorHandler,
  createRouter,
  jsonBody,
  requestLog,
} from "./http.ts";
import { securityHeaders } from "./pages/security_headers.ts";
import home from "../routes/index.tsx";
import attractions from "../routes/turismo/atractivos/index.tsx";
import attraction from "../routes/turismo/atractivos/[slug].tsx";
import touristRoute from "../routes/ruta/[code].tsx";
import theme from "../routes/theme.css.ts";
import logo from "../routes/logo.svg.ts";
import staticFiles from "../routes/static.ts";
import notFound from "../routes/_404.tsx";

/** Builds the whole service: middleware, then the route table. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createRouter();
  const { config } = deps;

  if (config.logRequests) app.use(requestLog());
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
  app.use("/api/*", jsonBody());
  app.use(securityHeaders());

  // The route table: every path of the service.
  app.route("/healthz", healthz(deps));
  app.route("/", home(deps));
  app.route("/turismo/atractivos", attractions(deps));
  app.route("/turismo/atractivos", attraction(deps));
  app.route("/ruta", touristRoute(deps));
  app.route("/theme.css", theme(deps));
  app.route("/logo.svg", logo(deps));
  app.route("/static", staticFiles());
  app.route("/api/chat", chat(deps));
  app.route("/api/turismo/ticket", ticket(deps));
  app.route("/api/turismo/verify-visit", verifyVisit(deps));
  app.route("/api/turismo/rate-visit", rateVisit(deps));
  app.route("/api/turismo/og", shareImage(deps));
  app.route("/api/session-token", sessionToken(deps));
  app.route("/auth/signin", signin(deps));
  app.route("/auth/callback", authCallback(deps));
  app.route("/auth/signout", signout(deps));
  app.route("/mi-pasaporte", passportPage(deps));

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

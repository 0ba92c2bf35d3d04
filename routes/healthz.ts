import { Hono } from "hono";
import type { RouteConfig } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { ServiceUnavailableError } from "@/lib/errors/mod.ts";
import { allowReplay } from "@/lib/http/mod.ts";

const encoder = new TextEncoder();

/**
 * `GET /healthz`: KV answers and the data set is loaded. A plain handler in
 * the app's core, so a health check (often a new instance's first request)
 * loads no schema library; its OpenAPI operation is
 * {@linkcode describeHealthz}, read when `/openapi.json` is built.
 */
export default function healthz({ pingKv, data }: AppDeps) {
  return new Hono().get("/", async (c) => {
    try {
      await pingKv();
    } catch {
      throw new ServiceUnavailableError("El almacenamiento no responde");
    }
    const status = data.status();
    const body = encoder.encode(JSON.stringify(
      status.reloadError
        ? {
          status: "degraded",
          dataVersion: status.version,
          reason:
            `The data set's last change was refused: ${status.reloadError}`,
        }
        : { status: "ok", dataVersion: status.version },
    ));
    // Repeated without asking again while KV's last answer is under a
    // second old and the data set's state is the same.
    allowReplay(c, () => {
      const now = data.status();
      return pingKv.answered() && now.version === status.version &&
        now.reloadError === status.reloadError;
    });
    return c.body(body, 200, { "Content-Type": "application/json" });
  });
}

/** The health check's OpenAPI operation, for `/openapi.json`. */
export async function describeHealthz(): Promise<RouteConfig> {
  const [{ createRoute, z }, { errorResponses, SECURITY, TAGS }] = await Promise
    .all([
      import("@hono/zod-openapi"),
      import("@/lib/http/openapi.ts"),
    ]);
  return createRoute({
    method: "get",
    path: "/healthz",
    operationId: "getHealth",
    tags: [TAGS.health],
    summary: "Liveness and storage check",
    security: SECURITY.public,
    responses: {
      200: {
        description:
          "The service and its KV store answer. `degraded`: the data set's last reload was refused and the last good version is served",
        content: {
          "application/json": {
            schema: z.object({
              status: z.enum(["ok", "degraded"]),
              dataVersion: z.string(),
              reason: z.string().optional().openapi({
                description: "Why the status is degraded",
              }),
            }),
          },
        },
      },
      // Not counted by the per-address budget: load balancers poll it.
      ...errorResponses({ 503: "KV cannot be read" }, { ipBudget: false }),
    },
  });
}

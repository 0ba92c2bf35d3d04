import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { ServiceUnavailableError } from "@/lib/http/errors.ts";
import { createRouter, jsonResponse } from "@/lib/http/router.ts";
import { pingKv } from "@/lib/db/kv.ts";

const route = createRoute({
  method: "get",
  path: "/",
  summary: "Liveness and storage check",
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
    503: jsonResponse("KV cannot be read"),
  },
});

export default function healthz({ kv, data }: AppDeps) {
  return createRouter().openapi(route, async (c) => {
    try {
      await pingKv(kv);
    } catch {
      throw new ServiceUnavailableError("El almacenamiento no responde");
    }
    const { version, reloadError } = data.status();
    if (reloadError) {
      return c.json({
        status: "degraded" as const,
        dataVersion: version,
        reason: `The data set's last change was refused: ${reloadError}`,
      }, 200);
    }
    return c.json({ status: "ok" as const, dataVersion: version }, 200);
  });
}

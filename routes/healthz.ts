import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "../lib/deps.ts";
import { ServiceUnavailableError } from "../lib/errors.ts";
import { createRouter } from "../lib/http.ts";
import { pingKv } from "../lib/db/kv.ts";

const route = createRoute({
  method: "get",
  path: "/",
  summary: "Liveness and storage check",
  responses: {
    200: {
      description: "The service and its KV store answer",
      content: {
        "application/json": {
          schema: z.object({
            status: z.literal("ok"),
            dataVersion: z.string(),
          }),
        },
      },
    },
  },
});

export default function healthz({ kv, data }: AppDeps) {
  return createRouter().openapi(route, async (c) => {
    try {
      await pingKv(kv);
    } catch {
      throw new ServiceUnavailableError("El almacenamiento no responde");
    }
    return c.json({
      status: "ok" as const,
      dataVersion: data.current().version,
    }, 200);
  });
}

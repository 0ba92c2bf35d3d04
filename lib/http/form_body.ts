import type { Context } from "hono";

/**
 * The text fields of a form a page posted (`application/x-www-form-urlencoded`
 * or `multipart/form-data`; files are dropped). A body that is no readable
 * form (a multipart type without its boundary, broken parts, another type)
 * is a form without fields: the route's own check of what it needs answers
 * it, as it answers an empty form (a 4xx page), never a 500.
 */
export async function readForm(c: Context): Promise<Record<string, string>> {
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch (error) {
    // What the platform's FormData parser throws for a body it cannot read.
    if (error instanceof TypeError) return {};
    throw error;
  }
  return Object.fromEntries(
    Object.entries(body).filter((entry): entry is [string, string] =>
      typeof entry[1] === "string"
    ),
  );
}
